//! Parse + href on real URL lists, side by side with the `url` crate and ada (through its C
//! API): the tracing-off engine against the two reference parsers, in one run.
//! `cargo bench --bench parse`; the corpora are read from `$URLSCOPE_BENCH_DIR` or
//! `../shared/bench`. `cargo bench --bench parse -- --alternate` times urlscope and ada in
//! turns instead (a pass over the list each, twenty rounds), so that both see the same
//! moments of a shared machine.

mod support;

use criterion::{criterion_group, BenchmarkId, Criterion, Throughput};
use encoding_rs::UTF_8;
use std::hint::black_box;
use std::path::PathBuf;
use urlscope::trace::Recorder;
use urlscope::url::UrlRecord;

fn corpus(file: &str) -> Vec<String> {
    let dir = std::env::var_os("URLSCOPE_BENCH_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/bench")));
    let text = std::fs::read_to_string(dir.join(file)).unwrap_or_default();
    text.lines().map(str::to_owned).collect()
}

fn parsers(c: &mut Criterion) {
    for file in ["kasztp.txt", "node_files.txt"] {
        let urls = corpus(file);
        if urls.is_empty() {
            eprintln!("{file} not found: skipped");
            continue;
        }
        let mut group = c.benchmark_group(file);
        group.throughput(Throughput::Elements(urls.len() as u64));
        group.sample_size(20);
        group.bench_function(BenchmarkId::new("urlscope", urls.len()), |b| {
            b.iter(|| {
                let mut n = 0;
                for u in &urls {
                    if let Ok(url) = urlscope::Url::parse(black_box(u), None) {
                        n += url.href().len();
                    }
                }
                n
            })
        });
        // The state machine alone, and with every step recorded: what tracing costs.
        group.bench_function(
            BenchmarkId::new("urlscope state machine", urls.len()),
            |b| {
                b.iter(|| {
                    let mut n = 0;
                    for u in &urls {
                        if let Ok(url) = urlscope::Url::parse_without_shortcut(black_box(u), None) {
                            n += url.href().len();
                        }
                    }
                    n
                })
            },
        );
        group.bench_function(BenchmarkId::new("urlscope traced", urls.len()), |b| {
            b.iter(|| {
                let mut n = 0;
                for u in &urls {
                    let mut recorder = Recorder::new();
                    let parsed =
                        urlscope::Url::parse_with(black_box(u), None, UTF_8, &mut recorder);
                    let trace = recorder.finish(u, UrlRecord::default());
                    n += trace.steps().len() + parsed.map_or(0, |url| url.href().len());
                }
                n
            })
        });
        group.bench_function(BenchmarkId::new("url", urls.len()), |b| {
            b.iter(|| {
                let mut n = 0;
                for u in &urls {
                    if let Ok(url) = url::Url::parse(black_box(u)) {
                        n += url.as_str().len();
                    }
                }
                n
            })
        });
        group.bench_function(BenchmarkId::new("ada", urls.len()), |b| {
            b.iter(|| {
                let mut n = 0;
                for u in &urls {
                    if let Ok(url) = ada_url::Url::parse(black_box(u.as_str()), None) {
                        n += url.href().len();
                    }
                }
                n
            })
        });
        group.finish();
    }
}

/// Relative references made from the corpus: each URL's path, query or fragment in one of
/// six forms (path-absolute, path-relative, "../", query, fragment, scheme-relative), resolved
/// against the URL before it.
fn relative_references(urls: &[String]) -> Vec<(String, String)> {
    let parsed: Vec<url::Url> = urls
        .iter()
        .filter_map(|u| url::Url::parse(u).ok())
        .collect();
    parsed
        .windows(2)
        .enumerate()
        .map(|(i, pair)| {
            let (base, target) = (&pair[0], &pair[1]);
            let path = target.path();
            let last = path.rsplit('/').next().unwrap_or("");
            let query = target.query().map(|q| format!("?{q}")).unwrap_or_default();
            let reference = match i % 6 {
                0 => format!("{path}{query}"),
                1 => format!("{last}{query}"),
                2 => format!("../{last}"),
                3 => format!("?{}", target.query().unwrap_or("q=1")),
                4 => format!("#{}", target.fragment().unwrap_or("section")),
                _ => format!("//{}{path}", target.host_str().unwrap_or("example.com")),
            };
            (base.as_str().to_owned(), reference)
        })
        .collect()
}

