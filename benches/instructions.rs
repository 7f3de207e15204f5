//! Instructions per URL (parse + href) for urlscope, the `url` crate and ada, counted by
//! callgrind: deterministic where wall-clock time on a shared machine is not.
//! `cargo bench --bench instructions` runs this binary under `valgrind --tool=callgrind` once
//! per parser and corpus, and once more doing everything but the parsing, whose count is
//! subtracted.

use std::hint::black_box;
use std::path::PathBuf;
use std::process::Command;

const PARSERS: [&str; 4] = ["none", "urlscope", "url", "ada"];

fn corpus_dir() -> PathBuf {
    std::env::var_os("URLSCOPE_BENCH_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/bench")))
}

/// The measured process: parse every line of `file` with `parser`.
fn child(parser: &str, file: &str) {
    let text = std::fs::read_to_string(corpus_dir().join(file)).expect("corpus");
    let mut n = 0;
    for line in text.lines() {
        let line = black_box(line);
        n += match parser {
            "urlscope" => urlscope::Url::parse(line, None).map_or(0, |u| u.href().len()),
            "url" => url::Url::parse(line).map_or(0, |u| u.as_str().len()),
            "ada" => ada_url::Url::parse(line, None).map_or(0, |u| u.href().len()),
            _ => line.len(),
        };
    }
    black_box(n);
}

/// Runs the child under callgrind and reads the instruction count it reports.
fn instructions(parser: &str, file: &str) -> Option<u64> {
    let exe = std::env::current_exe().ok()?;
    let output = Command::new("valgrind")
        .args(["--tool=callgrind", "--callgrind-out-file=/dev/null"])
        .arg(exe)
        .args(["--child", parser, file])
        .output()
        .ok()?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    let line = stderr.lines().find(|l| l.contains("Collected :"))?;
    line.rsplit(':').next()?.trim().parse().ok()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--child") {
        child(&args[i + 1], &args[i + 2]);
        return;
    }
    if Command::new("valgrind").arg("--version").output().is_err() {
        println!("valgrind not found: install it to count instructions");
        return;
    }
    println!(
        "{:<16} {:>10} {:>12} {:>12} {:>12} {:>9} {:>9}",
        "corpus", "URLs", "urlscope", "url", "ada", "/ url", "/ ada"
    );
    for file in ["kasztp.txt", "node_files.txt"] {
        let Ok(text) = std::fs::read_to_string(corpus_dir().join(file)) else {
            println!("{file} not found: skipped");
            continue;
        };
        let urls = text.lines().count() as f64;
        let counts: Vec<Option<u64>> = PARSERS.iter().map(|p| instructions(p, file)).collect();
        let Some(baseline) = counts[0] else {
            println!("{file}: callgrind gave no count");
            continue;
        };
        let per_url: Vec<f64> = counts[1..]
            .iter()
            .map(|c| c.map_or(f64::NAN, |c| c.saturating_sub(baseline) as f64 / urls))
            .collect();
        println!(
            "{:<16} {:>10} {:>12.0} {:>12.0} {:>12.0} {:>8.2}× {:>8.2}×",
            file,
            urls,
            per_url[0],
            per_url[1],
            per_url[2],
            per_url[0] / per_url[1],
            per_url[0] / per_url[2]
        );
    }
}
