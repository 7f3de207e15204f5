//! Whole-screen and key-handling tests: keys go in as actions or key events, screens come out
//! of a `TestBackend` as text.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::action::Action;
use super::app::{App, Overlay, Pane};
use super::theme::Theme;

/// Renders `app` on a `width`x`height` test terminal and returns the screen as text.
pub fn screen(app: &mut App, width: u16, height: u16) -> String {
    let buffer = super::snapshot::render(app, width, height, &Theme { color: false });
    super::snapshot::to_text(&buffer)
}

/// Presses `code` with `modifiers`, through the key table, as the terminal would.
pub fn press(app: &mut App, code: KeyCode, modifiers: KeyModifiers) {
    let event = KeyEvent::new(code, modifiers);
    if let Some(action) = super::keys::action_for(&event, &app.contexts()) {
        app.apply(action);
    }
}

pub fn key(app: &mut App, c: char) {
    press(app, KeyCode::Char(c), KeyModifiers::NONE);
}

#[test]
fn dump() {
    let Ok(spec) = std::env::var("DUMP") else {
        return;
    };
    // DUMP="input|base|keys|WxH"
    let parts: Vec<&str> = spec.split('|').collect();
    let mut app = App::new(parts[0], parts[1]);
    for k in parts[2].split(',').filter(|k| !k.is_empty()) {
        match k {
            "tab" => press(&mut app, KeyCode::Tab, KeyModifiers::NONE),
            "esc" => press(&mut app, KeyCode::Esc, KeyModifiers::NONE),
            "enter" => press(&mut app, KeyCode::Enter, KeyModifiers::NONE),
            "f1" => press(&mut app, KeyCode::F(1), KeyModifiers::NONE),
            "down" => press(&mut app, KeyCode::Down, KeyModifiers::NONE),
            k if k.starts_with('^') => press(
                &mut app,
                KeyCode::Char(k.chars().nth(1).unwrap_or('c')),
                KeyModifiers::CONTROL,
            ),
            k if k.starts_with('@') => press(
                &mut app,
                KeyCode::Char(k.chars().nth(1).unwrap_or('1')),
                KeyModifiers::ALT,
            ),
            k => k.chars().for_each(|c| key(&mut app, c)),
        }
    }
    let (w, h) = parts[3].split_once('x').unwrap_or(("120", "40"));
    println!(
        "{}",
        screen(&mut app, w.parse().unwrap_or(120), h.parse().unwrap_or(40))
    );
    let _ = (Action::Quit, Overlay::Help, Pane::Input);
}
