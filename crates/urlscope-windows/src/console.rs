//! The console's close: Windows sends `CTRL_CLOSE_EVENT` to every process attached to a console
//! whose window is closed (and `CTRL_LOGOFF_EVENT`, `CTRL_SHUTDOWN_EVENT` at log-off and
//! shutdown), on a thread it starts in the process, and ends the process as soon as the handler
//! returns, or after a few seconds (5 by default) if it does not. A handler that only sets a
//! flag for the main thread (as the `ctrlc` crate's does) loses the race: the work must be done,
//! or waited for, before returning.

use std::io;
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, Mutex, PoisonError};

use windows_sys::core::BOOL;
use windows_sys::Win32::System::Console::{
    SetConsoleCtrlHandler, CTRL_CLOSE_EVENT, CTRL_LOGOFF_EVENT, CTRL_SHUTDOWN_EVENT,
};

type Callback = Arc<dyn Fn() + Send + Sync>;

/// The function to run on a close, and whether the handler is registered.
struct Registration {
    callback: Option<Callback>,
    registered: bool,
}

static REGISTRATION: Mutex<Registration> = Mutex::new(Registration {
    callback: None,
    registered: false,
});

/// Runs `f` when the console is closed, the user logs off or the system shuts down, and lets
/// Windows end the process only once `f` has returned (within the system's limit, 5 s by
/// default). A later call replaces `f`. Ctrl+C and Ctrl+Break are left to the other handlers.
pub fn on_console_close(f: impl Fn() + Send + Sync + 'static) -> io::Result<()> {
    let mut registration = REGISTRATION.lock().unwrap_or_else(PoisonError::into_inner);
    registration.callback = Some(Arc::new(f));
    if !registration.registered {
        // SAFETY: `handler` has the HandlerRoutine signature and lives as long as the process.
        if unsafe { SetConsoleCtrlHandler(Some(handler), 1) } == 0 {
            return Err(io::Error::last_os_error());
        }
        registration.registered = true;
    }
    Ok(())
}

/// The HandlerRoutine: the close events run the callback here, on the system's thread, and
/// return TRUE when it has run (the system then ends the process); every other event goes to
/// the next handler (FALSE).
unsafe extern "system" fn handler(event: u32) -> BOOL {
    if !matches!(
        event,
        CTRL_CLOSE_EVENT | CTRL_LOGOFF_EVENT | CTRL_SHUTDOWN_EVENT
    ) {
        return 0;
    }
    // Taken out of the lock before it runs, so that a callback that registers again cannot
    // deadlock.
    let callback = REGISTRATION
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .callback
        .clone();
    let Some(callback) = callback else {
        return 0;
    };
    // A panic must not unwind into the system's code: it is caught, and the process ends as
    // it would have.
    let _ = std::panic::catch_unwind(AssertUnwindSafe(|| callback()));
    1
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use windows_sys::Win32::System::Console::{CTRL_BREAK_EVENT, CTRL_C_EVENT};

    #[test]
    fn the_close_events_run_the_callback_and_no_other_does() {
        static RUNS: AtomicUsize = AtomicUsize::new(0);
        on_console_close(|| {
            RUNS.fetch_add(1, Ordering::SeqCst);
        })
        .expect("registered");
        for event in [CTRL_C_EVENT, CTRL_BREAK_EVENT] {
            // SAFETY: called as the system calls it, on this thread.
            assert_eq!(unsafe { handler(event) }, 0, "event {event}");
        }
        assert_eq!(RUNS.load(Ordering::SeqCst), 0);
        for (n, event) in [CTRL_CLOSE_EVENT, CTRL_LOGOFF_EVENT, CTRL_SHUTDOWN_EVENT]
            .into_iter()
            .enumerate()
        {
            // SAFETY: as above.
            assert_eq!(unsafe { handler(event) }, 1, "event {event}");
            assert_eq!(RUNS.load(Ordering::SeqCst), n + 1);
        }
        // A panicking callback is contained; the event still counts as handled.
        on_console_close(|| panic!("in the close handler")).expect("replaced");
        // SAFETY: as above.
        assert_eq!(unsafe { handler(CTRL_CLOSE_EVENT) }, 1);
    }
}
