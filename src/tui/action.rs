//! Every action a key (or the mouse) can trigger. Which key triggers which action where is the
//! table in [`super::keys`].

use super::pane::Pane;

/// One thing the person asked for. Key handling turns events into actions; `App::apply` is the
/// only place that changes state, so every behaviour is testable without a terminal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Quit,
    FocusNext,
    FocusPrev,
    Focus(Pane),
    // Line editing (Input, Base, and a component being edited).
    Insert(String),
    Paste(String),
    Backspace,
    Delete,
    Left,
    Right,
    Home,
    End,
    WordLeft,
    WordRight,
    DeleteWordBack,
    KillToStart,
    KillToEnd,
    Undo,
    Redo,
    HistoryPrev,
    HistoryNext,
    /// Enter on the Input or Base line: remember the pair in history.
    Remember,
    /// Enter on the Components pane: edit the selected component through its setter.
    EditComponent,
    /// Enter while editing a component: run the setter.
    RunSetter,
    /// Enter on the Pattern view: keys go to the pattern line.
    EditPattern,
    /// The Pattern view: the pattern's ignoreCase option on or off.
    ToggleIgnoreCase,
    /// Enter or Esc on the pattern line: keys go to the view again; the pattern stays.
    EndPatternEdit,
    /// A key that does nothing while a component or the pattern is edited, said so rather
    /// than lost.
    NotWhileEditing,
    /// Esc: close or back out of the innermost thing open; never quits.
    Back,
    // Lists and documents.
    Up,
    Down,
    PageUp,
    PageDown,
    Top,
    Bottom,
    /// Step mode in the trace: the previous / next step.
    StepPrev,
    StepNext,
    /// The Trace pane: scroll the explanation strip under the list up / down a line.
    StripUp,
    StripDown,
    /// The Parsers pane: the previous / next component column.
    ColumnPrev,
    ColumnNext,
    ToggleZoom,
    ToggleHelp,
    /// `/` in the help: type a filter.
    FilterHelp,
    /// Enter while typing the help's filter: keep it and scroll again.
    EndHelpFilter,
    /// Copy the command that opens the inspector on this view and step.
    CopyHandout,
    /// The selected row in full, in a popup that can copy it.
    ToggleDetail,
    /// Show the host parsing sub-steps of every step, not only of the selected one.
    ToggleExpand,
    ToggleMouse,
    /// The Trace pane: expand or collapse the run the selected step is in.
    ToggleRun,
    /// The Trace pane: runs collapsed, or every step on its own line.
    ToggleRuns,
    /// Rewrite the Input so that the selected validation error goes away.
    ApplyFix,
    /// Select the step of the trace the gallery's lesson names.
    LessonStep,
    CopyHref,
    CopySelected,
    CopyUnicodeHost,
    GalleryNext,
    GalleryPrev,
    /// A mouse click at `column`, `row` (0 = the first line inside the border) of a pane.
    Click {
        pane: Pane,
        row: usize,
        column: usize,
    },
    /// The mouse wheel over a pane.
    Scroll {
        pane: Pane,
        down: bool,
    },
}
