//! Parse + href on real URL lists, side by side with the `url` crate and ada (through its C
//! API): the tracing-off engine against the two reference parsers, in one run.
//! `cargo bench --bench parse`; the corpora are read from `$URLSCOPE_BENCH_DIR` or
//! `../shared/bench`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::path::PathBuf;

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

criterion_group!(benches, parsers);
criterion_main!(benches);
