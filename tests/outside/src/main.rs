//! Parses each argument with urlscope, as a crate that depends on the library would: the URL
//! Standard's href, or the failure, and the validation errors with their spans.

use std::process::ExitCode;

fn main() -> ExitCode {
    let mut failed = false;
    for input in std::env::args().skip(1) {
        match urlscope::Url::parse(&input, None) {
            Ok(url) => println!("href {}", url.href()),
            Err(error) => {
                println!("failure {error}");
                failed = true;
            }
        }
        let report = urlscope::Report::new(&input, None);
        for error in &report.errors {
            println!("error {} {}..{}", error.kind, error.span.start, error.span.end);
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
