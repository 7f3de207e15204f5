//! Every case of the web-platform-tests' `urlpatterntestdata.json` (found as tests/wpt.rs finds
//! the URL data), checked as the suite's own harness (`urlpattern.any.js`) checks it: the
//! constructor throws or not, each component's pattern string, test(), and exec()'s result.
//! No case is skipped; the test prints the count.

mod common;

use serde_json::{json, Map, Value};
use urlscope::urlpattern::json::{answer, from_str_usv};

const FILE: &str = "urlpatterntestdata.json";
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

/// Runs without libtest (`harness = false`) so that the count is printed on every run.
fn main() {
    let source = match common::discover() {
        Ok(source) => source,
        Err(why) => fail(&why),
    };
    let Some(located) = source.locate(FILE) else {
        fail(&format!(
            "{FILE} not found in {} nor in the `ada-url` package: the suite cannot run",
            source.dir.display()
        ))
    };
    let text = std::fs::read_to_string(&located.path)
        .unwrap_or_else(|e| fail(&format!("{}: {e}", located.path.display())));
    let cases = from_str_usv(&text).unwrap_or_else(|e| fail(&format!("{FILE}: {e}")));
    let Some(cases) = cases.as_array() else {
        fail(&format!("{FILE} is not an array of cases"))
    };
    let mut failures = Vec::new();
    for case in cases {
        if let Err(why) = check(case) {
            failures.push(format!(
                "pattern {} inputs {}: {why}",
                case["pattern"], case["inputs"]
            ));
        }
    }
    println!(
        "{FILE} ({}): {} of {} cases pass",
        located.how,
        cases.len() - failures.len(),
        cases.len()
    );
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
