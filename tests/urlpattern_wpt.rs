//! Every case of the web-platform-tests' `urlpatterntestdata.json` (found as tests/wpt.rs finds
//! the URL data), checked as the suite's own harness (`urlpattern.any.js`) checks it: the
//! constructor throws or not, each component's pattern string, test(), and exec()'s result.
//! No case is skipped; the test prints the count.
//!
//! Then `urlpattern-compare-test-data.json` and `urlpattern-generate-test-data.json`, which
//! test two proposals outside the standard (`compareComponent` and `generate`), each checked
//! as its harness (`urlpattern-compare.tentative.any.js`, `urlpattern-generate.tentative.any.js`)
//! checks it: compare both ways round and each pattern with itself; generate's value, or a
//! TypeError where the expected value is null.

mod common;

use serde_json::{json, Map, Value};
use std::cmp::Ordering;
use std::collections::BTreeMap;
use urlscope::urlpattern::json::{answer, from_str_usv, init_from_json};
use urlscope::urlpattern::{ComponentName, UrlPattern, UrlPatternInput, UrlPatternOptions};

const FILE: &str = "urlpatterntestdata.json";
const COMPARE_FILE: &str = "urlpattern-compare-test-data.json";
const GENERATE_FILE: &str = "urlpattern-generate-test-data.json";
const COMPONENTS: [&str; 8] = [
    "protocol", "username", "password", "hostname", "port", "pathname", "search", "hash",
];

/// The harness's EARLIER_COMPONENTS: a component given in the init makes the later ones `*`.
fn earlier_components(component: &str) -> &'static [&'static str] {
    match component {
        "hostname" => &["protocol"],
        "port" => &["protocol", "hostname"],
        "pathname" => &["protocol", "hostname", "port"],
        "search" => &["protocol", "hostname", "port", "pathname"],
        "hash" => &["protocol", "hostname", "port", "pathname", "search"],
        _ => &[],
    }
}

/// What the harness expects a component's pattern string to be.
fn expected_component(case: &Value, component: &str) -> Result<String, String> {
    if let Some(v) = case["expected_obj"].get(component).and_then(Value::as_str) {
        return Ok(v.to_owned());
    }
    let pattern = case["pattern"].as_array().ok_or("no pattern")?;
    let empty = case["exactly_empty_components"]
        .as_array()
        .is_some_and(|a| a.iter().any(|c| c == component));
    if empty {
        return Ok(String::new());
    }
    let first = pattern.first().and_then(Value::as_object);
    if let Some(v) = first
        .and_then(|o| o.get(component))
        .and_then(Value::as_str)
        .filter(|v| !v.is_empty())
    {
        return Ok(v.to_owned());
    }
    if let Some(o) = first {
        if earlier_components(component)
            .iter()
            .any(|c| o.contains_key(*c))
        {
            return Ok("*".to_owned());
        }
    }
    let base = first
        .and_then(|o| o.get("baseURL"))
        .and_then(Value::as_str)
        .or_else(|| pattern.get(1).and_then(Value::as_str));
    if let (Some(base), false) = (base, component == "username" || component == "password") {
        // The harness reads the base URL with the platform's URL, a second reading; ours is
        // the engine's, which passes the URL data's every case.
        let url = urlscope::Url::parse(base, None).map_err(|e| format!("base {base}: {e:?}"))?;
        let value = match component {
            "protocol" => url.scheme().to_owned(),
            "hostname" => url.hostname().to_owned(),
            "port" => url.port().to_owned(),
            "pathname" => url.pathname().to_owned(),
            "search" => url.search().trim_start_matches('?').to_owned(),
            "hash" => url.hash().trim_start_matches('#').to_owned(),
            _ => unreachable!(),
        };
        return Ok(value);
    }
    Ok("*".to_owned())
}

/// The harness's expected exec() component result, when the case leaves it out.
fn expected_component_result(case: &Value, component: &str) -> Value {
    if let Some(v) = case["expected_match"].get(component) {
        return v.clone();
    }
    let empty = case["exactly_empty_components"]
        .as_array()
        .is_some_and(|a| a.iter().any(|c| c == component));
    let mut groups = Map::new();
    if !empty {
        groups.insert("0".into(), json!(""));
    }
    json!({"input": "", "groups": groups})
}

