//! Our URL Pattern implementation against the `urlpattern` crate (Deno's) on generated
//! patterns and inputs. Every disagreement must be one of the classes recorded in
//! `tests/data/urlpattern_disagreements.json`, each with the standard's text that decides it;
//! a recorded class that no case shows any more is stale and fails the test.
//!
//! Each recorded class's example is also read by urlpattern-polyfill 10.1.0 in Node, through
//! `assets/parsers/urlpattern.js`, when it is installed (scripts/setup puts it in urlscope's
//! cache; else npm installs it into Cargo's test scratch directory): the file records which
//! side the polyfill takes and its values, and the test checks them. Without node, npm or the
//! package the check says it skipped.
//!
//! Then the report's explanation of a component that does not match, against trying every
//! prefix of its parts.

mod common;

use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use urlscope::diff::adapter::{cache_dir, Adapter, AdapterSpec, Launch, Timeouts};
use urlscope::urlpattern::component::regexp_builtin_exec;
use urlscope::urlpattern::json::answer;
use urlscope::urlpattern::parser::{
    generate_pattern_string, generate_regular_expression_and_name_list,
};
use urlscope::urlpattern::report::input_from_text;
use urlscope::urlpattern::{
    second_reading, Component, InputOutcomeReport, PatternReport, Quoted, UrlPattern,
    UrlPatternOptions, DEFAULT_MATCH_TIME_LIMIT,
};

const DATA: &str = "tests/data/urlpattern_disagreements.json";

/// Pattern pieces combined into constructor strings and URLPatternInit objects.
const PROTOCOLS: &[&str] = &[
    "https", "http", "(https?)", "*", "foo", "data", "HTTP", "ht{tp}?",
];
const HOSTNAMES: &[&str] = &[
    "example.com",
    "*.example.com",
    ":sub.example.com",
    "{:sub.}?example.com",
    "EXAMPLE.com",
    "[::1]",
    "xn--caf-dma.com",
    "café.com",
    "(.*).com",
];
const PATHNAMES: &[&str] = &[
    "/",
    "/books/:id",
    "/books/:id?",
    "/books/{:id}?",
    "/books/:id(\\d+)",
    "/books/*",
    "/books/:rest+",
    "/books/:rest*",
    "/a{/b}?/c",
    "/Books",
    "/a/../b",
    "/%E4%BD%A0",
    "/你好",
    "/(foo|bar)",
    "/:a-:b",
    "/files/*.txt",
];
const SEARCHES: &[&str] = &["", "?q=:q", "?*", "?a=1"];
const INPUTS: &[&str] = &[
    "https://example.com/",
    "https://example.com/books/12",
    "https://example.com/books/abc",
    "https://example.com/books/",
    "https://example.com/books",
    "https://example.com/books/1/2/3",
    "https://www.example.com/books/12?q=x",
    "http://example.com:8080/a/b/c",
    "https://example.com/a/c",
    "https://EXAMPLE.com/BOOKS",
    "https://example.com/books?a=1#h",
    "https://[::1]/books/12",
    "https://xn--caf-dma.com/",
    "https://café.com/files/x.txt",
    "https://example.com/%E4%BD%A0",
    "https://example.com/你好",
    "https://example.com/foo",
    "https://example.com/x-y",
    "foo://example.com/books/12",
    "data:text/plain,hi",
    "not a url",
];

fn cases() -> Vec<Value> {
    let mut cases = Vec::new();
    let mut count = 0usize;
    for protocol in PROTOCOLS {
        for hostname in HOSTNAMES {
            for pathname in PATHNAMES {
                let search =
                    SEARCHES[(protocol.len() + hostname.len() + pathname.len()) % SEARCHES.len()];
                let string = format!("{protocol}://{hostname}{pathname}{search}");
                let init =
                    json!({"protocol": protocol, "hostname": hostname, "pathname": pathname});
                let ignore_case = pathname.len() % 3 == 0;
                for (i, input) in INPUTS.iter().enumerate() {
                    // Each pattern meets a third of the inputs, a different third for each.
                    if !(i + pathname.len() + hostname.len()).is_multiple_of(3) {
                        continue;
                    }
                    let mut pattern = vec![json!(string)];
                    if ignore_case {
                        pattern.push(json!({"ignoreCase": true}));
                    }
                    // A thirteenth of the combinations keeps the test near a minute in a debug
                    // build (every combination: 16,128 cases, 3,514 disagreeing, the same two
                    // classes).
                    count += 1;
                    if count.is_multiple_of(13) {
                        cases.push(json!({"pattern": pattern, "inputs": [input]}));
                        cases.push(json!({"pattern": [init.clone()], "inputs": [input]}));
                    }
                }
            }
        }
    }
    // A non-special pathname with a group, which the subsample may miss.
    cases.push(json!({"pattern": ["foo://example.com/books/:id"], "inputs": ["foo://example.com/books/12"]}));
    cases
}

