//! The key map: one table of (context, keys, action, hint, description). Key handling, the
//! status line's hints and the help are all read from it, so a hint can never name a key that
//! does nothing where it is shown.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::action::Action;
use super::pane::Pane;

/// Where a binding applies. The app says which contexts are active, innermost first; the first
/// binding of the first context that has the key wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Context {
    /// Typing a filter for the help (after `/`).
    HelpFilter,
    /// The help: a modal layer that takes every key.
    Help,
    /// The selected row in full.
    Detail,
    /// A component being edited (its setter runs on Enter).
    Edit,
    /// The Input and Base lines (and a component being edited).
    Text,
    Trace,
    Components,
    Errors,
    Host,
    Parsers,
    /// The Pattern view.
    Pattern,
    /// The pattern line being edited (every keystroke matches again).
    PatternEdit,
    /// Every pane that is not a text line.
    List,
    /// Everywhere but in the help and the detail view.
    Global,
    /// Everywhere, even in the help.
    Always,
    /// The mouse (listed in the help only).
    Mouse,
}

impl Context {
    pub fn title(self) -> &'static str {
        match self {
            Context::HelpFilter => "Filtering the help",
            Context::Help => "In this help",
            Context::Detail => "In the detail view",
            Context::Edit => "Editing a component",
            Context::Text => "Input and Base lines",
            Context::Trace => "Trace pane",
            Context::Components => "Components pane",
            Context::Errors => "Validation errors pane",
            Context::Host => "Host pane",
            Context::Parsers => "Parsers pane",
            Context::Pattern => "Pattern view",
            Context::PatternEdit => "Editing the pattern",
            Context::List => "Every other pane",
            Context::Global => "Anywhere",
            Context::Always => "Anywhere, even in the help",
            Context::Mouse => "Mouse",
        }
    }
}

/// A key a binding answers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// A key with exactly these modifiers (Shift is ignored for characters).
    K(KeyCode, KeyModifiers),
    /// Any printable character without ctrl or alt: typed into the line.
    Printable,
    /// 1–9 and 0: the pane with that number (0 for the tenth).
    Digit(KeyModifiers),
}

#[derive(Debug)]
pub struct Binding {
    pub context: Context,
    pub keys: &'static [Key],
    /// The keys as the hints and the help write them.
    pub shown: &'static str,
    /// The action; `Insert` and `Focus` get the typed character or digit.
    pub action: Action,
    /// A word or two for the status line, when the binding is worth a hint there.
    pub hint: Option<&'static str>,
    pub help: &'static str,
}

const NONE: KeyModifiers = KeyModifiers::NONE;
const CTRL: KeyModifiers = KeyModifiers::CONTROL;
const ALT: KeyModifiers = KeyModifiers::ALT;
const SHIFT: KeyModifiers = KeyModifiers::SHIFT;

const fn k(code: KeyCode) -> Key {
    Key::K(code, NONE)
}
const fn ctrl(c: char) -> Key {
    Key::K(KeyCode::Char(c), CTRL)
}
const fn alt(c: char) -> Key {
    Key::K(KeyCode::Char(c), ALT)
}
const fn ch(c: char) -> Key {
    Key::K(KeyCode::Char(c), NONE)
}

macro_rules! bind {
    ($context:ident, [$($key:expr),* $(,)?], $shown:literal, $action:expr, $hint:expr, $help:literal) => {
        bind!($context, keys &[$($key),*], $shown, $action, $hint, $help)
    };
    ($context:ident, keys $keys:expr, $shown:literal, $action:expr, $hint:expr, $help:literal) => {
        Binding {
            context: Context::$context,
            keys: $keys,
            shown: $shown,
            action: $action,
            hint: $hint,
            help: $help,
        }
    };
}

/// The keys that would leave a line being edited (a component, the pattern) for elsewhere:
/// while it is open they say so rather than act or be lost.
const LEAVING_A_LINE: &[Key] = &[
    Key::K(KeyCode::Tab, NONE),
    Key::K(KeyCode::BackTab, SHIFT),
    Key::K(KeyCode::Up, NONE),
    Key::K(KeyCode::Down, NONE),
    Key::Digit(ALT),
    Key::K(KeyCode::Char('n'), CTRL),
    Key::K(KeyCode::Char('p'), CTRL),
];

