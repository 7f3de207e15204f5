//! The `urlscope` binary: a thin front end on the library's report.

fn main() -> std::process::ExitCode {
    urlscope_cli::run()
}

#[path = "cli.rs"]
mod urlscope_cli;