fn with_base(c: &mut Criterion) {
    let urls = corpus("kasztp.txt");
    if urls.is_empty() {
        eprintln!("kasztp.txt not found: skipped");
        return;
    }
    let pairs = relative_references(&urls);
    let ours: Vec<(urlscope::Url, &str)> = pairs
        .iter()
        .map(|(b, r)| (urlscope::Url::parse(b, None).expect("base"), r.as_str()))
        .collect();
    let theirs: Vec<(url::Url, &str)> = pairs
        .iter()
        .map(|(b, r)| (url::Url::parse(b).expect("base"), r.as_str()))
        .collect();
    let mut group = c.benchmark_group("kasztp.txt with a base");
    group.throughput(Throughput::Elements(pairs.len() as u64));
    group.sample_size(20);
    group.bench_function(BenchmarkId::new("urlscope", pairs.len()), |b| {
        b.iter(|| {
            let mut n = 0;
            for (base, reference) in &ours {
                if let Ok(url) = urlscope::Url::parse(black_box(reference), Some(base)) {
                    n += url.href().len();
                }
            }
            n
        })
    });
    group.bench_function(BenchmarkId::new("url join", pairs.len()), |b| {
        b.iter(|| {
            let mut n = 0;
            for (base, reference) in &theirs {
                if let Ok(url) = base.join(black_box(reference)) {
                    n += url.as_str().len();
                }
            }
            n
        })
    });
    group.finish();
}

/// `Url::parse` + href over the list, urlscope's and ada's, in turns: each round times a pass
/// of each (the best of three), and the ratio is taken both of the best passes and round by
/// round.
fn alternate() {
    const ROUNDS: usize = 20;
    for file in ["kasztp.txt", "node_files.txt"] {
        let urls = corpus(file);
        if urls.is_empty() {
            eprintln!("{file} not found: skipped");
            continue;
        }
        let ours = || {
            let mut n = 0;
            for u in &urls {
                if let Ok(url) = urlscope::Url::parse(black_box(u), None) {
                    n += url.href().len();
                }
            }
            n
        };
        let ada = || {
            let mut n = 0;
            for u in &urls {
                if let Ok(url) = ada_url::Url::parse(black_box(u.as_str()), None) {
                    n += url.href().len();
                }
            }
            n
        };
        let mut rounds: Vec<(f64, f64)> = (0..ROUNDS)
            .map(|_| {
                let ours = support::best(3, ours).as_secs_f64();
                let ada = support::best(3, ada).as_secs_f64();
                (ours, ada)
            })
            .collect();
        let ns = |s: f64| s * 1e9 / urls.len() as f64;
        let best_ours = rounds.iter().map(|r| r.0).fold(f64::INFINITY, f64::min);
        let best_ada = rounds.iter().map(|r| r.1).fold(f64::INFINITY, f64::min);
        rounds.sort_by(|a, b| (a.0 / a.1).total_cmp(&(b.0 / b.1)));
        let ratio = |r: &(f64, f64)| r.0 / r.1;
        println!(
            "{file}: urlscope {:.1} ns/URL, ada {:.1} ns/URL (best of {ROUNDS} rounds): {:.2}×; \
             round by round {:.2}× to {:.2}×, median {:.2}×",
            ns(best_ours),
            ns(best_ada),
            best_ours / best_ada,
            ratio(&rounds[0]),
            ratio(&rounds[ROUNDS - 1]),
            ratio(&rounds[ROUNDS / 2]),
        );
    }
}

criterion_group!(benches, parsers, with_base);

fn main() {
    if std::env::args().any(|a| a == "--alternate") {
        alternate();
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