use Action as A;
use KeyCode as C;

/// Every key the inspector has. Order matters within a context: the hints follow it.
pub static BINDINGS: &[Binding] = &[
    // The help's filter: what is typed keeps the lines that contain it.
    bind!(
        HelpFilter,
        [Key::Printable],
        "typing",
        A::Insert(String::new()),
        None,
        "keeps the keys whose line contains the text"
    ),
    bind!(
        HelpFilter,
        [k(C::Backspace), ctrl('h')],
        "Backspace",
        A::Backspace,
        None,
        "delete a character of the filter"
    ),
    bind!(
        HelpFilter,
        [k(C::Enter)],
        "Enter",
        A::EndHelpFilter,
        Some("keep the filter"),
        "keep the filter and scroll the lines it kept"
    ),
    bind!(
        HelpFilter,
        [k(C::Esc)],
        "Esc",
        A::Back,
        Some("clear"),
        "clear the filter"
    ),
    // The help.
    bind!(
        Help,
        [ch('/')],
        "/",
        A::FilterHelp,
        Some("filter"),
        "filter the help by typing"
    ),
    bind!(
        Help,
        [ch('y')],
        "y",
        A::CopyHandout,
        Some("copy command"),
        "copy the command that opens this view and step (for a handout)"
    ),
    bind!(
        Help,
        [k(C::Down), ch('j')],
        "j/k ↑/↓",
        A::Down,
        Some("scroll"),
        "scroll the help"
    ),
    bind!(Help, [k(C::Up), ch('k')], "", A::Up, None, ""),
    bind!(
        Help,
        [k(C::PageDown), ch(' ')],
        "PgUp/PgDn",
        A::PageDown,
        None,
        "scroll by a page"
    ),
    bind!(Help, [k(C::PageUp)], "", A::PageUp, None, ""),
    bind!(
        Help,
        [ch('g'), k(C::Home)],
        "g/G",
        A::Top,
        None,
        "top, bottom"
    ),
    bind!(Help, [ch('G'), k(C::End)], "", A::Bottom, None, ""),
    bind!(
        Help,
        [k(C::Esc), ch('q'), k(C::F(1)), ch('?'), ctrl('h')],
        "Esc q F1 ?",
        A::Back,
        Some("close"),
        "close the help (Esc clears a filter first)"
    ),
    // The detail view.
    bind!(
        Detail,
        [k(C::Down), ch('j')],
        "j/k ↑/↓",
        A::Down,
        Some("scroll"),
        "scroll the detail view"
    ),
    bind!(Detail, [k(C::Up), ch('k')], "", A::Up, None, ""),
    bind!(
        Detail,
        [ch('y'), ch('Y')],
        "y",
        A::CopySelected,
        Some("copy"),
        "copy the value shown"
    ),
    bind!(
        Detail,
        [k(C::Esc), ch('q'), ch('d'), k(C::Enter)],
        "Esc",
        A::Back,
        Some("close"),
        "close the detail view"
    ),
    bind!(
        Detail,
        [k(C::F(1)), ch('?'), ctrl('h')],
        "F1",
        A::ToggleHelp,
        Some("help"),
        "every key"
    ),
    // A component edit.
    bind!(
        Edit,
        [k(C::Enter)],
        "Enter",
        A::RunSetter,
        Some("run the setter"),
        "run the URL API setter with the text"
    ),
    bind!(
        Edit,
        [k(C::Esc)],
        "Esc",
        A::Back,
        Some("cancel"),
        "drop the edit (the URL stays as it was)"
    ),
    bind!(
        Edit,
        keys LEAVING_A_LINE,
        "",
        A::NotWhileEditing,
        None,
        ""
    ),
    // Text lines.
    bind!(
        Text,
        [Key::Printable],
        "typing",
        A::Insert(String::new()),
        None,
        "edit the line; every keystroke parses again"
    ),
    bind!(Text, [k(C::Left)], "←/→", A::Left, None, "move the cursor"),
    bind!(Text, [k(C::Right)], "", A::Right, None, ""),
    bind!(
        Text,
        [k(C::Home), ctrl('a')],
        "Home/End ctrl-a/e",
        A::Home,
        None,
        "start, end of the line"
    ),
    bind!(Text, [k(C::End), ctrl('e')], "", A::End, None, ""),
    bind!(
        Text,
        [Key::K(C::Left, CTRL), Key::K(C::Left, ALT), alt('b')],
        "ctrl-←/→ alt-b/f",
        A::WordLeft,
        None,
        "move by word (URL delimiters end words)"
    ),
    bind!(
        Text,
        [Key::K(C::Right, CTRL), Key::K(C::Right, ALT), alt('f')],
        "",
        A::WordRight,
        None,
        ""
    ),
    bind!(
        Text,
        // ^H is what Backspace sends with `stty erase ^H` and in some PuTTY and macOS set-ups.
        [k(C::Backspace), ctrl('h')],
        "Backspace/Del",
        A::Backspace,
        None,
        "delete a character (ctrl-h, which some terminals send for Backspace, too)"
    ),
    bind!(Text, [k(C::Delete)], "", A::Delete, None, ""),
    bind!(
        Text,
        [
            ctrl('w'),
            Key::K(C::Backspace, CTRL),
            Key::K(C::Backspace, ALT)
        ],
        "ctrl-w/u/k",
        A::DeleteWordBack,
        None,
        "delete the word before the cursor; ctrl-u to the start, ctrl-k to the end"
    ),
    bind!(Text, [ctrl('u')], "", A::KillToStart, None, ""),
    bind!(Text, [ctrl('k')], "", A::KillToEnd, None, ""),
    bind!(Text, [ctrl('z')], "ctrl-z/r", A::Undo, None, "undo, redo"),
    bind!(Text, [ctrl('r')], "", A::Redo, None, ""),
    bind!(
        Text,
        [k(C::Up)],
        "↑/↓",
        A::HistoryPrev,
        Some("history"),
        "history of input and base pairs; ↓ past the newest brings back the draft"
    ),
    bind!(Text, [k(C::Down)], "", A::HistoryNext, None, ""),
    bind!(
        Text,
        [k(C::Enter)],
        "Enter",
        A::Remember,
        Some("remember"),
        "remember the input and base in history"
    ),
    bind!(
        Text,
        [Key::Digit(ALT)],
        "alt-0…9",
        A::Focus(Pane::Input),
        Some("pane"),
        "go to pane 1–9, 0 the Pattern view (digits type here)"
    ),
    bind!(
        Text,
        [k(C::Esc)],
        "Esc",
        A::Back,
        None,
        "back out of step mode or zoom; never quits"
    ),
    // The trace.
    bind!(
        Trace,
        [ch('h'), k(C::Left)],
        "h/l ←/→",
        A::StepPrev,
        Some("step"),
        "step mode: the Input marks the pointer and Components show the URL record after the step"
    ),
    bind!(Trace, [ch('l'), k(C::Right)], "", A::StepNext, None, ""),
    bind!(
        Trace,
        [ch('o'), ch(' ')],
        "o Space",
        A::ToggleRun,
        Some("run"),
        "expand or collapse the run of steps on the selected line (×n: steps that only append)"
    ),
    bind!(
        Trace,
        [ch('O')],
        "O",
        A::ToggleRuns,
        None,
        "runs collapsed (the default), or every step on its own line"
    ),
    bind!(
        Trace,
        [ch('J'), Key::K(C::Down, SHIFT)],
        "J/K S-↓/↑",
        A::StripDown,
        None,
        "scroll the explanation under the list, when its border says there is more (↕)"
    ),
    bind!(
        Trace,
        [ch('K'), Key::K(C::Up, SHIFT)],
        "",
        A::StripUp,
        None,
        ""
    ),
    bind!(
        Trace,
        [ch('f')],
        "f",
        A::ApplyFix,
        None,
        "apply the fix of the validation error the selected step raised"
    ),
    bind!(
        Trace,
        [ch('e')],
        "e",
        A::ToggleExpand,
        Some("sub-steps"),
        "host parsing sub-steps under every step (else under the selected one)"
    ),
    // The components.
    bind!(
        Components,
        [k(C::Enter)],
        "Enter",
        A::EditComponent,
        Some("edit"),
        "edit the selected component through the URL API setter"
    ),
    bind!(
        Components,
        [ch('u')],
        "u",
        A::CopyUnicodeHost,
        Some("copy Unicode host"),
        "copy the host's Unicode form"
    ),
    bind!(
        Errors,
        [ch('f')],
        "f",
        A::ApplyFix,
        Some("fix"),
        "rewrite the Input so that the selected error goes away (ctrl-z undoes)"
    ),
    bind!(
        Host,
        [ch('u')],
        "u",
        A::CopyUnicodeHost,
        Some("copy Unicode host"),
        "copy the host's Unicode form"
    ),
    // The parser differential.
    bind!(
        Parsers,
        [ch('h'), k(C::Left)],
        "h/l ←/→",
        A::ColumnPrev,
        Some("cell"),
        "select a component: the Input marks where the selected parser's value is"
    ),
    bind!(Parsers, [ch('l'), k(C::Right)], "", A::ColumnNext, None, ""),
    // The URL pattern.
    bind!(
        Pattern,
        [k(C::Enter), ch('e')],
        "Enter e",
        A::EditPattern,
        Some("edit pattern"),
        "edit the pattern line; every keystroke compiles and matches it again"
    ),
    bind!(
        Pattern,
        [ch('i')],
        "i",
        A::ToggleIgnoreCase,
        Some("ignoreCase"),
        "the pattern's ignoreCase option on or off (pathname, search and hash)"
    ),
    bind!(
        PatternEdit,
        [k(C::Enter), k(C::Esc)],
        "Enter/Esc",
        A::EndPatternEdit,
        Some("done"),
        "leave the pattern line; the pattern stays as typed"
    ),
    bind!(
        PatternEdit,
        keys LEAVING_A_LINE,
        "",
        A::NotWhileEditing,
        None,
        ""
    ),
    // Every other pane.
    bind!(
        List,
        [ch('j'), k(C::Down)],
        "j/k ↑/↓",
        A::Down,
        Some("move"),
        "move the selection (the view scrolls with it)"
    ),
    bind!(List, [ch('k'), k(C::Up)], "", A::Up, None, ""),
    bind!(
        List,
        [k(C::PageDown)],
        "PgUp/PgDn",
        A::PageDown,
        None,
        "move by a page"
    ),
    bind!(List, [k(C::PageUp)], "", A::PageUp, None, ""),
    bind!(
        List,
        [ch('g'), k(C::Home)],
        "g/G Home/End",
        A::Top,
        None,
        "first, last row"
    ),
    bind!(List, [ch('G'), k(C::End)], "", A::Bottom, None, ""),
    bind!(
        List,
        [ch('d'), k(C::Enter)],
        "d",
        A::ToggleDetail,
        Some("detail"),
        "the selected row in full, to read or copy (Enter too, but in Components Enter edits)"
    ),
    bind!(
        List,
        [ch('Y')],
        "Y",
        A::CopySelected,
        Some("copy row"),
        "copy the selected row's value"
    ),
    bind!(List, [ch('y')], "y", A::CopyHref, None, "copy the href"),
    bind!(
        List,
        [ch('z')],
        "z",
        A::ToggleZoom,
        Some("zoom"),
        "zoom the pane (the Input line stays; on a small screen the lesson and the Base line make room)"
    ),
    bind!(
        List,
        [Key::Digit(NONE), Key::Digit(ALT)],
        "0…9",
        A::Focus(Pane::Input),
        None,
        "go to pane 1–9, 0 the Pattern view"
    ),
    bind!(
        List,
        [ctrl('z')],
        "ctrl-z/r",
        A::Undo,
        None,
        "undo, redo the Input's last edit (a fix, say)"
    ),
    bind!(List, [ctrl('r')], "", A::Redo, None, ""),
    bind!(
        List,
        [ch('?'), ctrl('h')],
        "? ctrl-h",
        A::ToggleHelp,
        None,
        "every key"
    ),
    bind!(List, [ch('q')], "q", A::Quit, Some("quit"), "quit"),
    bind!(
        List,
        [k(C::Esc)],
        "Esc",
        A::Back,
        None,
        "back out of the detail view, step mode or zoom; never quits"
    ),
    // Anywhere.
    bind!(
        Global,
        [k(C::Tab)],
        "Tab/S-Tab",
        A::FocusNext,
        Some("next pane"),
        "next, previous pane"
    ),
    bind!(
        Global,
        [Key::K(C::BackTab, SHIFT), Key::K(C::BackTab, NONE)],
        "",
        A::FocusPrev,
        None,
        ""
    ),
    bind!(
        Global,
        [ctrl('y')],
        "ctrl-y",
        A::CopyHref,
        Some("copy href"),
        "copy the href (the clipboard keeps it after urlscope ends)"
    ),
    bind!(
        Global,
        [ctrl('n')],
        "ctrl-n/p",
        A::GalleryNext,
        Some("examples"),
        "next, previous example of the gallery; after the last comes your own URL again"
    ),
    bind!(Global, [ctrl('p')], "", A::GalleryPrev, None, ""),
    bind!(
        Global,
        [ctrl('t')],
        "ctrl-t",
        A::LessonStep,
        None,
        "the step of the trace the example's lesson is about, in step mode"
    ),
    bind!(
        Global,
        [k(C::F(2))],
        "F2",
        A::ToggleMouse,
        None,
        "mouse capture on/off (off: the terminal selects text)"
    ),
    bind!(
        Global,
        [k(C::F(1))],
        "F1",
        A::ToggleHelp,
        Some("help"),
        "every key (in a text line ctrl-h deletes, as Backspace)"
    ),
    bind!(
        Always,
        [ctrl('c'), ctrl('q')],
        "ctrl-c ctrl-q",
        A::Quit,
        None,
        "quit (history is saved)"
    ),
    bind!(
        Mouse,
        [],
        "wheel",
        A::Down,
        None,
        "scrolls the pane under the pointer (over the Trace pane's explanation, the explanation)"
    ),
    bind!(
        Mouse,
        [],
        "click",
        A::Down,
        None,
        "selects a row, or puts the Input's cursor there"
    ),
];

