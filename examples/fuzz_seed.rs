//! Builds the fuzz targets' seed corpora from the web-platform-tests data:
//! `cargo run --example fuzz_seed` writes `fuzz/corpus/<target>/` (not committed). Each data
//! file is read from the first place that has it, as the tests find it (tests/common/mod.rs):
//! `$URLSCOPE_WPT_DIR`, `../shared/wpt`, the `ada-url` dev-dependency's package (`tests/wpt/`,
//! located with `cargo metadata`).

use serde_json::{Map, Value};
use std::path::{Path, PathBuf};
use std::process::Command;
use urlscope::urlpattern::json::from_str_usv;

/// The `tests/wpt/` directory of the `ada-url` package, from `cargo metadata`.
fn ada_package_wpt_dir(root: &Path) -> Option<PathBuf> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--offline",
            "--manifest-path",
        ])
        .arg(root.join("Cargo.toml"))
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    let metadata: Value = serde_json::from_slice(&output.stdout).ok()?;
    let manifest = metadata["packages"]
        .as_array()?
        .iter()
        .find(|p| p["name"] == "ada-url")?["manifest_path"]
        .as_str()?
        .to_owned();
    Some(Path::new(&manifest).parent()?.join("tests/wpt"))
}

/// The directory holding `file`: the first of `dirs` that has it, else the `ada-url` package's.
fn locate(dirs: &[PathBuf], root: &Path, file: &str) -> PathBuf {
    dirs.iter()
        .find(|d| d.join(file).is_file())
        .cloned()
        .or_else(|| ada_package_wpt_dir(root).filter(|d| d.join(file).is_file()))
        .unwrap_or_else(|| {
            panic!("{file}: not in $URLSCOPE_WPT_DIR, ../shared/wpt nor the ada-url package")
        })
}

/// A URLPatternInit as the `pattern` target's tab-separated fields (protocol … hash,
/// baseURL; an empty field is absent), when its values allow it.
fn init_fields(init: &Map<String, Value>) -> Option<String> {
    let names = [
        "protocol", "username", "password", "hostname", "port", "pathname", "search", "hash",
        "baseURL",
    ];
    let mut fields = Vec::new();
    for name in names {
        let value = match init.get(name) {
            None => "",
            Some(v) => v.as_str()?,
        };
        if value.contains(['\t', '\n']) {
            return None;
        }
        fields.push(value);
    }
    Some(fields.join("\t"))
}

/// A pattern or input line of the `pattern` target: a string as is, an init as JSON (or as
/// fields, with `as_fields`).
fn pattern_line(value: &Value, as_fields: bool) -> Option<String> {
    match (value, as_fields) {
        (Value::String(s), false) => Some(s.clone()),
        (Value::Object(o), false) => serde_json::to_string(o).ok(),
        (Value::Object(o), true) => init_fields(o),
        _ => None,
    }
}

/// The `pattern` target's seeds for one case of urlpatterntestdata.json: its pattern alone,
/// and with each of its inputs, the inits as JSON and as fields.
fn pattern_seeds(case: &Value) -> Vec<Vec<u8>> {
    let empty = Vec::new();
    let arguments = case["pattern"].as_array().unwrap_or(&empty);
    let pattern = arguments
        .first()
        .cloned()
        .unwrap_or(Value::Object(Map::new()));
    let base = arguments.get(1).and_then(Value::as_str).unwrap_or("");
    let ignore_case = arguments
        .iter()
        .any(|a| a["ignoreCase"] == Value::Bool(true));
    let inputs = case["inputs"].as_array().unwrap_or(&empty);
    let input = inputs.first();
    let input_base = inputs.get(1).and_then(Value::as_str).unwrap_or("");
    let mut seeds = Vec::new();
    for (pattern_fields, input_fields) in [(false, false), (true, false), (false, true)] {
        let Some(pattern) = pattern_line(&pattern, pattern_fields) else {
            continue;
        };
        let flags = u8::from(ignore_case) | u8::from(pattern_fields) << 1;
        let mut seed = vec![flags];
        seed.extend_from_slice(format!("{pattern}\n{base}").as_bytes());
        if let Some(input) = input {
            let Some(input) = pattern_line(input, input_fields) else {
                continue;
            };
            seed[0] |= u8::from(input_fields) << 2;
            seed.extend_from_slice(format!("\n{input}\n{input_base}").as_bytes());
        }
        seeds.push(seed);
    }
    seeds
}

fn load(dir: &Path, file: &str) -> Vec<Value> {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    // The URL pattern data escapes lone surrogates, which a USVString holds as U+FFFD.
    match from_str_usv(&text) {
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
    let dirs: Vec<PathBuf> = std::env::var_os("URLSCOPE_WPT_DIR")
        .map(PathBuf::from)
        .into_iter()
        .chain([root.join("../shared/wpt")])
        .collect();
    let wpt = locate(&dirs, &root, "urltestdata.json");
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
    let setters_wpt = locate(&dirs, &root, "setters_tests.json");
    for case in load(&setters_wpt, "setters_tests.json") {
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
    let pattern_wpt = locate(&dirs, &root, "urlpatterntestdata.json");
    for case in load(&pattern_wpt, "urlpatterntestdata.json") {
        seeds.extend(
            pattern_seeds(&case)
                .into_iter()
                .map(|seed| ("pattern", seed)),
        );
    }
    for target in ["parse", "setters", "host", "form", "report", "pattern"] {
        std::fs::create_dir_all(corpus.join(target))?;
    }
    for (i, (target, seed)) in seeds.iter().enumerate() {
        std::fs::write(corpus.join(target).join(format!("wpt-{i:05}")), seed)?;
    }
    println!(
        "{} seeds from {} and {} into {}",
        seeds.len(),
        wpt.display(),
        pattern_wpt.display(),
        corpus.display()
    );
    Ok(())
}
