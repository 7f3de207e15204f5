//! The page's readings of the parser differential, judged as the terminal judges them: the
//! verdict line, the Host view's findings and the Parsers view (the inspector's Parsers pane),
//! over the readings the page has.
//!
//! The page reads a URL with the parsers compiled into this module ([`IN_MODULE`]: urlscope's
//! URL Standard parser, rust-url, strict RFC 3986 and the `http` crate, the same crates at the
//! same versions as the command line's) and with its Web Workers (`web/readings.js`: libcurl,
//! Go, Python and urllib3, whatwg-url, …), whose answers are `urlscope diff --json`'s readings.
//! [`readings`] puts them together and asks the library's one decision: [`urlscope::diff::compare`]
//! (which decides where the URL goes, as for `diff`) and [`urlscope::inspect::host::judge`]
//! (the `parser-differential` and `parser-refuses` findings, as for `check`). A parser
//! without a reading here (not answered yet, not loaded, not built into this page, Java's
//! terminal only) is an unavailable reading: never counted as agreeing, and named with why.

use serde::Serialize;
use serde_json::{json, Map, Value};
use urlscope::diff::{self, Answer, Builtin, Comparison, Component, Destination, Verdict};
use urlscope::inspect::host::{asked, rejudge};
use urlscope::report::verdict::Verdict as Line;
use urlscope::report::Report;
use wasm_bindgen::prelude::*;

use crate::base_of;

/// The parsers this module reads with itself, at every keystroke: the command line's built-in
/// parsers but libcurl (C: the page's libcurl is a Web Worker's, compiled with Emscripten).
pub const IN_MODULE: [Builtin; 4] = [
    Builtin::Whatwg,
    Builtin::RustUrl,
    Builtin::Rfc3986,
    Builtin::Http,
];

/// What runs for a parser of this module.
fn implementation(builtin: Builtin) -> &'static str {
    match builtin {
        Builtin::Whatwg => "urlscope's URL Standard parser, in this page's WebAssembly module",
        Builtin::RustUrl => "the url crate (rust-url), in this page's WebAssembly module",
        Builtin::Rfc3986 => {
            "fluent-uri's strict RFC 3986 UriRef, in this page's WebAssembly module"
        }
        Builtin::Http => "the http crate's Uri, in this page's WebAssembly module",
        #[allow(unreachable_patterns)]
        _ => "built into urlscope",
    }
}

/// Where a parser's reading stands on the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum State {
    /// Its answer for this input is in.
    Answered,
    /// Asked; its answer has not come yet.
    Pending,
    /// Its reading loads on demand (Python's 6 MB) and has not been loaded.
    NotLoaded,
    /// Its reading is loading (a worker that has not said it is ready): no answer is awaited
    /// from it yet, so the verdict does not wait for it.
    Loading,
    /// Its reading is not built into this page (the build could not make it, or never did).
    NotBuilt,
    /// Its reading was built but cannot run here (its worker failed or said so).
    Unavailable,
    /// Runs only in the terminal (Java: no JVM runs in a page).
    TerminalOnly,
}

impl State {
    /// The reason a reading is missing, as the finding and the comparison's `error` say it.
    fn words(self, why: Option<&str>) -> String {
        let what = match self {
            State::Answered => "answered",
            State::Pending => "waiting for its answer",
            State::NotLoaded => "not loaded yet",
            State::Loading => "loading",
            State::NotBuilt => "not built into this page",
            State::Unavailable => "unavailable",
            State::TerminalOnly => "terminal only",
        };
        match why.filter(|w| !w.is_empty()) {
            Some(why) if self == State::Unavailable => why.to_owned(),
            Some(why) => format!("{what}: {why}"),
            None => what.to_owned(),
        }
    }
}

/// One parser as the page has it: what runs, its version, and its reading's state.
#[derive(Clone, Debug, Serialize)]
pub struct Parser {
    pub name: String,
    /// What actually runs ("libcurl's URL API, compiled to WebAssembly with Emscripten").
    pub implementation: Option<String>,
    pub version: Option<String>,
    pub state: State,
    /// Why it has no reading, for the states that have one.
    pub why: Option<String>,
    /// Where it runs: "module" (this one), "worker", "terminal".
    pub runs: &'static str,
}

