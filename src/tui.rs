//! The interactive inspector: ratatui + crossterm on the engine's report.
//!
//! `model` holds the state; `app` applies [`action::Action`]s to it, which `keys` reads from
//! one key table; `panes` are the views, each drawing itself from the model through `list`,
//! and `ui` places them on screen; this file runs the terminal:
//! raw mode, bracketed paste, the mouse, and on every way out (quit, SIGTERM, SIGHUP or a closed
//! terminal, a closed console window on Windows, a panic) restoring the terminal, saving the
//! history and stopping every external parser's process.

pub mod action;
pub mod app;
pub mod clipboard;
pub mod derived;
pub mod editor;
pub mod history;
pub mod keys;
pub mod list;
pub mod model;
pub mod pane;
pub mod panes;
pub mod railroad;
pub mod rows;
pub mod snapshot;
pub mod theme;
pub mod ui;

use crossterm::event::{
    self, DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
    Event, KeyEventKind, MouseButton, MouseEventKind,
};
use crossterm::execute;
use crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen,
};
use ratatui::backend::CrosstermBackend;
use ratatui::Terminal;
use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;

use action::Action;
use app::App;
use theme::Theme;

/// How the inspector runs (from the command line).
#[derive(Clone, Debug)]
pub struct Options {
    /// Read and write the history file.
    pub history: bool,
    /// Capture the mouse at start (F2 toggles it).
    pub mouse: bool,
    /// Send OSC 52 to the terminal on every copy, as well as the system clipboard.
    pub osc52: bool,
    /// The query encoding the input is parsed with.
    pub encoding: &'static encoding_rs::Encoding,
    /// The pane to open on (`--view`).
    pub view: Option<pane::Pane>,
    /// The step of the trace to open on, in step mode (`--step`).
    pub step: Option<usize>,
    /// The Pattern view's pattern (`--pattern`).
    pub pattern: Option<String>,
    /// The pattern's ignoreCase option (`--ignore-case`).
    pub ignore_case: bool,
    /// The gate (`--allow-host`, `--deny-internal`) the verdict line judges the input by.
    pub gate: Option<crate::inspect::gate::Gate>,
    /// `--resolve`: the lookups of the readings' names, shown in the Host pane and judged.
    pub resolve: Option<crate::inspect::resolve::system::Config>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            history: true,
            mouse: true,
            osc52: false,
            encoding: encoding_rs::UTF_8,
            view: None,
            step: None,
            pattern: None,
            ignore_case: false,
            gate: None,
            resolve: None,
        }
    }
}

/// Whether to write links as OSC 8 hyperlinks: `URLSCOPE_HYPERLINKS=1` or `0` decides;
/// otherwise only where the terminal is known to draw them or to ignore them cleanly: not the
/// Linux console, a dumb terminal, a VT or GNU screen, and inside tmux only from 3.4 on
/// (`tmux`: the version tmux gives in `TERM_PROGRAM_VERSION`, when inside tmux). The link's
/// text is on screen either way.
pub fn hyperlinks_wanted(setting: Option<&str>, term: Option<&str>, tmux: Option<&str>) -> bool {
    match setting {
        Some("1") => return true,
        Some("0") => return false,
        _ => {}
    }
    if let Some(version) = tmux {
        // "3.4", "3.5a", "next-3.6": tmux passes hyperlinks on since 3.4.
        let digits = version.trim_start_matches(|c: char| !c.is_ascii_digit());
        let mut parts = digits.split(|c: char| !c.is_ascii_digit());
        let major: u32 = parts.next().and_then(|p| p.parse().ok()).unwrap_or(0);
        let minor: u32 = parts.next().and_then(|p| p.parse().ok()).unwrap_or(0);
        return (major, minor) >= (3, 4);
    }
    let Some(term) = term.filter(|t| !t.is_empty()) else {
        return false;
    };
    !(term == "dumb"
        || term == "linux"
        || term.starts_with("vt")
        || term.starts_with("cons")
        || term.starts_with("screen"))
}

