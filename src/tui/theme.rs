//! Colours and styles. Colour never carries meaning alone: every coloured span also has a
//! letter in the ruler under the input, and selections are bold and reversed.

use ratatui::style::{Color, Modifier, Style};

/// What part of the URL an input code point ended up in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Scheme,
    Userinfo,
    Host,
    Port,
    Path,
    Query,
    Fragment,
}

impl From<crate::trace::Part> for Part {
    fn from(p: crate::trace::Part) -> Self {
        use crate::trace::Part as D;
        match p {
            D::Scheme => Part::Scheme,
            D::Userinfo => Part::Userinfo,
            D::Host => Part::Host,
            D::Port => Part::Port,
            D::Path => Part::Path,
            D::Query => Part::Query,
            D::Fragment => Part::Fragment,
        }
    }
}

impl Part {
    /// The ruler letter.
    pub fn letter(self) -> char {
        match self {
            Part::Scheme => 's',
            Part::Userinfo => 'u',
            Part::Host => 'h',
            Part::Port => 'n',
            Part::Path => 'p',
            Part::Query => 'q',
            Part::Fragment => 'f',
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub struct Theme {
    pub color: bool,
}

impl Theme {
    /// Colour unless `NO_COLOR` is set (to anything non-empty).
    ///
    /// `NO_COLOR` asks for no colour, not for no emphasis: the theme leaves the colours out
    /// itself and keeps reverse video, bold and underline. crossterm reads `NO_COLOR` too, and
    /// writes each colour it is given as an empty SGR sequence (`ESC [ m`), which resets every
    /// attribute: the reverse video marking a look-alike letter would be gone before the
    /// letter is drawn. So crossterm is told to write the colours; the theme gives it only
    /// `Reset`.
    pub fn from_env() -> Self {
        crossterm::style::force_color_output(true);
        Theme {
            color: std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
        }
    }

    fn fg(&self, color: Color) -> Style {
        if self.color {
            Style::default().fg(color)
        } else {
            Style::default()
        }
    }

    /// Mid-tone colours that read on dark and light backgrounds alike.
    pub fn part(&self, part: Part) -> Style {
        self.fg(match part {
            Part::Scheme => Color::Magenta,
            // Orange, not red: red means an error, and credentials are not one by themselves.
            Part::Userinfo => Color::Indexed(208),
            Part::Host => Color::Cyan,
            Part::Port => Color::Yellow,
            Part::Path => Color::Green,
            Part::Query => Color::Blue,
            Part::Fragment => Color::LightMagenta,
        })
    }

    pub fn error(&self) -> Style {
        self.fg(Color::Red).add_modifier(Modifier::UNDERLINED)
    }

    /// The input's path through a railroad diagram.
    pub fn on_path(&self) -> Style {
        self.fg(Color::Green).add_modifier(Modifier::BOLD)
    }

    pub fn dim(&self) -> Style {
        if self.color {
            Style::default().fg(Color::DarkGray)
        } else {
            Style::default()
        }
    }

    /// A pane's border: coloured where the keys go.
    pub fn border(&self, focused: bool) -> Style {
        if focused {
            self.fg(Color::Yellow)
        } else if self.color {
            Style::default().fg(Color::DarkGray)
        } else {
            Style::default()
        }
    }

    /// The selection of a pane that does not have the focus: still visible, quieter.
    pub fn selected_unfocused(&self) -> Style {
        if self.color {
            Style::default().bg(Color::Indexed(237))
        } else {
            Style::default().add_modifier(Modifier::UNDERLINED)
        }
    }

    /// The selected validation error's code points in the input.
    pub fn error_selected(&self) -> Style {
        self.error().add_modifier(Modifier::REVERSED)
    }

    pub fn warn(&self) -> Style {
        self.fg(Color::Yellow)
    }

    pub fn ok(&self) -> Style {
        self.fg(Color::Green)
    }

    pub fn title(&self, focused: bool) -> Style {
        if focused {
            self.fg(Color::Yellow).add_modifier(Modifier::BOLD)
        } else {
            Style::default()
        }
    }

    pub fn selected(&self) -> Style {
        Style::default().add_modifier(Modifier::REVERSED | Modifier::BOLD)
    }

    pub fn escape(&self) -> Style {
        self.fg(Color::Yellow).add_modifier(Modifier::ITALIC)
    }
}