/// One parser as the workers' coordinator describes it (see `web/readings.js`).
#[derive(Debug, Default)]
struct Given {
    name: String,
    implementation: Option<String>,
    version: Option<String>,
    state: Option<State>,
    why: Option<String>,
    answer: Option<Answer>,
}

fn text(value: &Value, key: &str) -> Option<String> {
    match value.get(key) {
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Number(n)) => Some(n.to_string()),
        _ => None,
    }
}

/// An answer as `urlscope diff --json` prints it under `parsers.NAME`; a field missing or of
/// another type is null, as the adapters' protocol reads it.
fn answer_of(value: &Value) -> Answer {
    let flag = |key: &str| value.get(key).and_then(Value::as_bool);
    Answer {
        available: flag("available").unwrap_or(true),
        version: text(value, "version"),
        failure: flag("failure").unwrap_or(false),
        error: text(value, "error"),
        scheme: text(value, "scheme"),
        username: text(value, "username"),
        password: text(value, "password"),
        host: text(value, "host"),
        port: text(value, "port"),
        path: text(value, "path"),
        query: text(value, "query"),
        fragment: text(value, "fragment"),
    }
}

fn state_of(name: &str) -> Option<State> {
    Some(match name {
        "answered" => State::Answered,
        "pending" => State::Pending,
        "not-loaded" => State::NotLoaded,
        "loading" => State::Loading,
        "not-built" => State::NotBuilt,
        "unavailable" => State::Unavailable,
        "terminal-only" => State::TerminalOnly,
        _ => return None,
    })
}

/// The coordinator's JSON: `[{name, implementation, version, state, why, answer}]`. Anything
/// else (not JSON, not a list) is no worker reading: the page's own are judged alone.
fn given(workers: &str) -> Vec<Given> {
    let Ok(Value::Array(items)) = serde_json::from_str::<Value>(workers) else {
        return Vec::new();
    };
    let mut out: Vec<Given> = Vec::new();
    for item in &items {
        let Some(name) = text(item, "name").filter(|n| !n.is_empty()) else {
            continue;
        };
        // The module's own parsers are read here; a second reading of a name is dropped.
        if Builtin::from_name(&name).is_some_and(|b| IN_MODULE.contains(&b))
            || out.iter().any(|g| g.name == name)
        {
            continue;
        }
        let answer = item.get("answer").filter(|a| a.is_object()).map(answer_of);
        let state = match (text(item, "state").as_deref().and_then(state_of), &answer) {
            (_, Some(_)) => Some(State::Answered),
            (Some(State::Answered), None) => Some(State::Pending),
            (state, None) => state,
        };
        out.push(Given {
            version: text(item, "version")
                .or_else(|| answer.as_ref().and_then(|a| a.version.clone())),
            implementation: text(item, "implementation"),
            why: text(item, "why"),
            state,
            answer,
            name,
        });
    }
    out
}

/// Every parser the page shows, in `diff`'s order (the parsers no worker named after them), and
/// each one's answer: the module's read now, the workers' as given, the others unavailable
/// with why.
pub fn panel(
    input: &str,
    base: Option<&str>,
    workers: &str,
) -> (Vec<Parser>, Vec<(String, Answer)>) {
    let mut given = given(workers);
    let mut names: Vec<String> = diff::PARSERS.iter().map(|n| (*n).to_owned()).collect();
    for g in &given {
        if !names.contains(&g.name) {
            names.push(g.name.clone());
        }
    }
    let mut parsers = Vec::new();
    let mut answers = Vec::new();
    for name in names {
        if let Some(builtin) = Builtin::from_name(&name).filter(|b| IN_MODULE.contains(b)) {
            let answer = builtin.read(input, base);
            parsers.push(Parser {
                implementation: Some(implementation(builtin).to_owned()),
                version: Some(builtin.version()),
                state: State::Answered,
                why: None,
                runs: "module",
                name: name.clone(),
            });
            answers.push((name, answer));
            continue;
        }
        let g = match given.iter().position(|g| g.name == name) {
            Some(i) => given.swap_remove(i),
            None if name == "java" => Given {
                implementation: Some("java.net.URI".to_owned()),
                state: Some(State::TerminalOnly),
                why: Some("no JVM runs in a page".to_owned()),
                ..Given::default()
            },
            None => Given {
                state: Some(State::NotBuilt),
                why: Some("this page has no reading of it".to_owned()),
                ..Given::default()
            },
        };
        let state = g.state.unwrap_or(State::Pending);
        let answer = match g.answer {
            Some(answer) => answer,
            None => Answer {
                version: g.version.clone(),
                ..Answer::unavailable(state.words(g.why.as_deref()))
            },
        };
        parsers.push(Parser {
            implementation: g.implementation,
            version: g.version,
            state,
            why: (state != State::Answered).then_some(g.why).flatten(),
            runs: if state == State::TerminalOnly {
                "terminal"
            } else {
                "worker"
            },
            name: name.clone(),
        });
        answers.push((name, answer));
    }
    (parsers, answers)
}