/// Writes the frame's links again over their text, as OSC 8 hyperlinks; the cursor goes back
/// where the frame left it. The cells keep their text, so the next frame's diff is unchanged;
/// a cell redrawn later loses the link with its old text.
fn write_hyperlinks(out: &mut impl Write, links: &[app::Hyperlink]) -> io::Result<()> {
    if links.is_empty() {
        return Ok(());
    }
    use crossterm::cursor::{MoveTo, RestorePosition, SavePosition};
    use crossterm::queue;
    use crossterm::style::Print;
    queue!(out, SavePosition)?;
    for link in links {
        // The text and address come from the standard's section names: no control to escape.
        queue!(
            out,
            MoveTo(link.x, link.y),
            Print(format!(
                "\x1b]8;;{}\x1b\\{}\x1b]8;;\x1b\\",
                link.url, link.text
            ))
        )?;
    }
    queue!(out, RestorePosition)?;
    out.flush()
}

/// What the inspector ends with: the href of the last input, or the input when it is not a URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub href: Option<String>,
    pub input: String,
}

/// The terminal the inspector draws on: standard output, or the controlling terminal when
/// standard output is a pipe (`url=$(urlscope --print)`): /dev/tty on Unix, the console
/// (CONOUT$) on Windows, where crossterm reads keys from the console (CONIN$) either way.
fn terminal_writer() -> io::Result<Box<dyn Write + Send>> {
    if io::stdout().is_terminal() {
        return Ok(Box::new(io::stdout()));
    }
    #[cfg(unix)]
    {
        let tty = std::fs::OpenOptions::new().write(true).open("/dev/tty")?;
        Ok(Box::new(tty))
    }
    #[cfg(windows)]
    {
        Ok(Box::new(console::Writer::open()?))
    }
    #[cfg(not(any(unix, windows)))]
    {
        Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "standard output is not a terminal, and this system has no other to draw on",
        ))
    }
}

/// Whether there is a terminal to draw on when standard output is not one (`--print`): the
/// controlling terminal on Unix, the console on Windows.
pub fn has_terminal() -> bool {
    #[cfg(unix)]
    {
        std::fs::File::open("/dev/tty").is_ok()
    }
    #[cfg(windows)]
    {
        console::Writer::open().is_ok()
    }
    #[cfg(not(any(unix, windows)))]
    {
        false
    }
}

#[cfg(windows)]
mod console {
    use std::io::{self, Write};

    /// The console's active screen buffer (CONOUT$), written as UTF-16 through WriteConsoleW:
    /// the bytes of a plain file handle would be read in the console's code page (often 437
    /// or 850), not as the UTF-8 the frames are.
    pub struct Writer {
        console: crossterm_winapi::Console,
        /// The start of a character whose last bytes are still to come.
        pending: Vec<u8>,
    }

    impl Writer {
        pub fn open() -> io::Result<Writer> {
            let handle = crossterm_winapi::Handle::current_out_handle()?;
            Ok(Writer {
                console: crossterm_winapi::Console::from(handle),
                pending: Vec::new(),
            })
        }
    }

    impl Write for Writer {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.pending.extend_from_slice(buf);
            let whole = match std::str::from_utf8(&self.pending) {
                Ok(text) => text.len(),
                // A character cut at the end of the buffer waits for its other bytes.
                Err(e) if e.error_len().is_none() => e.valid_up_to(),
                // Not UTF-8 at all: written with U+FFFD in its place rather than refused.
                Err(_) => {
                    let text = String::from_utf8_lossy(&self.pending).into_owned();
                    self.pending.clear();
                    self.console.write_char_buffer(text.as_bytes())?;
                    return Ok(buf.len());
                }
            };
            if whole > 0 {
                self.console.write_char_buffer(&self.pending[..whole])?;
                self.pending.drain(..whole);
            }
            Ok(buf.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
}

/// Leaves everything the inspector turned on.
fn restore(out: &mut impl Write) {
    let _ = execute!(
        out,
        DisableBracketedPaste,
        DisableMouseCapture,
        LeaveAlternateScreen,
        crossterm::cursor::Show
    );
    let _ = disable_raw_mode();
}

/// Stops every external parser's process when dropped: at the end of [`run`], however it ends
/// (a panic unwinds through it). The threads that own the adapters may be waiting on one (a
/// catastrophic pattern keeps Node busy for seconds) and would not stop it before the exit.
struct StopAdapters;

impl Drop for StopAdapters {
    fn drop(&mut self) {
        crate::diff::adapter::stop_all();
    }
}

/// The inspector's history saved (or given up on), for whatever waits for the end: Windows
/// ends the process as soon as the console's close handler returns, so the handler waits here
/// for the event loop to leave the normal way and the history to be written.
#[derive(Clone, Debug, Default)]
pub struct Finished(Arc<(Mutex<bool>, Condvar)>);

impl Finished {
    /// Says that the end's work is done; every wait returns.
    pub fn mark(&self) {
        let (done, changed) = &*self.0;
        *done.lock().unwrap_or_else(PoisonError::into_inner) = true;
        changed.notify_all();
    }