/// The members the two readings differ in: `error`, `components.X`, `has_regexp_groups`,
/// `test`, `match.X`.
fn differences(ours: &Value, theirs: &Value) -> Vec<String> {
    match (&ours["error"], &theirs["error"]) {
        (Value::String(_), Value::String(_)) => return vec![],
        (Value::Null, Value::Null) => {}
        _ => return vec!["error".to_owned()],
    }
    let mut out = Vec::new();
    for c in [
        "protocol", "username", "password", "hostname", "port", "pathname", "search", "hash",
    ] {
        if ours["components"][c] != theirs["components"][c] {
            out.push(format!("components.{c}"));
        }
    }
    if ours["has_regexp_groups"] != theirs["has_regexp_groups"] {
        out.push("has_regexp_groups".to_owned());
    }
    if ours["test"] != theirs["test"] {
        out.push("test".to_owned());
    } else if ours["test"] == true {
        for c in [
            "protocol", "username", "password", "hostname", "port", "pathname", "search", "hash",
        ] {
            if ours["match"][c] != theirs["match"][c] {
                out.push(format!("match.{c}"));
            }
        }
    }
    out
}

#[test]
fn the_urlpattern_crate_disagrees_only_where_recorded() {
    let mut seen: BTreeMap<String, (usize, Value, Value, Value)> = BTreeMap::new();
    let cases = cases();
    for case in &cases {
        let ours = answer(case).expect("a well-formed case");
        let pattern = case["pattern"].as_array().expect("array");
        let inputs = case["inputs"].as_array().expect("array");
        let theirs = second_reading::answer(pattern, inputs);
        let diff = differences(&ours, &theirs);
        if diff.is_empty() {
            continue;
        }
        let key = diff.join(" ");
        let entry = seen
            .entry(key)
            .or_insert_with(|| (0, case.clone(), ours.clone(), theirs.clone()));
        entry.0 += 1;
    }
    let text = std::fs::read_to_string(DATA).unwrap_or_else(|e| panic!("{DATA}: {e}"));
    let recorded: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{DATA}: {e}"));
    let recorded = recorded.as_array().expect("an array of classes");
    let mut problems = Vec::new();
    for (key, (count, case, ours, theirs)) in &seen {
        if !recorded.iter().any(|r| r["differs"] == json!(key)) {
            problems.push(format!(
                "unrecorded disagreement in {key} ({count} cases), e.g. {case}\n  ours:   {ours}\n  theirs: {theirs}"
            ));
        }
    }
    for r in recorded {
        let key = r["differs"].as_str().unwrap_or_default();
        if !seen.contains_key(key) {
            problems.push(format!(
                "stale: no generated case differs in {key:?} any more"
            ));
        }
        let decided_by = r["decided_by"].as_str().unwrap_or_default();
        assert!(
            !decided_by.is_empty(),
            "{key}: every class says which text of the standard decides it"
        );
    }
    println!(
        "{} generated cases; {} disagree with {}, in {} classes",
        cases.len(),
        seen.values().map(|v| v.0).sum::<usize>(),
        second_reading::VERSION,
        seen.len()
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

const POLYFILL: &str = "urlpattern-polyfill@10.1.0";
const POLYFILL_READER: &str = "urlpattern-polyfill 10.1.0";

/// The npm prefix holding urlpattern-polyfill 10.1.0: urlscope's cache (scripts/setup), else
/// Cargo's test scratch directory, installing it there.
fn polyfill_prefix() -> Result<PathBuf, String> {
    let installed = |prefix: &Path| {
        std::fs::read_to_string(prefix.join("node_modules/urlpattern-polyfill/package.json"))
            .is_ok_and(|t| t.contains("\"version\": \"10.1.0\""))
    };
    let cache = cache_dir().join("npm");
    if installed(&cache) {
        return Ok(cache);
    }
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("urlpattern-npm");
    if installed(&scratch) {
        return Ok(scratch);
    }
    std::fs::create_dir_all(&scratch).map_err(|e| e.to_string())?;
    let status = Command::new("npm")
        .args(["install", "--silent", "--no-audit", "--no-fund", "--prefix"])
        .arg(&scratch)
        .arg(POLYFILL)
        .stdout(Stdio::null())
        .status()
        .map_err(|e| format!("cannot run npm: {e}"))?;
    if !status.success() || !installed(&scratch) {
        return Err(format!("npm install {POLYFILL} failed: {status}"));
    }
    Ok(scratch)
}

/// The members a class differs in, as the polyfill reads them (`components.pathname` →
/// its pathname pattern string, `test` → its test()).
fn values_of(answer: &Value, differs: &str) -> Value {
    differs
        .split(' ')
        .map(|member| {
            let value = match member.split_once('.') {
                Some((object, key)) => answer[object][key].clone(),
                None => answer[member].clone(),
            };
            (member.to_owned(), value)
        })
        .collect::<serde_json::Map<_, _>>()
        .into()
}

/// The polyfill's adapter (`assets/parsers/urlpattern.js polyfill PREFIX`), or why there is
/// none here.
fn polyfill_adapter() -> Result<Adapter, String> {
    let prefix = polyfill_prefix()?;
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/parsers/urlpattern.js");
    let spec = AdapterSpec {
        name: "urlpattern-polyfill".to_owned(),
        launch: Launch::Command {
            program: "node".to_owned(),
            args: vec![
                script.to_string_lossy().into_owned(),
                "polyfill".to_owned(),
                prefix.to_string_lossy().into_owned(),
            ],
        },
    };
    Ok(Adapter::new(spec, Timeouts::default()))
}

#[test]
fn the_polyfill_takes_the_recorded_side_in_each_disagreement() {
    let mut adapter = match polyfill_adapter() {
        Ok(a) => a,
        Err(why) => {
            eprintln!("urlpattern-polyfill: skipped ({why})");
            return;
        }
    };
    let text = std::fs::read_to_string(DATA).unwrap_or_else(|e| panic!("{DATA}: {e}"));
    let recorded: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{DATA}: {e}"));
    let mut problems = Vec::new();
    for class in recorded.as_array().expect("an array of classes") {
        let differs = class["differs"].as_str().unwrap_or_default();
        let case = &class["example"];
        let polyfill = match adapter.exchange(case.clone()) {
            Ok(answer) => answer,
            Err(why) => {
                eprintln!("urlpattern-polyfill: skipped ({why})");
                return;
            }
        };
        assert_eq!(
            adapter.version(),
            Some(POLYFILL_READER),
            "the recorded answers are 10.1.0's"
        );
        let ours = answer(case).expect("a well-formed case");
        let pattern = case["pattern"].as_array().expect("array");
        let inputs = case["inputs"].as_array().expect("array");
        let theirs = second_reading::answer(pattern, inputs);
        let sides_with = match (
            differences(&ours, &polyfill).is_empty(),
            differences(&theirs, &polyfill).is_empty(),
        ) {
            (true, false) => "ours",
            (false, true) => "the urlpattern crate",
            (true, true) => "both",
            (false, false) => "neither",
        };
        let got = json!({"reader": POLYFILL_READER, "sides_with": sides_with,
                         "values": values_of(&polyfill, differs)});
        println!("{differs}: {got}");
        if class["polyfill"] != got {
            problems.push(format!(
                "{differs}: recorded {}, the polyfill now answers {got}",
                class["polyfill"]
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The polyfill is a reading, not the truth: on the web-platform-tests' own cases, every one
/// of which ours passes, it answers 347 of the 369 as we do, the count of cases it was
/// measured passing before this test. Every case gets an answer through the adapter.
#[test]
fn the_polyfill_reads_the_web_platform_tests_cases() {
    let mut adapter = match polyfill_adapter() {
        Ok(a) => a,
        Err(why) => {
            eprintln!("urlpattern-polyfill: skipped ({why})");
            return;
        }
    };
    let source = common::discover().expect("web-platform-tests data");
    let located = source
        .locate("urlpatterntestdata.json")
        .expect("urlpatterntestdata.json");
    let text = std::fs::read_to_string(&located.path).expect("readable");
    let cases = urlscope::urlpattern::json::from_str_usv(&text).expect("JSON");
    let cases = cases.as_array().expect("an array");
    let mut same = 0;
    for case in cases {
        let request = json!({"pattern": case["pattern"], "inputs": case.get("inputs").cloned().unwrap_or(json!([]))});
        let polyfill = match adapter.exchange(request.clone()) {
            Ok(answer) => answer,
            Err(why) => panic!("no answer for {request}: {why}"),
        };
        assert_eq!(adapter.version(), Some(POLYFILL_READER));
        let ours = answer(&request).expect("a well-formed case");
        same += usize::from(differences(&ours, &polyfill).is_empty());
    }
    println!(
        "{POLYFILL_READER} answers {same} of {} cases as we do",
        cases.len()
    );
    assert_eq!((same, cases.len()), (347, 369));
}

/// The explanation of a component that does not match, as trying every prefix of its part list
/// in turn gives it (the report bisects them): the sentence after its first part, or `None`
/// where a prefix does not compile (the report then gives the first part alone).
fn explained_by_every_prefix(component: &Component, value: &str) -> Option<String> {
    let parts = &component.part_list;
    if parts.is_empty() {
        return Some(": the pattern is empty, so only the empty string matches".to_owned());
    }
    let flags = regress::Flags {
        icase: component.options.ignore_case,
        unicode: true,
        unicode_sets: true,
        ..regress::Flags::default()
    };
    let mut matched = Vec::new();
    for k in 1..=parts.len() {
        let (source, _) =
            generate_regular_expression_and_name_list(&parts[..k], &component.options);
        let inner = &source[1..source.len() - 1];
        let regexp = regress::Regex::with_flags(&format!("^({inner})"), flags).ok()?;
        matched
            .push(regexp_builtin_exec(&regexp, value).and_then(|g| g.into_iter().next().flatten()));
    }
    let part_text = |k: usize| generate_pattern_string(&parts[k..=k], &component.options);
    Some(match matched.iter().rposition(Option::is_some) {
        None => format!(
            ": its first part, {}, does not match the start of the value",
            Quoted(&part_text(0))
        ),
        Some(k) if k + 1 == parts.len() => {
            let prefix = matched[k].as_deref().unwrap_or_default();
            format!(
                ": the parts match at most {}, leaving {} unmatched",
                Quoted(prefix),
                Quoted(&value[prefix.len().min(value.len())..])
            )
        }
        Some(k) => format!(
            ": {} matches {}, but no prefix of the value matches once the next part, {}, follows",
            Quoted(&generate_pattern_string(&parts[..=k], &component.options)),
            Quoted(matched[k].as_deref().unwrap_or_default()),
            Quoted(&part_text(k + 1))
        ),
    })
}

/// A case's pattern and input as `urlscope pattern` takes them: (pattern, base, ignoreCase,
/// input, input base), JSON objects as their text. `None` for a case of another shape.
type Typed = (String, Option<String>, bool, String, Option<String>);

fn typed(case: &Value) -> Option<Typed> {
    let text = |v: &Value| match v {
        Value::String(s) => Some(s.clone()),
        Value::Object(_) => Some(v.to_string()),
        _ => None,
    };
    let pattern = case["pattern"].as_array()?;
    let inputs = case["inputs"].as_array()?;
    let (base, ignore_case) = match pattern.get(1..)? {
        [] => (None, false),
        [Value::String(base)] => (Some(base.clone()), false),
        [options @ Value::Object(_)] => (None, options["ignoreCase"] == true),
        [Value::String(base), options] => (Some(base.clone()), options["ignoreCase"] == true),
        _ => return None,
    };
    let input_base = match inputs.get(1) {
        None => None,
        Some(Value::String(base)) => Some(base.clone()),
        Some(_) => return None,
    };
    Some((
        text(pattern.first()?)?,
        base,
        ignore_case,
        text(inputs.first()?)?,
        input_base,
    ))
}

/// Patterns of many parts (fixed text, groups, modifiers, lookarounds, ignoreCase) and inputs
/// that stop anywhere along them.
fn many_part_cases() -> Vec<Value> {
    const PIECES: &[&str] = &[
        "/a",
        "{/b}?",
        "/:c(\\d+)",
        "/d*",
        "/:e+",
        "/:f?",
        "{/g}*",
        "/:h((?=x)x+)",
        "/(i|j)",
        "/*",
        "/k-:l",
        "/M",
    ];
    const SEGMENTS: &[&str] = &[
        "/a", "/b", "/1", "/d", "/dd", "/x", "/xx", "/i", "/k-z", "/m", "/",
    ];
    let mut rng = common::Rng(0x5eed_f9a2_7001);
    let mut cases = Vec::new();
    for _ in 0..400 {
        let pathname: String = (0..2 + rng.below(10))
            .map(|_| PIECES[rng.below(PIECES.len())])
            .collect();
        let input: String = (0..rng.below(12))
            .map(|_| SEGMENTS[rng.below(SEGMENTS.len())])
            .collect();
        let mut pattern = vec![json!(format!("https://e.com{pathname}"))];
        if rng.below(3) == 0 {
            pattern.push(json!({"ignoreCase": true}));
        }
        cases.push(json!({"pattern": pattern, "inputs": [format!("https://e.com{input}")]}));
    }
    cases
}

/// The report explains the first component that does not match by bisecting its part list for
/// the longest prefix that matches the start of the value (src/urlpattern/report.rs); trying
/// every prefix gives the same sentence, on the generated cases, the web-platform-tests' and
/// patterns of many parts.
#[test]
fn a_failures_explanation_is_the_one_every_prefix_gives() {
    let mut cases = cases();
    cases.extend(many_part_cases());
    let wpt = common::discover()
        .ok()
        .and_then(|source| source.locate("urlpatterntestdata.json"))
        .and_then(|located| std::fs::read_to_string(located.path).ok())
        .expect("the web-platform-tests' urlpatterntestdata.json");
    let wpt = urlscope::urlpattern::json::from_str_usv(&wpt).expect("JSON");
    cases.extend(wpt.as_array().expect("an array").iter().cloned());
    let (mut explained, mut bare) = (0, 0);
    for case in &cases {
        let Some((pattern, base, ignore_case, input, input_base)) = typed(case) else {
            continue;
        };
        let report = PatternReport::build(
            &pattern,
            base.as_deref(),
            ignore_case,
            Some(&input),
            input_base.as_deref(),
            DEFAULT_MATCH_TIME_LIMIT,
        );
        let Some(InputOutcomeReport::Matched {
            components,
            first_failure: Some(failed),
        }) = report.input.map(|i| i.outcome)
        else {
            continue;
        };
        let url_pattern = UrlPattern::new(
            &input_from_text(&pattern).expect("readable"),
            base.as_deref(),
            UrlPatternOptions { ignore_case },
        )
        .expect("compiles: the report matched it");
        let component = url_pattern.component(failed);
        let value = &components[failed as usize].value;
        let first = format!(
            "the {failed} {} does not match {} (/{}/{})",
            Quoted(value),
            Quoted(&component.pattern_string),
            component.regular_expression_string,
            component.flags
        );
        let why = components[failed as usize]
            .why
            .as_deref()
            .expect("a reason");
        match explained_by_every_prefix(component, value) {
            Some(rest) => {
                assert_eq!(why, format!("{first}{rest}"), "{case}");
                explained += 1;
            }
            None => {
                assert!(why.starts_with(&first), "{case}: {why}");
                bare += 1;
            }
        }
    }
    println!(
        "{} cases: {explained} failures explained as every prefix explains them, {bare} where \
         a prefix does not compile",
        cases.len()
    );
    assert!(explained > 500, "{explained}");
}