/// A cell of the Parsers table: a component's value and how it compares with `whatwg`'s.
#[derive(Debug, Serialize)]
struct Cell {
    component: Component,
    value: Option<String>,
    /// "≠" where it differs from `whatwg`'s, "≈" where only the spelling differs (the same
    /// destination), else null.
    mark: Option<&'static str>,
}

/// The view's row of one parser.
fn row(parser: &Parser, comparison: &Comparison) -> Value {
    let name = parser.name.as_str();
    let answer = comparison.answer(name);
    let mut row = json!({
        "name": name,
        "implementation": parser.implementation,
        "version": parser.version,
        "state": parser.state,
        "why": parser.why,
        "runs": parser.runs,
    });
    let Some(answer) = answer.filter(|a| a.available) else {
        row["note"] = json!(match answer.and_then(|a| a.error.as_deref()) {
            Some(why) if parser.state == State::Answered => format!("unavailable: {why}"),
            Some(why) => why.to_owned(),
            None => "unavailable".to_owned(),
        });
        return row;
    };
    if answer.failure {
        let marked = comparison.differs_from_reference(name, Component::Failure);
        row["failure"] = json!(true);
        row["error"] = json!(answer.error);
        row["mark"] = json!(marked.then_some("≠"));
        row["note"] = json!(format!(
            "{}fails: {}",
            if marked { "≠ " } else { "" },
            answer.error.as_deref().unwrap_or("")
        ));
    } else {
        let mut cells = Vec::new();
        for component in Component::ALL.into_iter().skip(1) {
            let value = match answer.get(component) {
                diff::Value::Text(t) => t.map(str::to_owned),
                diff::Value::Failure(_) => continue,
            };
            cells.push(Cell {
                component,
                value,
                mark: comparison.mark(name, component).map(diff::Mark::sign),
            });
        }
        row["failure"] = json!(false);
        row["cells"] = json!(cells);
        row["note"] = json!(comparison.marks_note(name));
    }
    // Where this reading goes beside `whatwg`'s: elsewhere (another destination), refused
    // (a failure or no host where others read one: it goes nowhere), or the same.
    let decision = &comparison.decision;
    let ours = comparison.answer("whatwg").and_then(Destination::of);
    let theirs = Destination::of(answer);
    row["destination"] = json!(theirs
        .as_ref()
        .filter(|d| d.host.is_some())
        .map(ToString::to_string));
    let refusal = decision.refused.iter().find(|r| r.parser == name);
    let goes = if refusal.is_some() {
        Some("refused")
    } else if decision.verdict == Verdict::Elsewhere
        && theirs.as_ref().is_some_and(|t| t.host.is_some())
        && ours.as_ref().filter(|o| o.host.is_some()) != theirs.as_ref()
    {
        Some("elsewhere")
    } else if theirs.is_some() && decision.verdict != Verdict::NothingToCompare {
        Some("same")
    } else {
        None
    };
    row["goes"] = json!(goes);
    row["refusal"] = json!(refusal.map(|r| r.describe(true)));
    row
}

/// Everything the page shows of the readings of `input` against `base`: see [`readings`].
pub fn readings_model(input: &str, base: Option<&str>, workers: &str) -> Value {
    let (parsers, answers) = panel(input, base, workers);
    let comparison = diff::compare(input, base, answers);
    let pending: Vec<&str> = parsers
        .iter()
        .filter(|p| p.state == State::Pending)
        .map(|p| p.name.as_str())
        .collect();
    let (line, findings, judged) =
        crate::with_report(input, base, |report| judged(report, &comparison));
    let verdict = line.map(|mut line| {
        // The verdict so far is on the readings that are in: the line says who is still out.
        if !pending.is_empty() {
            line.text
                .push_str(&format!(" · judging… ({} pending)", pending.join(", ")));
        }
        json!({"text": line.text, "worst": line.worst.map(|s| s.to_string())})
    });
    let rows: Vec<Value> = parsers.iter().map(|p| row(p, &comparison)).collect();
    let headline = match comparison.verdict() {
        // With answers still out, "nothing to compare" may only mean "not yet".
        Verdict::NothingToCompare if !pending.is_empty() => "waiting for the readings".to_owned(),
        _ => comparison.headline(),
    };
    json!({
        "verdict": verdict,
        "findings": findings,
        "judged": judged,
        "headline": headline,
        "asked": asked(&comparison),
        "pending": pending,
        "parsers": rows,
        "comparison": comparison.to_json(),
    })
}

