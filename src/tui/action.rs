//! Every action a key (or the mouse) can trigger, and the key map.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::app::Pane;

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
    /// Enter: remember the input in history, or start/finish editing a component.
    Submit,
    /// Esc: leave step mode, a component edit or the help; quits when nothing is open.
    Cancel,
    // Lists.
    Up,
    Down,
    PageUp,
    PageDown,
    Top,
    Bottom,
    /// Step mode in the trace: the previous / next step.
    StepPrev,
    StepNext,
    ToggleZoom,
    ToggleHelp,
    /// Show the host parsing sub-steps of every step, not only of the selected one.
    ToggleExpand,
    CopyHref,
    CopySelected,
    CopyUnicodeHost,
    GalleryNext,
    GalleryPrev,
    /// A mouse click on `row` (0 = the first line inside the border) of a pane.
    Click {
        pane: Pane,
        row: usize,
    },
}

/// The key map. Editing panes take printable characters; list panes take single-letter
/// commands.
pub fn action_for(key: KeyEvent, focus: Pane, editing: bool) -> Option<Action> {
    use KeyCode as K;
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let alt = key.modifiers.contains(KeyModifiers::ALT);
    let text_focus = editing || matches!(focus, Pane::Input | Pane::Base);
    // Keys that mean the same everywhere.
    match key.code {
        K::Char('c') if ctrl => return Some(Action::Quit),
        K::Tab => return Some(Action::FocusNext),
        K::BackTab => return Some(Action::FocusPrev),
        K::Esc => return Some(Action::Cancel),
        K::Char('y') if ctrl => return Some(Action::CopyHref),
        K::Char('n') if ctrl => return Some(Action::GalleryNext),
        K::Char('p') if ctrl => return Some(Action::GalleryPrev),
        K::F(1) => return Some(Action::ToggleHelp),
        K::Enter => return Some(Action::Submit),
        // alt-1 … alt-8 reach a pane from anywhere, also from a line being edited.
        K::Char(d @ '1'..='8') if alt => {
            return Some(Action::Focus(Pane::ALL[usize::from(d as u8 - b'1')]))
        }
        _ => {}
    }
    if text_focus {
        return Some(match key.code {
            K::Left if ctrl || alt => Action::WordLeft,
            K::Right if ctrl || alt => Action::WordRight,
            K::Char('b') if alt => Action::WordLeft,
            K::Char('f') if alt => Action::WordRight,
            K::Left => Action::Left,
            K::Right => Action::Right,
            K::Home => Action::Home,
            K::End => Action::End,
            K::Char('a') if ctrl => Action::Home,
            K::Char('e') if ctrl => Action::End,
            K::Backspace if ctrl || alt => Action::DeleteWordBack,
            K::Backspace => Action::Backspace,
            K::Delete => Action::Delete,
            K::Char('w') if ctrl => Action::DeleteWordBack,
            K::Char('u') if ctrl => Action::KillToStart,
            K::Char('k') if ctrl => Action::KillToEnd,
            K::Char('z') if ctrl => Action::Undo,
            K::Char('r') if ctrl => Action::Redo,
            K::Up => Action::HistoryPrev,
            K::Down => Action::HistoryNext,
            K::Char(c) if !ctrl && !alt => Action::Insert(c.to_string()),
            _ => return None,
        });
    }
    if ctrl || alt {
        return None;
    }
    Some(match key.code {
        K::Char('q') => Action::Quit,
        K::Char('?') => Action::ToggleHelp,
        K::Char('z') => Action::ToggleZoom,
        K::Char('e') => Action::ToggleExpand,
        K::Char('y') => Action::CopyHref,
        K::Char('Y') => Action::CopySelected,
        K::Char('u') => Action::CopyUnicodeHost,
        K::Char('j') | K::Down => Action::Down,
        K::Char('k') | K::Up => Action::Up,
        K::Char('h') | K::Left => Action::StepPrev,
        K::Char('l') | K::Right => Action::StepNext,
        K::PageDown => Action::PageDown,
        K::PageUp => Action::PageUp,
        K::Char('g') | K::Home => Action::Top,
        K::Char('G') | K::End => Action::Bottom,
        K::Char(d @ '1'..='8') => Action::Focus(Pane::ALL[usize::from(d as u8 - b'1')]),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, modifiers)
    }

    #[test]
    fn editing_panes_take_text_and_list_panes_take_commands() {
        let none = KeyModifiers::NONE;
        assert_eq!(
            action_for(key(KeyCode::Char('q'), none), Pane::Input, false),
            Some(Action::Insert("q".into()))
        );
        assert_eq!(
            action_for(key(KeyCode::Char('q'), none), Pane::Trace, false),
            Some(Action::Quit)
        );
        assert_eq!(
            action_for(key(KeyCode::Char('l'), none), Pane::Trace, false),
            Some(Action::StepNext)
        );
        assert_eq!(
            action_for(key(KeyCode::Char('3'), none), Pane::Errors, false),
            Some(Action::Focus(Pane::Trace))
        );
        assert_eq!(
            action_for(
                key(KeyCode::Char('w'), KeyModifiers::CONTROL),
                Pane::Base,
                false
            ),
            Some(Action::DeleteWordBack)
        );
        assert_eq!(
            action_for(
                key(KeyCode::Left, KeyModifiers::CONTROL),
                Pane::Input,
                false
            ),
            Some(Action::WordLeft)
        );
        assert_eq!(
            action_for(key(KeyCode::Char('x'), none), Pane::Components, true),
            Some(Action::Insert("x".into())),
            "a component being edited takes text"
        );
        assert_eq!(
            action_for(
                key(KeyCode::Char('c'), KeyModifiers::CONTROL),
                Pane::Input,
                false
            ),
            Some(Action::Quit)
        );
    }
}