    /// Waits up to `limit` for [`Finished::mark`]; whether it came.
    pub fn wait(&self, limit: Duration) -> bool {
        let (done, changed) = &*self.0;
        let done = done.lock().unwrap_or_else(PoisonError::into_inner);
        let (done, _) = changed
            .wait_timeout_while(done, limit, |done| !*done)
            .unwrap_or_else(PoisonError::into_inner);
        *done
    }
}

/// How long the console's close handler holds the process for the history: within the 5 s
/// Windows gives a handler by default, and far longer than the event loop's 100 ms turn and a
/// history file's write take.
pub const CLOSE_WAIT: Duration = Duration::from_secs(4);

/// What the console's close does: the event loop is asked to stop, and the process is held
/// until the inspector has finished (its history saved) or [`CLOSE_WAIT`] has passed.
pub fn on_close(stop: &AtomicBool, finished: &Finished) {
    stop.store(true, Ordering::Relaxed);
    finished.wait(CLOSE_WAIT);
}

/// Runs the inspector until the person quits.
pub fn run(input: &str, base: &str, options: &Options) -> io::Result<Outcome> {
    let history = history::History::open(if options.history {
        history::default_file()
    } else {
        None
    });
    let mut app = App::with_history(input, base, history);
    app.mouse = options.mouse;
    app.set_gate(options.gate.clone());
    if let Some(config) = options.resolve {
        app.set_lookups(crate::inspect::resolve::system::Background::start(config)?);
    }
    app.set_encoding(options.encoding);
    if let Some(pattern) = &options.pattern {
        app.pattern.ignore_case = options.ignore_case;
        app.set_pattern(pattern);
    }
    let view = options
        .view
        .or(options.pattern.as_ref().map(|_| pane::Pane::Pattern));
    // A view or step that cannot be shown is refused before the terminal is taken over.
    app.open_at(view, options.step)
        .map_err(|why| io::Error::new(io::ErrorKind::InvalidInput, why))?;
    let _stop_adapters = StopAdapters;
    let mut out = terminal_writer()?;
    enable_raw_mode()?;
    execute!(out, EnterAlternateScreen, EnableBracketedPaste)?;
    if options.mouse {
        execute!(out, EnableMouseCapture)?;
    }
    let previous_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if let Ok(mut out) = terminal_writer() {
            restore(&mut out);
        }
        previous_hook(info);
    }));
    // A termination signal only sets a flag; the loop sees it and leaves the normal way.
    let stop = Arc::new(AtomicBool::new(false));
    signal_hook::flag::register(signal_hook::consts::SIGTERM, Arc::clone(&stop))?;
    #[cfg(unix)]
    {
        signal_hook::flag::register(signal_hook::consts::SIGHUP, Arc::clone(&stop))?;
        watch_for_hangup(Arc::clone(&stop));
    }
    let finished = Finished::default();
    // SIGHUP's part on Windows: a closed console window. The process ends when the handler
    // returns, so the handler holds it until the history is saved.
    #[cfg(windows)]
    {
        let (stop, finished) = (Arc::clone(&stop), finished.clone());
        urlscope_windows::on_console_close(move || on_close(&stop, &finished))?;
    }
    let events = read_events()?;
    // The Parsers pane adds the external runtimes (and the user's own adapters); they start
    // on first use and answer in the background.
    match crate::diff::AdapterSpec::configured().and_then(|configured| {
        crate::diff::Lab::new(
            None,
            configured,
            crate::diff::Timeouts::default(),
            crate::diff::Delivery::Latest,
        )
    }) {
        Ok(lab) => app.set_lab(lab),
        Err(e) => app.say(format!(
            "The Parsers pane has the built-in parsers only: {e}"
        )),
    }
    // The Pattern view adds Node's reading of the pattern, asked in the background.
    match crate::urlpattern::node_reading::Background::start() {
        Ok(node) => app.set_node_reading(node),
        Err(e) => app.say(format!("The Pattern view has no Node reading: {e}")),
    }
    let result = match Terminal::new(CrosstermBackend::new(terminal_writer()?)) {
        Ok(mut terminal) => event_loop(&mut terminal, &mut app, &events, &stop, options),
        Err(e) => Err(e),
    };
    restore(&mut out);
    let saved = app.finish();
    finished.mark();
    result?;
    if let Err(e) = saved {
        eprintln!("urlscope: the history was not saved: {e}");
    }
    Ok(Outcome {
        href: app.report.url.as_ref().map(|u| u.href().to_owned()),
        input: app.input.text().to_owned(),
    })
}