/// The verdict line, the host findings (null without a host analysis) and whether the
/// differential was judged, over `comparison`'s readings.
fn judged(report: &Report, comparison: &Comparison) -> (Option<Line>, Option<Value>, bool) {
    let subject = report.subject();
    let mut analysis = report.host_analysis.clone();
    let mut judged = false;
    if let Some(analysis) = analysis.as_mut() {
        rejudge(analysis, &subject, comparison);
        judged = subject.url.is_some_and(|url| url.host_record().is_some())
            && urlscope::inspect::host::judged(&subject, &analysis.host);
    }
    let line = Line::judged(
        report,
        analysis.as_ref(),
        comparison.verdict() == Verdict::Elsewhere,
    );
    let findings = analysis.map(|a| serde_json::to_value(&a.findings).unwrap_or(Value::Null));
    (line, findings, judged)
}

/// The page's readings of `input` against `base` (empty: none), judged: `workers` is the
/// coordinator's JSON list of the workers' parsers, `[{"name", "implementation", "version",
/// "state", "why", "answer"}]`, `state` one of "answered", "pending", "not-loaded",
/// "not-built", "unavailable", "terminal-only", "loading" and `answer` the reading as `urlscope diff
/// --json` prints it under `parsers.NAME`. JSON text:
///
/// - `verdict`: `{"text", "worst"}`, the verdict line (the inspector's, with "· judging… (…
///   pending)" while answers are out), null for the empty input;
/// - `findings`: the host analysis' findings with the differential judged on these readings
///   (what `urlscope check` gives, over the page's readings), null without an analysis;
/// - `judged`: whether the differential was judged (a special URL without a base whose
///   authority is not exactly its host);
/// - `headline`: the Parsers view's verdict in words; `asked`: the parsers read and those
///   without a reading, or null when every parser read it; `pending`: names;
/// - `parsers`: one row per parser in `diff`'s order: `name`, `implementation`, `version`,
///   `state`, `why`, `runs`, and for a reading `failure`, `error`, `cells` (`component`,
///   `value`, `mark`), `note`, `destination`, `goes` ("elsewhere", "refused", "same"),
///   `refusal`;
/// - `comparison`: the object `urlscope diff --json` prints for these readings.
#[wasm_bindgen]
pub fn readings(input: &str, base: Option<String>, workers: &str) -> String {
    readings_model(input, base_of(base.as_deref()), workers).to_string()
}

