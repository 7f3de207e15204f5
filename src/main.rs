//! The `urlscope` binary: a thin front end on the library's report.

mod cli;

fn main() -> std::process::ExitCode {
    cli::run()
}
