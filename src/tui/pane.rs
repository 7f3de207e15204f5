//! The panes: their names, numbers and order. Adding a view is one variant here (in
//! [`Pane::ALL`] and [`Pane::VIEWS`], with its names), and one entry in `panes::VIEWS` with its
//! module under `panes/`.

/// The panes, in focus order; the number keys 1–9 reach them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pane {
    Input,
    Base,
    Trace,
    Components,
    Errors,
    Host,
    Resolution,
    Grammar,
    Parsers,
    Pattern,
}

impl Pane {
    pub const ALL: [Pane; 10] = [
        Pane::Input,
        Pane::Base,
        Pane::Trace,
        Pane::Components,
        Pane::Errors,
        Pane::Host,
        Pane::Resolution,
        Pane::Grammar,
        Pane::Parsers,
        Pane::Pattern,
    ];

    /// The panes that show the report (everything but the two text lines): the views of the
    /// tab bar on a small screen.
    pub const VIEWS: [Pane; 8] = [
        Pane::Trace,
        Pane::Components,
        Pane::Errors,
        Pane::Host,
        Pane::Resolution,
        Pane::Grammar,
        Pane::Parsers,
        Pane::Pattern,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Pane::Input => "Input",
            Pane::Base => "Base",
            Pane::Trace => "Trace",
            Pane::Components => "Components",
            Pane::Errors => "Validation errors",
            Pane::Host => "Host",
            Pane::Resolution => "Base resolution",
            Pane::Grammar => "Grammar",
            Pane::Parsers => "Parsers",
            Pane::Pattern => "URL pattern",
        }
    }

    /// A short name for the tab bar.
    pub fn tab(self) -> &'static str {
        match self {
            Pane::Errors => "Errors",
            Pane::Resolution => "Resolution",
            Pane::Pattern => "Pattern",
            other => other.title(),
        }
    }

    pub fn number(self) -> usize {
        Pane::ALL.iter().position(|&p| p == self).unwrap_or(0) + 1
    }

    /// The digit that reaches the pane: its number, and 0 for the tenth.
    pub fn digit(self) -> usize {
        self.number() % 10
    }

    /// The pane the digit key `n` reaches (1–9, and 0 for the tenth).
    pub fn numbered(n: usize) -> Option<Pane> {
        let n = if n == 0 { 10 } else { n };
        Pane::ALL.get(n.checked_sub(1)?).copied()
    }

    /// The name `--view` takes for the pane (none for the text lines).
    pub fn name(self) -> Option<&'static str> {
        Some(match self {
            Pane::Input | Pane::Base => return None,
            Pane::Trace => "trace",
            Pane::Components => "components",
            Pane::Errors => "errors",
            Pane::Host => "host",
            Pane::Resolution => "resolution",
            Pane::Grammar => "grammar",
            Pane::Parsers => "parsers",
            Pane::Pattern => "pattern",
        })
    }

    /// The pane `--view` opens by `name`.
    pub fn named(name: &str) -> Option<Pane> {
        Pane::VIEWS.into_iter().find(|p| p.name() == Some(name))
    }

    /// Whether the pane is a line of text to edit (otherwise a list or a document).
    pub fn is_text(self) -> bool {
        matches!(self, Pane::Input | Pane::Base)
    }

    pub fn index(self) -> usize {
        self.number() - 1
    }
}