/// The parsers the page reads in its own module, with what runs and its version: JSON
/// `[{"name", "implementation", "version"}]`.
#[wasm_bindgen(js_name = moduleParsers)]
pub fn module_parsers() -> String {
    let list: Vec<Map<String, Value>> = IN_MODULE
        .iter()
        .map(|b| {
            let mut m = Map::new();
            m.insert("name".into(), b.name().into());
            m.insert("implementation".into(), implementation(*b).into());
            m.insert("version".into(), b.version().into());
            m
        })
        .collect();
    Value::from(list).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use urlscope::report::Parts;

    /// libcurl's URL API's readings of the README's spoofing inputs, as `urlscope diff --json`
    /// prints them (libcurl 7.88 to 8.14 read them alike: the userinfo ends at the last "@",
    /// and a Unicode host is kept as typed).
    fn recorded_curl(input: &str) -> Answer {
        let (user, host) = match input {
            "http://example.com\\@evil.com/" => (Some("example.com\\"), "evil.com"),
            "https://evil.example\\@good.example/" => (Some("evil.example\\"), "good.example"),
            "https://fa\u{df}.de/" => (None, "fa\u{df}.de"),
            _ => unreachable!("no recorded reading of {input:?}"),
        };
        Answer {
            available: true,
            version: Some("8.14.1".into()),
            scheme: Some(input[..input.find(':').unwrap()].into()),
            username: user.map(str::to_owned),
            host: Some(host.into()),
            path: Some("/".into()),
            ..Answer::default()
        }
    }

    const SPOOFS: [&str; 3] = [
        "http://example.com\\@evil.com/",
        "https://evil.example\\@good.example/",
        "https://fa\u{df}.de/",
    ];

    /// The coordinator's list with curl's answer in it.
    fn with_curl(answer: &Answer) -> String {
        json!([{"name": "curl", "implementation": "libcurl's URL API, compiled to WebAssembly",
                "version": answer.version, "state": "answered", "answer": answer}])
        .to_string()
    }

    fn ids(findings: &Value) -> Vec<(String, String)> {
        findings
            .as_array()
            .expect("findings")
            .iter()
            .map(|f| {
                (
                    f["id"].as_str().unwrap_or("").to_owned(),
                    f["severity"].as_str().unwrap_or("").to_owned(),
                )
            })
            .collect()
    }

    /// `urlscope check`'s findings for `input`: the host analysis of an untraced report, as
    /// `check_one` makes it, over the library's built-in parsers.
    fn check(input: &str) -> Vec<(String, String)> {
        let parts = Parts {
            host_analysis: true,
            ..Parts::NONE
        };
        let report = Report::untraced_parts(input, None, encoding_rs::UTF_8, parts);
        let findings = &report.host_analysis.as_ref().expect("an analysis").findings;
        ids(&serde_json::to_value(findings).unwrap())
    }

    #[test]
    fn with_curls_answer_the_pages_verdict_is_checks() {
        // With libcurl linked (the workspace's tests build the library with `native`), check's
        // own built-in reading of curl is given to the page as its worker's answer; without it,
        // libcurl's recorded reading.
        let live = Builtin::from_name("curl");
        for input in SPOOFS {
            let curl = live.map_or_else(|| recorded_curl(input), |b| b.read(input, None));
            let page = readings_model(input, None, &with_curl(&curl));
            let found = ids(&page["findings"]);
            assert!(
                found.contains(&("parser-differential".into(), "danger".into())),
                "{input:?}: {found:?}"
            );
            assert_eq!(page["verdict"]["worst"], "danger", "{input:?}");
            let line = page["verdict"]["text"].as_str().unwrap();
            assert!(
                line.contains("✗ parsers disagree on where it goes"),
                "{line}"
            );
            assert_eq!(page["comparison"]["verdict"], "elsewhere", "{input:?}");
            if live.is_some() {
                assert_eq!(
                    found,
                    check(input),
                    "{input:?}: the page's findings, then check's"
                );
            }
        }
    }

    #[test]
    fn a_parser_without_a_reading_is_named_and_never_agrees() {
        // Nothing from the workers yet: the page's own parsers read it (rfc3986 and http
        // refuse it, whatwg and rust-url go to example.com), curl is awaited, Java is the
        // terminal's.
        let workers = json!([{"name": "curl", "state": "pending"},
                             {"name": "python", "state": "not-loaded", "why": "Load Python"},
                             {"name": "urllib3", "state": "not-loaded", "why": "Load Python"}]);
        let page = readings_model("http://example.com\\@evil.com/", None, &workers.to_string());
        let refuses = page["findings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["id"] == "parser-refuses")
            .expect("parser-refuses over the readings that are in");
        let detail = refuses["detail"].as_str().unwrap();
        assert!(
            detail.contains("(read by whatwg, rust-url, rfc3986, http; without curl: waiting for its answer; python: not loaded yet: Load Python;"),
            "{detail}"
        );
        assert!(detail.contains("java: terminal only"), "{detail}");
        assert!(detail.contains("go: not built into this page"), "{detail}");
        assert_eq!(
            page["headline"],
            "refused by rfc3986, http; whatwg, rust-url agree"
        );
        assert_eq!(page["pending"], json!(["curl"]));
        assert!(page["verdict"]["text"]
            .as_str()
            .unwrap()
            .ends_with(" · judging… (curl pending)"));
        let states: Vec<(&str, &str)> = page["parsers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p["name"].as_str().unwrap(), p["state"].as_str().unwrap()))
            .collect();
        assert_eq!(
            states,
            [
                ("whatwg", "answered"),
                ("rust-url", "answered"),
                ("curl", "pending"),
                ("rfc3986", "answered"),
                ("http", "answered"),
                ("python", "not-loaded"),
                ("urllib3", "not-loaded"),
                ("node", "not-built"),
                ("node-legacy", "not-built"),
                ("java", "terminal-only"),
                ("go", "not-built"),
            ]
        );
        // The comparison is `diff --json`'s, the missing parsers unavailable with why.
        let c = &page["comparison"];
        assert_eq!(c["verdict"], "refused");
        assert_eq!(c["parsers"]["curl"]["available"], false);
        assert_eq!(
            c["parsers"]["java"]["error"],
            "terminal only: no JVM runs in a page"
        );
        // A reading still loading is named, and not waited for.
        let workers = json!([{"name": "python", "state": "loading"}]);
        let loading = readings_model("http://example.com\\@evil.com/", None, &workers.to_string());
        assert_eq!(loading["pending"], json!([]));
        assert_eq!(
            loading["comparison"]["parsers"]["python"]["error"],
            "loading"
        );
    }

    #[test]
    fn the_rows_mark_differences_and_say_where_each_reading_goes() {
        let input = "http://example.com\\@evil.com/";
        let curl = recorded_curl(input);
        let workers = json!([{"name": "curl", "state": "answered", "answer": curl},
                             {"name": "whatwg-url", "implementation": "whatwg-url (npm)", "version": "15.1.0",
                              "state": "answered",
                              "answer": {"available": true, "version": "15.1.0", "failure": false, "error": null,
                                         "scheme": "http", "username": "", "password": "", "host": "example.com",
                                         "port": null, "path": "/@evil.com/", "query": null, "fragment": null}}]);
        let page = readings_model(input, None, &workers.to_string());
        let row = |name: &str| {
            page["parsers"]
                .as_array()
                .unwrap()
                .iter()
                .find(|p| p["name"] == name)
                .cloned()
                .unwrap_or_else(|| panic!("no row for {name}"))
        };
        let curl = row("curl");
        assert_eq!(curl["goes"], "elsewhere");
        assert_eq!(curl["destination"], "evil.com:80");
        let host = curl["cells"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["component"] == "host")
            .unwrap();
        assert_eq!(
            (&host["value"], &host["mark"]),
            (&json!("evil.com"), &json!("≠"))
        );
        assert!(
            curl["note"].as_str().unwrap().contains("host (backslash)"),
            "{curl}"
        );
        assert_eq!(row("http")["goes"], "refused");
        assert_eq!(row("rust-url")["goes"], "same");
        // A parser the terminal does not have is shown after the others, read like them.
        let last = page["parsers"].as_array().unwrap().last().unwrap().clone();
        assert_eq!(last["name"], "whatwg-url");
        assert_eq!(row("whatwg-url")["goes"], "same");
        assert_eq!(row("whatwg-url")["version"], "15.1.0");
        // The rust-url port: null beside curl's null; whatwg's own row has no mark.
        assert!(row("whatwg")["cells"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["mark"].is_null()));
        assert!(page["headline"]
            .as_str()
            .unwrap()
            .starts_with("✗ disagree on where it goes"));
        // The finding names whatwg-url among the readers, and curl among those elsewhere.
        let differential = page["findings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["id"] == "parser-differential")
            .unwrap()["detail"]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(differential.starts_with("this URL goes to \"example.com\" here (WHATWG), but curl reads the host as \"evil.com\""), "{differential}");
        assert!(differential.contains("whatwg-url"), "{differential}");
    }

    #[test]
    fn any_coordinator_text_is_read_without_a_panic() {
        for workers in [
            "",
            "null",
            "{}",
            "[1, {\"name\": 3}, {\"name\": \"curl\", \"answer\": 7}]",
            "[{\"name\": \"whatwg\", \"state\": \"answered\", \"answer\": {\"host\": \"evil\"}}]",
        ] {
            let page = readings_model("https://example.com/", None, workers);
            // The module's own whatwg is never replaced by a worker's.
            let whatwg = &page["comparison"]["parsers"]["whatwg"];
            assert_eq!(whatwg["host"], "example.com", "{workers}");
        }
        let empty = readings_model("", None, "[]");
        assert!(empty["verdict"].is_null());
        // With a base, the readings are compared (diff --base) but no finding is judged.
        let based = readings_model("\\\\evil.com/x", Some("https://example.com/"), "[]");
        assert_eq!(based["judged"], false);
    }
}
