//! The interactive inspector: ratatui + crossterm on the engine's report.
//!
//! `app` holds the state and applies [`action::Action`]s; `ui` and `panes` draw a finished
//! report; this file runs the terminal: raw mode, bracketed paste, the mouse, and restoring the
//! terminal on every way out (including a panic).

pub mod action;
pub mod app;
pub mod clipboard;
pub mod editor;
pub mod gallery;
pub mod panes;
pub mod railroad;
pub mod snapshot;
pub mod theme;
pub mod ui;

use crossterm::event::{
    self, DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
    Event, KeyEventKind, MouseButton, MouseEventKind,
};
use crossterm::execute;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use action::{action_for, Action};
use app::App;
use clipboard::Copied;
use theme::Theme;

/// Runs the inspector until the person quits.
pub fn run(input: &str, base: &str) -> io::Result<()> {
    let mut terminal = ratatui::init();
    // ratatui::init installs a panic hook that restores the terminal; the extra modes are
    // undone here and in that hook's place on a normal exit.
    execute!(io::stdout(), EnableBracketedPaste, EnableMouseCapture)?;
    let previous_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = execute!(io::stdout(), DisableBracketedPaste, DisableMouseCapture);
        previous_hook(info);
    }));
    // A termination signal only sets a flag; the loop sees it and leaves the normal way.
    let stop = Arc::new(AtomicBool::new(false));
    for signal in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGHUP] {
        signal_hook::flag::register(signal, Arc::clone(&stop))?;
    }
    #[cfg(unix)]
    watch_for_hangup(Arc::clone(&stop));
    let result = event_loop(&mut terminal, App::new(input, base), &stop);
    let _ = execute!(io::stdout(), DisableBracketedPaste, DisableMouseCapture);
    ratatui::restore();
    result
}

/// Ends the process when the terminal goes away (a closed window, a killed tmux server).
///
/// The SIGHUP that comes with it only sets `stop`, and the event loop never gets back to look:
/// crossterm 0.28 reads the terminal in a loop that takes end-of-file for "no bytes yet" and
/// spins at full CPU for ever (crossterm-rs/crossterm#793). So a thread waits for the hangup
/// itself and, if the loop has not ended within a moment, exits. There is nothing to restore
/// on a terminal that no longer exists, and the inspector keeps no state to save.
#[cfg(unix)]
fn watch_for_hangup(stop: Arc<AtomicBool>) {
    use rustix::event::{poll, PollFd, PollFlags};
    std::thread::spawn(move || {
        let stdin = io::stdin();
        loop {
            // No events asked for: poll still reports a hangup, an error or a closed descriptor.
            let mut fds = [PollFd::new(&stdin, PollFlags::empty())];
            match poll(&mut fds, None) {
                Ok(_) if !fds[0].revents().is_empty() => break,
                Ok(_) | Err(rustix::io::Errno::INTR) => continue,
                // Polling itself failed: leave the terminal to crossterm, as without this thread.
                Err(_) => return,
            }
        }
        stop.store(true, Ordering::Relaxed);
        std::thread::sleep(Duration::from_millis(250));
        std::process::exit(0);
    });
}

fn event_loop(
    terminal: &mut ratatui::DefaultTerminal,
    mut app: App,
    stop: &AtomicBool,
) -> io::Result<()> {
    let theme = Theme::from_env();
    let mut clipboard = clipboard::Clipboard::default();
    let mut areas = Vec::new();
    let mut redraw = true;
    while !app.quit && !stop.load(Ordering::Relaxed) {
        if redraw {
            terminal.draw(|frame| {
                ui::draw(frame, &mut app, &theme);
                areas = ui::pane_areas(frame.area(), app.zoom, app.focus);
            })?;
            // Debug builds only: tests/terminal_restore.rs takes the panic way out with it.
            #[cfg(debug_assertions)]
            if std::env::var_os("URLSCOPE_PANIC_AFTER_DRAW").is_some() {
                panic!("URLSCOPE_PANIC_AFTER_DRAW is set");
            }
        }
        // Wake up now and then to notice a termination signal.
        redraw = event::poll(Duration::from_millis(100))?;
        if !redraw {
            continue;
        }
        let action = match event::read()? {
            Event::Key(key) if key.kind != KeyEventKind::Release => {
                action_for(key, app.focus, app.editing.is_some())
            }
            Event::Paste(text) => Some(Action::Paste(text)),
            Event::Mouse(mouse) => match mouse.kind {
                MouseEventKind::Down(MouseButton::Left) => areas
                    .iter()
                    .find(|(_, r)| r.contains((mouse.column, mouse.row).into()))
                    .map(|(pane, r)| Action::Click {
                        pane: *pane,
                        row: usize::from(mouse.row.saturating_sub(r.y + 1)),
                    }),
                MouseEventKind::ScrollDown => Some(Action::Down),
                MouseEventKind::ScrollUp => Some(Action::Up),
                _ => None,
            },
            _ => None,
        };
        if let Some(action) = action {
            app.apply(action);
        }
        if let Some(request) = app.pending_copy.take() {
            let mut stdout = io::stdout();
            app.status = match clipboard.copy(&request.text, &mut stdout) {
                Copied::Clipboard => {
                    format!("copied {} {} to the clipboard", request.what, request.text)
                }
                Copied::Osc52(why) => format!(
                    "no system clipboard ({why}); sent {} {} to the terminal by OSC 52",
                    request.what, request.text
                ),
            };
            stdout.flush()?;
        }
    }
    Ok(())
}
