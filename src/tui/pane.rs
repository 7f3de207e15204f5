//! The panes: their names, numbers and order. Adding a pane is one variant here, one entry in
//! [`Pane::ALL`], one module under `panes/` and one line in `panes::render`.

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
}

impl Pane {
    pub const ALL: [Pane; 9] = [
        Pane::Input,
        Pane::Base,
        Pane::Trace,
        Pane::Components,
        Pane::Errors,
        Pane::Host,
        Pane::Resolution,
        Pane::Grammar,
        Pane::Parsers,
    ];

    /// The panes that show the report (everything but the two text lines): the views of the
    /// tab bar on a small screen.
    pub const VIEWS: [Pane; 7] = [
        Pane::Trace,
        Pane::Components,
        Pane::Errors,
        Pane::Host,
        Pane::Resolution,
        Pane::Grammar,
        Pane::Parsers,
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
        }
    }

    /// A short name for the tab bar.
    pub fn tab(self) -> &'static str {
        match self {
            Pane::Errors => "Errors",
            Pane::Resolution => "Resolution",
            other => other.title(),
        }
    }

    pub fn number(self) -> usize {
        Pane::ALL.iter().position(|&p| p == self).unwrap_or(0) + 1
    }

    /// The pane the number key `n` (1-based) reaches.
    pub fn numbered(n: usize) -> Option<Pane> {
        Pane::ALL.get(n.checked_sub(1)?).copied()
    }

    /// Whether the pane is a line of text to edit (otherwise a list or a document).
    pub fn is_text(self) -> bool {
        matches!(self, Pane::Input | Pane::Base)
    }

    pub fn index(self) -> usize {
        self.number() - 1
    }
}