fn check(case: &Value) -> Result<(), String> {
    let got = answer(case)?;
    // The constructor.
    if case["expected_obj"] == "error" {
        return match &got["error"] {
            Value::String(_) => Ok(()),
            _ => Err(format!(
                "the constructor should throw; got {}",
                got["components"]
            )),
        };
    }
    if let Value::String(e) = &got["error"] {
        return Err(format!("the constructor threw: {e}"));
    }
    for component in COMPONENTS {
        let expected = expected_component(case, component)?;
        let actual = got["components"][component].as_str().unwrap_or_default();
        if actual != expected {
            return Err(format!(
                "pattern string of {component}: expected {expected:?}, got {actual:?}"
            ));
        }
    }
    // test() and exec().
    if case["expected_match"] == "error" {
        return match got["test"] {
            Value::Null => Ok(()),
            _ => Err(format!(
                "the input should throw; test() gave {}",
                got["test"]
            )),
        };
    }
    let expected_test = !case["expected_match"].is_null();
    if got["test"] != Value::Bool(expected_test) {
        return Err(format!(
            "test(): expected {expected_test}, got {} (input_error: {})",
            got["test"], got["input_error"]
        ));
    }
    if !expected_test {
        return match got["match"] {
            Value::Null => Ok(()),
            _ => Err(format!("exec() should be null, got {}", got["match"])),
        };
    }
    let expected_inputs = case["expected_match"]
        .get("inputs")
        .unwrap_or(&case["inputs"]);
    if &got["match"]["inputs"] != expected_inputs {
        return Err(format!(
            "exec().inputs: expected {expected_inputs}, got {}",
            got["match"]["inputs"]
        ));
    }
    for component in COMPONENTS {
        let expected = expected_component_result(case, component);
        let actual = &got["match"][component];
        // assert_object_equals: the same members, in any order.
        let same = expected["input"] == actual["input"]
            && expected["groups"].as_object().map(|o| o.len())
                == actual["groups"].as_object().map(|o| o.len())
            && expected["groups"]
                .as_object()
                .into_iter()
                .flatten()
                .all(|(k, v)| actual["groups"].get(k) == Some(v));
        if !same {
            return Err(format!(
                "exec().{component}: expected {expected}, got {actual}"
            ));
        }
    }
    Ok(())
}

/// A URLPattern from a case's JSON: a constructor string or a URLPatternInit.
fn construct(value: &Value) -> Result<UrlPattern, String> {
    let input = match value {
        Value::String(s) => UrlPatternInput::String(s.clone()),
        Value::Object(o) => UrlPatternInput::Init(init_from_json(o)?),
        other => return Err(format!("a pattern is a string or an object, not {other}")),
    };
    UrlPattern::new(&input, None, UrlPatternOptions::default()).map_err(|e| e.to_string())
}

fn as_number(order: Ordering) -> i64 {
    match order {
        Ordering::Less => -1,
        Ordering::Equal => 0,
        Ordering::Greater => 1,
    }
}

fn check_compare(case: &Value) -> Result<(), String> {
    let component = case["component"]
        .as_str()
        .and_then(ComponentName::from_name);
    let component = component.ok_or_else(|| format!("component {}", case["component"]))?;
    let left = construct(&case["left"])?;
    let right = construct(&case["right"])?;
    let expected = case["expected"].as_i64().ok_or("no expected number")?;
    let compare =
        |a: &UrlPattern, b: &UrlPattern| as_number(UrlPattern::compare_component(component, a, b));
    for (what, got, want) in [
        ("left, right", compare(&left, &right), expected),
        ("right, left", compare(&right, &left), -expected),
        ("left, left", compare(&left, &left), 0),
        ("right, right", compare(&right, &right), 0),
    ] {
        if got != want {
            return Err(format!(
                "compareComponent({what}): expected {want}, got {got}"
            ));
        }
    }
    Ok(())
}

fn check_generate(case: &Value) -> Result<(), String> {
    let pattern = construct(&case["pattern"])?;
    let groups: BTreeMap<String, String> = case["groups"]
        .as_object()
        .ok_or("no groups object")?
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_owned()))
        .collect();
    // The component is a WebIDL enum: a name outside it throws a TypeError.
    let got = match case["component"]
        .as_str()
        .and_then(ComponentName::from_name)
    {
        None => Err("not a URLPatternComponent".to_owned()),
        Some(component) => pattern
            .generate(component, &groups)
            .map_err(|e| e.to_string()),
    };
    match (&case["expected"], got) {
        (Value::Null, Err(_)) => Ok(()),
        (Value::Null, Ok(v)) => Err(format!("expected a TypeError, got {v:?}")),
        (Value::String(want), Ok(v)) if *want == v => Ok(()),
        (want, got) => Err(format!("expected {want}, got {got:?}")),
    }
}

/// Reads a data file's cases, runs `check` on each, prints the count and returns the
/// failures.
fn run_file(
    source: &common::Source,
    file: &str,
    check: fn(&Value) -> Result<(), String>,
) -> Vec<String> {
    let Some(located) = source.locate(file) else {
        fail(&format!(
            "{file} not found in {} nor in the `ada-url` package: the suite cannot run",
            source.dir.display()
        ))
    };
    let text = std::fs::read_to_string(&located.path)
        .unwrap_or_else(|e| fail(&format!("{}: {e}", located.path.display())));
    let cases = from_str_usv(&text).unwrap_or_else(|e| fail(&format!("{file}: {e}")));
    let Some(cases) = cases.as_array() else {
        fail(&format!("{file} is not an array of cases"))
    };
    let mut failures = Vec::new();
    for case in cases {
        if let Err(why) = check(case) {
            failures.push(format!("{file}: {case}: {why}"));
        }
    }
    println!(
        "{file} ({}): {} of {} cases pass",
        located.how,
        cases.len() - failures.len(),
        cases.len()
    );
    failures
}

/// Runs without libtest (`harness = false`) so that the counts are printed on every run.
fn main() {
    let source = match common::discover() {
        Ok(source) => source,
        Err(why) => fail(&why),
    };
    let mut failures = run_file(&source, FILE, check);
    failures.extend(run_file(&source, COMPARE_FILE, check_compare));
    failures.extend(run_file(&source, GENERATE_FILE, check_generate));
    if !failures.is_empty() {
        fail(&format!(
            "{} failures:\n{}",
            failures.len(),
            failures.join("\n")
        ));
    }
}

fn fail(why: &str) -> ! {
    eprintln!("{why}");
    std::process::exit(1)
}
