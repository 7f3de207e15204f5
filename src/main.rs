//! The `urlscope` binary: a thin front end on the library's report.

mod cli;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    // A copy's background server (see urlscope::tui::clipboard) is this binary too.
    #[cfg(feature = "tui")]
    if let Some(code) = urlscope::tui::clipboard::serve_if_asked() {
        return code;
    }
    cli::run()
}