fn matches(key: &Key, event: &KeyEvent) -> bool {
    let mut modifiers = event.modifiers;
    if matches!(event.code, KeyCode::Char(_) | KeyCode::BackTab) {
        modifiers.remove(SHIFT);
    }
    match *key {
        Key::K(code, mods) => code == event.code && mods == modifiers,
        Key::Printable => {
            matches!(event.code, KeyCode::Char(c) if !c.is_control())
                && !modifiers.intersects(CTRL | ALT)
        }
        Key::Digit(mods) => matches!(event.code, KeyCode::Char('0'..='9')) && mods == modifiers,
    }
}

/// Whether every press of `key` is taken by `taken` (typing takes the plain characters).
fn covers(taken: &Key, key: &Key) -> bool {
    match (*taken, *key) {
        (Key::Printable, Key::K(KeyCode::Char(c), mods)) => {
            !c.is_control() && !mods.intersects(CTRL | ALT)
        }
        (Key::Printable, Key::Digit(mods)) => !mods.intersects(CTRL | ALT),
        (taken, key) => taken == key,
    }
}

/// The binding for `event` in the active `contexts` (innermost first).
pub fn binding_for(event: &KeyEvent, contexts: &[Context]) -> Option<&'static Binding> {
    contexts.iter().find_map(|&context| {
        BINDINGS
            .iter()
            .filter(|b| b.context == context)
            .find(|b| b.keys.iter().any(|key| matches(key, event)))
    })
}

