//! Builds the fuzz targets' seed corpora from the web-platform-tests data:
//! `cargo run --example fuzz_seed` writes `fuzz/corpus/<target>/` (not committed; the data is
//! read from `$URLSCOPE_WPT_DIR`, else `../shared/wpt`).

use serde_json::Value;
use std::path::{Path, PathBuf};

fn load(dir: &Path, file: &str) -> Vec<Value> {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    match serde_json::from_str(&text) {
        Ok(Value::Array(items)) => items,
        Ok(Value::Object(map)) => map
            .into_values()
            .flat_map(|v| match v {
                Value::Array(items) => items,
                _ => Vec::new(),
            })
            .collect(),
        _ => panic!("{}: not a JSON array or object", path.display()),
    }
}

fn main() -> std::io::Result<()> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let wpt = std::env::var_os("URLSCOPE_WPT_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("../shared/wpt"));
    let corpus = root.join("fuzz/corpus");
    let mut seeds: Vec<(&str, Vec<u8>)> = Vec::new();
    for case in load(&wpt, "urltestdata.json") {
        let Some(input) = case.get("input").and_then(Value::as_str) else {
            continue;
        };
        let with_base = match case.get("base").and_then(Value::as_str) {
            Some(base) => format!("{base}\n{input}"),
            None => input.to_owned(),
        };
        seeds.push(("parse", with_base.clone().into_bytes()));
        seeds.push(("report", with_base.into_bytes()));
        if let Some(host) = case.get("hostname").and_then(Value::as_str) {
            seeds.push(("host", host.as_bytes().to_vec()));
        }
        if let Some(search) = case.get("search").and_then(Value::as_str) {
            seeds.push(("form", search.trim_start_matches('?').as_bytes().to_vec()));
        }
    }
    for case in load(&wpt, "setters_tests.json") {
        let (Some(href), Some(value)) = (
            case.get("href").and_then(Value::as_str),
            case.get("new_value").and_then(Value::as_str),
        ) else {
            continue;
        };
        for selector in 0..10u8 {
            let mut seed = vec![selector];
            seed.extend_from_slice(format!("{href}\n{value}").as_bytes());
            seeds.push(("setters", seed));
        }
    }
    for target in ["parse", "setters", "host", "form", "report"] {
        std::fs::create_dir_all(corpus.join(target))?;
    }
    for (i, (target, seed)) in seeds.iter().enumerate() {
        std::fs::write(corpus.join(target).join(format!("wpt-{i:05}")), seed)?;
    }
    println!(
        "{} seeds from {} into {}",
        seeds.len(),
        wpt.display(),
        corpus.display()
    );
    Ok(())
}