/// The terminal's events, read on a thread of their own.
///
/// Once the terminal goes away, crossterm 0.28 never returns from a read: it takes end-of-file
/// for "no bytes yet" and spins (crossterm-rs/crossterm#793). Read here, that stuck read holds
/// no one up: the event loop waits on this channel with a timeout, sees the hangup's `stop`,
/// and leaves the normal way (the history saved, the parsers stopped).
fn read_events() -> io::Result<Receiver<io::Result<Event>>> {
    let (sender, events) = mpsc::channel();
    std::thread::Builder::new()
        .name("terminal-events".to_owned())
        .spawn(move || loop {
            let event = event::read();
            let failed = event.is_err();
            if sender.send(event).is_err() || failed {
                return;
            }
        })?;
    Ok(events)
}

/// Ends the inspector when the terminal goes away (a closed window, a killed tmux server),
/// which does not always come with a SIGHUP: a thread waits for the hangup itself and sets
/// `stop`, and the event loop leaves the normal way. Should that way not end within a few
/// seconds, the thread stops the parsers' processes and exits; there is nothing to restore on
/// a terminal that no longer exists.
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
        std::thread::sleep(Duration::from_secs(5));
        crate::diff::adapter::stop_all();
        std::process::exit(1);
    });
}

/// The action for a terminal event, given what is on screen.
pub fn action_for_event(event: Event, app: &App, area: ratatui::layout::Rect) -> Option<Action> {
    match event {
        Event::Key(key) if key.kind != KeyEventKind::Release => {
            keys::action_for(&key, &app.contexts())
        }
        Event::Paste(text) => Some(Action::Paste(text)),
        Event::Mouse(mouse) => {
            let at = (mouse.column, mouse.row).into();
            let screen = ui::screen(area, app);
            if let (Some(tabs), MouseEventKind::Down(MouseButton::Left)) = (screen.tabs, mouse.kind)
            {
                if tabs.contains(at) {
                    let shown = screen.panes.last().map(|(p, _)| *p);
                    return ui::tab_at(mouse.column - tabs.x, tabs.width, shown).map(Action::Focus);
                }
            }
            let (pane, rect) = ui::pane_areas(area, app)
                .into_iter()
                .find(|(_, r)| r.contains(at))?;
            // The wheel over the Trace pane's explanation strip scrolls the strip, as J/K do.
            if app.strip_area.get().is_some_and(|s| s.contains(at)) {
                match mouse.kind {
                    MouseEventKind::ScrollDown => return Some(Action::StripDown),
                    MouseEventKind::ScrollUp => return Some(Action::StripUp),
                    _ => {}
                }
            }
            match mouse.kind {
                MouseEventKind::Down(MouseButton::Left) => Some(Action::Click {
                    pane,
                    row: usize::from(mouse.row.saturating_sub(rect.y + 1)),
                    column: usize::from(mouse.column.saturating_sub(rect.x + 1)),
                }),
                MouseEventKind::ScrollDown => Some(Action::Scroll { pane, down: true }),
                MouseEventKind::ScrollUp => Some(Action::Scroll { pane, down: false }),
                _ => None,
            }
        }
        _ => None,
    }
}