/// The keys of `action` as the help writes them (its first binding that shows them), for a
/// pane to name them where they work.
pub fn shown_for(action: &Action) -> Option<&'static str> {
    BINDINGS
        .iter()
        .find(|b| &b.action == action && !b.shown.is_empty())
        .map(|b| b.shown)
}

/// The action for `event` in the active `contexts`.
pub fn action_for(event: &KeyEvent, contexts: &[Context]) -> Option<Action> {
    let binding = binding_for(event, contexts)?;
    Some(match (&binding.action, event.code) {
        (Action::Insert(_), KeyCode::Char(c)) => Action::Insert(c.to_string()),
        (Action::Focus(_), KeyCode::Char(d @ '0'..='9')) => {
            Action::Focus(Pane::numbered(usize::from(d as u8 - b'0'))?)
        }
        (action, _) => action.clone(),
    })
}

/// The hints for the status line: the bindings with a hint in the active contexts, except
/// those whose every key an inner context takes first.
pub fn hints(contexts: &[Context]) -> Vec<(&'static str, &'static str)> {
    let mut out = Vec::new();
    for (i, &context) in contexts.iter().enumerate() {
        for b in BINDINGS.iter().filter(|b| b.context == context) {
            let Some(hint) = b.hint else { continue };
            let shadowed = b.keys.iter().all(|key| {
                contexts[..i].iter().any(|&inner| {
                    BINDINGS
                        .iter()
                        .filter(|o| o.context == inner)
                        .any(|o| o.keys.iter().any(|taken| covers(taken, key)))
                })
            });
            if !shadowed {
                out.push((b.shown, hint));
            }
        }
    }
    out
}

/// A line of the help: a context's title, or a binding's keys and description.
pub type HelpLine = (Option<&'static str>, &'static str, &'static str);

/// The help: every context with its bindings' keys and descriptions.
pub fn help_lines() -> Vec<HelpLine> {
    let order = [
        Context::Global,
        Context::Always,
        Context::Text,
        Context::List,
        Context::Trace,
        Context::Components,
        Context::Errors,
        Context::Host,
        Context::Parsers,
        Context::Pattern,
        Context::PatternEdit,
        Context::Edit,
        Context::Detail,
        Context::Help,
        Context::HelpFilter,
        Context::Mouse,
    ];
    let mut out = Vec::new();
    for context in order {
        out.push((Some(context.title()), "", ""));
        for b in BINDINGS.iter().filter(|b| b.context == context) {
            if !b.help.is_empty() {
                out.push((None, b.shown, b.help));
            }
        }
    }
    out.push((Some("Esc, step by step"), "", ""));
    out.push((None, "Esc", "closes the help, then the detail view, then a component edit, then step mode, then zoom, then the gallery's lesson; with nothing open it says how to quit"));
    out
}

/// The help lines whose keys or description contain `filter` (ignoring case), each under its
/// context's title; a title that contains it keeps its whole context. An empty filter keeps
/// every line.
pub fn filter_help(lines: Vec<HelpLine>, filter: &str) -> Vec<HelpLine> {
    if filter.is_empty() {
        return lines;
    }
    let needle = filter.to_lowercase();
    let has = |s: &str| s.to_lowercase().contains(&needle);
    let mut out = Vec::new();
    let mut title: Option<HelpLine> = None;
    let mut whole = false;
    for line in lines {
        match line {
            (Some(t), _, _) => {
                whole = has(t);
                title = Some(line);
                if whole {
                    out.extend(title.take());
                }
            }
            (None, keys, what) if whole || has(keys) || has(what) => {
                out.extend(title.take());
                out.push(line);
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, modifiers)
    }

    const TEXT: &[Context] = &[Context::Text, Context::Global, Context::Always];
    const TRACE: &[Context] = &[
        Context::Trace,
        Context::List,
        Context::Global,
        Context::Always,
    ];
    const HELP: &[Context] = &[Context::Help, Context::Always];

    #[test]
    fn editing_panes_take_text_and_list_panes_take_commands() {
        let none = KeyModifiers::NONE;
        assert_eq!(
            action_for(&key(KeyCode::Char('q'), none), TEXT),
            Some(Action::Insert("q".into()))
        );
        assert_eq!(
            action_for(&key(KeyCode::Char('?'), none), TEXT),
            Some(Action::Insert("?".into())),
            "? is a URL code point: the Input types it"
        );
        assert_eq!(
            action_for(&key(KeyCode::Char('q'), none), TRACE),
            Some(Action::Quit)
        );
        assert_eq!(
            action_for(&key(KeyCode::Char('l'), none), TRACE),
            Some(Action::StepNext)
        );
        assert_eq!(
            action_for(&key(KeyCode::Char('3'), none), TRACE),
            Some(Action::Focus(Pane::Trace))
        );
        assert_eq!(
            action_for(&key(KeyCode::Char('3'), none), TEXT),
            Some(Action::Insert("3".into()))
        );
        assert_eq!(
            action_for(&key(KeyCode::Char('3'), KeyModifiers::ALT), TEXT),
            Some(Action::Focus(Pane::Trace))
        );
        assert_eq!(
            action_for(&key(KeyCode::Char('G'), KeyModifiers::SHIFT), TRACE),
            Some(Action::Bottom)
        );
        for context in [TEXT, TRACE, HELP] {
            assert_eq!(
                action_for(&key(KeyCode::Char('c'), KeyModifiers::CONTROL), context),
                Some(Action::Quit)
            );
        }
    }

    #[test]
    fn esc_never_quits_anywhere() {
        let contexts: &[&[Context]] = &[
            TEXT,
            TRACE,
            HELP,
            &[Context::Detail, Context::Always],
            &[
                Context::Edit,
                Context::Text,
                Context::Global,
                Context::Always,
            ],
            &[Context::List, Context::Global, Context::Always],
        ];
        for c in contexts {
            assert_eq!(
                action_for(&key(KeyCode::Esc, KeyModifiers::NONE), c),
                Some(Action::Back),
                "{c:?}"
            );
        }
    }

    #[test]
    fn the_help_takes_every_key() {
        for code in [KeyCode::Char('j'), KeyCode::Char('q'), KeyCode::Char('x')] {
            let action = action_for(&key(code, KeyModifiers::NONE), HELP);
            assert!(
                !matches!(action, Some(Action::Insert(_) | Action::Quit)),
                "{code:?} in the help: {action:?}"
            );
        }
        assert_eq!(
            action_for(&key(KeyCode::Char('q'), KeyModifiers::NONE), HELP),
            Some(Action::Back)
        );
    }

    /// Every hint shown in a context names keys that trigger that binding's action there.
    #[test]
    fn hints_only_name_keys_that_act_where_they_are_shown() {
        let all: &[&[Context]] = &[
            TEXT,
            TRACE,
            HELP,
            &[Context::HelpFilter, Context::Help, Context::Always],
            &[Context::Detail, Context::Always],
            &[
                Context::Edit,
                Context::Text,
                Context::Global,
                Context::Always,
            ],
            &[
                Context::Components,
                Context::List,
                Context::Global,
                Context::Always,
            ],
            &[
                Context::Host,
                Context::List,
                Context::Global,
                Context::Always,
            ],
            &[
                Context::Errors,
                Context::List,
                Context::Global,
                Context::Always,
            ],
            &[Context::List, Context::Global, Context::Always],
        ];
        for contexts in all {
            for (shown, hint) in hints(contexts) {
                let binding = BINDINGS
                    .iter()
                    .find(|b| {
                        b.shown == shown && b.hint == Some(hint) && contexts.contains(&b.context)
                    })
                    .expect("a hint comes from a binding");
                let acting = binding.keys.iter().any(|&k| {
                    let Key::K(code, mods) = k else { return true };
                    binding_for(&KeyEvent::new(code, mods), contexts)
                        .is_some_and(|b| std::ptr::eq(b, binding))
                });
                assert!(acting, "{contexts:?}: hint {shown} {hint} does not act");
            }
        }
        // The lines advertise no key that types there.
        let text: Vec<_> = hints(TEXT).into_iter().map(|(k, _)| k).collect();
        assert!(
            !text.iter().any(|k| k.contains('?') || *k == "q"),
            "{text:?}"
        );
        // An edit does not advertise history.
        let edit = hints(&[
            Context::Edit,
            Context::Text,
            Context::Global,
            Context::Always,
        ]);
        assert!(!edit.iter().any(|(_, h)| *h == "history"), "{edit:?}");
    }

    /// The keys of this work: f fixes in the Errors and Trace panes (and types in the lines),
    /// o and Space open a run, O every step, ctrl-t the lesson's step everywhere.
    #[test]
    fn fix_runs_and_lesson_keys() {
        let none = KeyModifiers::NONE;
        let errors = &[
            Context::Errors,
            Context::List,
            Context::Global,
            Context::Always,
        ];
        assert_eq!(
            action_for(&key(KeyCode::Char('f'), none), errors),
            Some(Action::ApplyFix)
        );
        assert_eq!(
            action_for(&key(KeyCode::Char('f'), none), TRACE),
            Some(Action::ApplyFix)
        );
        assert_eq!(
            action_for(&key(KeyCode::Char('f'), none), TEXT),
            Some(Action::Insert("f".into()))
        );
        for c in ['o', ' '] {
            assert_eq!(
                action_for(&key(KeyCode::Char(c), none), TRACE),
                Some(Action::ToggleRun)
            );
        }
        assert_eq!(
            action_for(&key(KeyCode::Char('O'), KeyModifiers::SHIFT), TRACE),
            Some(Action::ToggleRuns)
        );
        for context in [TEXT, TRACE, errors] {
            assert_eq!(
                action_for(&key(KeyCode::Char('t'), KeyModifiers::CONTROL), context),
                Some(Action::LessonStep)
            );
            assert_eq!(
                action_for(&key(KeyCode::Char('z'), KeyModifiers::CONTROL), context),
                Some(Action::Undo)
            );
        }
        let help = help_lines();
        assert!(help
            .iter()
            .any(|(t, _, _)| *t == Some("Validation errors pane")));
    }

    /// While the help's filter is typed, characters type: no hint offers `/` or `y`, and ^H
    /// deletes from the filter; outside text lines ctrl-h still opens the help.
    #[test]
    fn typing_keys_are_not_offered_where_they_type() {
        let filtering = &[Context::HelpFilter, Context::Help, Context::Always];
        let shown: Vec<_> = hints(filtering).into_iter().map(|(k, _)| k).collect();
        assert!(!shown.contains(&"/") && !shown.contains(&"y"), "{shown:?}");
        assert!(hints(HELP).iter().any(|(k, _)| *k == "/"));
        let ctrl_h = key(KeyCode::Char('h'), KeyModifiers::CONTROL);
        assert_eq!(action_for(&ctrl_h, filtering), Some(Action::Backspace));
        assert_eq!(action_for(&ctrl_h, TEXT), Some(Action::Backspace));
        assert_eq!(action_for(&ctrl_h, TRACE), Some(Action::ToggleHelp));
        assert_eq!(
            action_for(&key(KeyCode::F(1), KeyModifiers::NONE), TEXT),
            Some(Action::ToggleHelp)
        );
    }

    /// The filter keeps the lines that contain the text, under their titles, and a title that
    /// contains it keeps its whole context.
    #[test]
    fn the_help_filter_keeps_matching_lines_under_their_titles() {
        let all = help_lines();
        assert_eq!(filter_help(all.clone(), ""), all);
        let mouse = filter_help(all.clone(), "MOUSE");
        assert!(mouse.iter().any(|(t, _, _)| *t == Some("Mouse")));
        assert!(mouse.iter().any(|(_, _, d)| d.contains("mouse capture")));
        assert!(!mouse.iter().any(|(_, _, d)| d.contains("copy the href")));
        for (i, line) in mouse.iter().enumerate() {
            if line.0.is_some() {
                let next = mouse.get(i + 1);
                assert!(
                    next.is_some_and(|l| l.0.is_none()),
                    "a title alone: {line:?}"
                );
            }
        }
        assert!(filter_help(all, "no such key").is_empty());
    }

    #[test]
    fn the_help_lists_zoom_esc_and_the_mouse() {
        let help = help_lines();
        for needle in ["zoom", "wheel", "Esc, step by step", "mouse capture"] {
            assert!(
                help.iter()
                    .any(|(t, k, d)| t.is_some_and(|t| t.contains(needle))
                        || k.contains(needle)
                        || d.contains(needle)),
                "help lacks {needle}"
            );
        }
    }
}