fn event_loop<W: Write>(
    terminal: &mut Terminal<CrosstermBackend<W>>,
    app: &mut App,
    events: &Receiver<io::Result<Event>>,
    stop: &AtomicBool,
    options: &Options,
) -> io::Result<()> {
    let theme = Theme::from_env();
    let tmux =
        std::env::var_os("TMUX").map(|_| match std::env::var("TERM_PROGRAM").ok().as_deref() {
            Some("tmux") => std::env::var("TERM_PROGRAM_VERSION").unwrap_or_default(),
            _ => String::new(),
        });
    let hyperlinks = hyperlinks_wanted(
        std::env::var("URLSCOPE_HYPERLINKS").ok().as_deref(),
        std::env::var("TERM").ok().as_deref(),
        tmux.as_deref(),
    );
    let mut clipboard = clipboard::Clipboard::new(std::env::current_exe().ok(), options.osc52);
    let mut redraw = true;
    let mut area = ratatui::layout::Rect::default();
    while !app.quit && !stop.load(Ordering::Relaxed) {
        // Answers from the external parsers, taken without waiting.
        redraw |= app.poll_parsers();
        redraw |= app.poll_lookups();
        redraw |= app.poll_pattern();
        if redraw {
            terminal.draw(|frame| {
                area = frame.area();
                ui::draw(frame, app, &theme);
            })?;
            if hyperlinks {
                write_hyperlinks(terminal.backend_mut(), &app.links.borrow())?;
            }
            // Debug builds only: tests/terminal_restore.rs takes the panic way out with it.
            #[cfg(debug_assertions)]
            if std::env::var_os("URLSCOPE_PANIC_AFTER_DRAW").is_some() {
                panic!("URLSCOPE_PANIC_AFTER_DRAW is set");
            }
        }
        // Wake up now and then to notice a termination signal, and more often while external
        // parsers are still to answer, so that their rows fill in as they arrive.
        let node_pending = app.pattern.node.as_ref().is_some_and(|n| n.pending());
        let wait = if app.parsers.pending().is_empty() && !node_pending {
            100
        } else {
            20
        };
        let event = match events.recv_timeout(Duration::from_millis(wait)) {
            Ok(event) => event,
            Err(RecvTimeoutError::Timeout) => {
                redraw = false;
                continue;
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(io::Error::other("the terminal's events ended"))
            }
        };
        redraw = true;
        // Debug builds only: tests/terminal_restore.rs panics at a moment of its choosing (with
        // a parser's process busy) by typing this character.
        #[cfg(debug_assertions)]
        if let (Ok(Event::Key(key)), Some(on)) = (&event, std::env::var_os("URLSCOPE_PANIC_ON_KEY"))
        {
            if key.code
                == crossterm::event::KeyCode::Char(
                    on.to_string_lossy().chars().next().unwrap_or('\0'),
                )
            {
                panic!("URLSCOPE_PANIC_ON_KEY was typed");
            }
        }
        let mouse = app.mouse;
        if let Some(action) = action_for_event(event?, app, area) {
            app.apply(action);
        }
        if app.mouse != mouse {
            if app.mouse {
                execute!(terminal.backend_mut(), EnableMouseCapture)?;
            } else {
                execute!(terminal.backend_mut(), DisableMouseCapture)?;
            }
        }
        if let Some(request) = app.pending_copy.take() {
            let copied = clipboard.copy(&request.text, terminal.backend_mut());
            let shown = list::cut_end(&derived::show(&request.text), 40);
            app.say(copied.status(request.what, &shown));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_gallery;
#[cfg(test)]
mod tests_gate;
#[cfg(test)]
mod tests_input;
#[cfg(test)]
mod tests_pattern;
