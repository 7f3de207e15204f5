//! The explanation table against the parser and the standard: every step the parser can cite
//! (`spec!` in src/url/parser.rs) has an explanation, every explanation is for a step the parser
//! cites, and every cited number is a step of that state's algorithm in the standard's text. The
//! same for the host parser's sub-steps (`HostEvent`), reached by a list of hosts, and for the
//! URL API setters' own steps that decide without the parser (`SETTER_STEPS`).

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use urlscope::trace::{ChangeView, HostEvent, Recorder};
use urlscope::url::explain::{self, HostAlgorithm, HostStep, Section};
use urlscope::url::Component;
use urlscope::url::{Phase, State};
use urlscope::Report;
use urlscope::Url;

/// Every citation in the parser's source: the section it is in, its number and its words.
fn citations() -> Vec<(Section, String, String)> {
    let source = include_str!("../src/url/parser.rs");
    // Where each section starts: the basic URL parser's own function, and each state's
    // function, whose doc comment names the state as the standard does.
    let mut sections: Vec<(usize, Section)> = Vec::new();
    let mut offset = 0;
    for line in source.split_inclusive('\n') {
        if line.contains("fn basic_parse") {
            sections.push((offset, Section::BasicUrlParser));
        } else if let Some(rest) = line.trim().strip_prefix("/// URL Standard: ") {
            let name = rest.trim_end_matches('.');
            let name = name.strip_suffix(" and hostname state").unwrap_or(name);
            if let Some(state) = State::from_name(name) {
                sections.push((offset, Section::State(state)));
            }
        }
        offset += line.len();
    }
    let mut found = Vec::new();
    for marker in ["spec!(", "spec_step("] {
        for (at, _) in source.match_indices(marker) {
            let rest = source[at + marker.len()..].trim_start();
            let rest = rest.strip_prefix("self,").unwrap_or(rest).trim_start();
            let Some(literal) = rest.strip_prefix('"') else {
                continue; // the macro's definition, or the trait's
            };
            let mut text = String::new();
            let mut chars = literal.chars();
            while let Some(c) = chars.next() {
                match c {
                    '\\' => text.extend(chars.next()),
                    '"' => break,
                    c => text.push(c),
                }
            }
            let section = sections
                .iter()
                .rev()
                .find(|(start, _)| *start < at)
                .map(|(_, section)| *section)
                .unwrap_or_else(|| panic!("citation {text:?} outside any state's function"));
            let (number, words) = text.split_once(':').expect("a citation has a number");
            found.push((section, number.trim().to_owned(), words.trim().to_owned()));
        }
    }
    found
}

#[test]
fn the_parser_cites_steps_of_every_state() {
    let cited: BTreeSet<String> = citations()
        .iter()
        .map(|(section, ..)| section.name().to_owned())
        .collect();
    for state in State::ALL {
        let section = Section::of(Phase::State(*state));
        assert!(
            cited.contains(section.name()),
            "no citation found in the {} (the source scan is broken?)",
            section.name()
        );
    }
    assert!(citations().len() > 100, "{} citations", citations().len());
}

#[test]
fn every_citation_has_an_explanation() {
    let missing: Vec<String> = citations()
        .into_iter()
        .filter(|(section, number, _)| explain::explanation(*section, number).is_none())
        .map(|(section, number, words)| format!("{} {number}: {words}", section.name()))
        .collect();
    assert!(
        missing.is_empty(),
        "citations without an explanation:\n{}",
        missing.join("\n")
    );
}

#[test]
fn no_explanation_is_orphaned() {
    let cited: BTreeSet<(String, String)> = citations()
        .into_iter()
        .map(|(section, number, _)| (section.name().to_owned(), number))
        .collect();
    // The host sub-steps' entries are checked against the hosts that reach them, below.
    let orphans: Vec<String> = explain::ALL
        .iter()
        .filter(|(section, number, _)| {
            !matches!(section, Section::Host(_))
                && !cited.contains(&(section.name().to_owned(), (*number).to_owned()))
        })
        .map(|(section, number, _)| format!("{} {number}", section.name()))
        .collect();
    assert!(
        orphans.is_empty(),
        "explanations for steps the parser never cites:\n{}",
        orphans.join("\n")
    );
    let mut seen = BTreeSet::new();
    for (section, number, text) in explain::ALL {
        assert!(
            seen.insert((section.name(), *number)),
            "two explanations for {} {number}",
            section.name()
        );
        assert!(!text.trim().is_empty(), "{} {number}", section.name());
    }
}

// --- the standard's text ---------------------------------------------------------------------

fn spec_text() -> Option<String> {
    let path = std::env::var_os("URLSCOPE_SPEC")
        .map(PathBuf::from)
        .unwrap_or_else(|| common::manifest_dir().join("../shared/spec/url.bs"));
    match std::fs::read_to_string(&path) {
        // Without its comments, which are notes to the standard's editors, not steps.
        Ok(text) => Some(without_comments(&text)),
        Err(_) => {
            eprintln!(
                "{} not found: the step numbers are not checked",
                path.display()
            );
            None
        }
    }
}

fn without_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("<!--") {
        out.push_str(&rest[..at]);
        rest = rest[at..]
            .find("-->")
            .map_or("", |end| &rest[at + end + 3..]);
    }
    out.push_str(rest);
    out
}

/// The step numbers of the first ordered list after `from` in the standard's Bikeshed source:
/// `<li>`s of nested `<ol>`s, numbered as the standard renders them. Unordered lists (the
/// "one of the following is true" conditions) and nested `<dl>`s (the basic URL parser's
/// state machine, inside its step 9) do not number steps.
fn step_numbers(text: &str, from: usize) -> BTreeSet<String> {
    step_texts(text, from).into_keys().collect()
}

/// Each step of the first ordered list after `from`, numbered as [`step_numbers`] numbers it,
/// with its own text: from its `<li>` to its first sub-step (its sub-steps' texts are theirs),
/// with the conditions of an unordered list kept, markup kept, and white space collapsed.
fn step_texts(text: &str, from: usize) -> BTreeMap<String, String> {
    enum List {
        Ordered(usize),
        Other,
    }
    let start = from + text[from..].find("<ol").expect("an ordered list");
    let mut stack: Vec<List> = Vec::new();
    let mut texts: BTreeMap<String, String> = BTreeMap::new();
    // The step whose own text is being read.
    let mut current: Option<String> = None;
    let mut rest = &text[start..];
    let is_tag = |s: &str, name: &str| {
        s.strip_prefix(name)
            .is_some_and(|after| after.starts_with('>') || after.starts_with(' '))
    };
    while let Some(at) = rest.find('<') {
        let numbering = !stack.iter().any(|l| matches!(l, List::Other));
        if let Some(step) = &current {
            texts.entry(step.clone()).or_default().push_str(&rest[..at]);
        }
        rest = &rest[at..];
        if is_tag(rest, "<ol") {
            stack.push(List::Ordered(0));
            if numbering {
                current = None;
            }
        } else if is_tag(rest, "<ul") || is_tag(rest, "<dl") {
            stack.push(List::Other);
        } else if rest.starts_with("</ol>")
            || rest.starts_with("</ul>")
            || rest.starts_with("</dl>")
        {
            stack.pop();
            if stack.is_empty() {
                break;
            }
            if rest.starts_with("</ol>") && numbering {
                current = None;
            }
        } else if is_tag(rest, "<li") && numbering {
            if let Some(List::Ordered(n)) = stack.last_mut() {
                *n += 1;
            }
            let number: Vec<String> = stack
                .iter()
                .map(|l| match l {
                    List::Ordered(n) => n.to_string(),
                    List::Other => String::new(),
                })
                .collect();
            let number = number.join(".");
            texts.insert(number.clone(), String::new());
            current = Some(number);
        }
        let end = rest.find('>').map_or(rest.len(), |end| end + 1);
        if let Some(step) = &current {
            texts
                .entry(step.clone())
                .or_default()
                .push_str(&rest[..end]);
        }
        rest = &rest[end..];
    }
    for own in texts.values_mut() {
        *own = own.split_whitespace().collect::<Vec<_>>().join(" ");
    }
    texts
}

/// Where `section` is defined in the standard's source: its explicit `id`, or the `<dfn>` of
/// its name when Bikeshed makes the anchor from the term (the ends in a number checker).
fn definition(text: &str, section: Section) -> usize {
    if let Some(at) = text.find(&format!("id={}", section.anchor())) {
        return at;
    }
    let dfn = format!("<dfn>{}</dfn>", section.name());
    let at = text
        .find(&dfn)
        .unwrap_or_else(|| panic!("{} not in the standard", section.anchor()));
    // Bikeshed's id for a term: lowercased, spaces as hyphens.
    let made = section.name().to_lowercase().replace(' ', "-");
    assert_eq!(made, section.anchor(), "the anchor Bikeshed makes of {dfn}");
    at
}

fn section_steps(text: &str) -> BTreeMap<&'static str, BTreeSet<String>> {
    let mut sections = vec![Section::BasicUrlParser];
    sections.extend(State::ALL.iter().map(|s| Section::of(Phase::State(*s))));
    sections.extend(HostAlgorithm::ALL.iter().map(|a| Section::Host(*a)));
    sections
        .into_iter()
        .map(|section| {
            let from = definition(text, section);
            (section.name(), step_numbers(text, from))
        })
        .collect()
}

#[test]
fn the_step_reader_numbers_the_authority_state_as_the_standard_does() {
    let Some(text) = spec_text() else { return };
    let steps = &section_steps(&text)["authority state"];
    let expected = [
        "1", "1.1", "1.2", "1.3", "1.4", "1.4.1", "1.4.2", "1.4.3", "1.4.4", "1.5", "2", "2.1",
        "2.2", "3",
    ];
    assert_eq!(
        steps.iter().map(String::as_str).collect::<Vec<_>>(),
        expected
    );
}

#[test]
fn every_cited_step_is_a_step_of_its_state_in_the_standard() {
    let Some(text) = spec_text() else { return };
    let steps = section_steps(&text);
    let mut wrong = Vec::new();
    for (section, number, words) in citations() {
        let known = &steps[section.name()];
        // "1-2" cites two steps taken together.
        for part in number.split('-') {
            if !known.contains(part) {
                wrong.push(format!(
                    "{} has no step {part} (cited as {number}: {words}); it has {known:?}",
                    section.name()
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Each setter step explained is a step of that setter's algorithm in the standard, and the
/// step the explanation names is right in the other direction too: in the standard's text it
/// returns, or sets the component, without basic URL parsing.
#[test]
fn every_setter_step_is_a_step_of_its_setter_in_the_standard() {
    let Some(text) = spec_text() else { return };
    let mut wrong = Vec::new();
    for (setter, number, _) in explain::SETTER_STEPS {
        let name = setter.name();
        let from = text
            .find(&format!("<div algorithm=\"{name}\">"))
            .unwrap_or_else(|| panic!("no {name} in the standard"));
        let steps = step_numbers(&text, from);
        if !steps.contains(*number) {
            wrong.push(format!("{name} has no step {number}; it has {steps:?}"));
            continue;
        }
        // The step's own text: from its <li> to the next.
        let list = from + text[from..].find("<ol").expect("a list");
        let step = text[list..]
            .split("<li>")
            .nth(number.parse::<usize>().expect("a top-level step"))
            .unwrap_or_default();
        let step = step.to_lowercase();
        if !(step.contains("return") || step.contains("set ")) || step.contains("basic url parse") {
            wrong.push(format!(
                "{name} step {number} neither returns nor sets: {step}"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The setter step the explanations name is the one the URL API takes: a setter that does not
/// run the basic URL parser records no step, and is named with the step that decided; one that
/// returns ("does nothing") leaves the href as it was. Every entry of the table is reached.
#[test]
fn the_setter_step_named_is_the_one_the_api_takes() {
    use urlscope::url::explain::{Setter, SetterStep};
    let urls = [
        "https://user:pw@example.com:8080/a/b?q=1#f",
        "file:///C:/x",
        "file://host/x",
        "mailto:someone@example.org",
        "data:text/plain,hi",
        "sc:/a/b",
        "sc://h/a",
        "http://example.com/",
    ];
    let values = ["", "x", "8080", "?a", "#b", "other.example"];
    let mut reached = BTreeSet::new();
    let mut wrong = Vec::new();
    for url in urls {
        let parsed = Url::parse(url, None).expect("parses");
        for component in Component::ALL {
            for value in values {
                let mut edited = parsed.clone();
                let mut recorder = Recorder::new();
                let _ = edited.set(component, value, &mut recorder);
                let trace = recorder.finish(value, parsed.record().clone());
                let decided = Setter::of(component)
                    .and_then(|setter| SetterStep::deciding(setter, value, parsed.record()));
                let case = format!("{url} {}={value:?}", component.name());
                match decided {
                    Some(step) => {
                        reached.insert((step.setter.name(), step.number));
                        if !trace.is_empty() {
                            wrong.push(format!(
                                "{case}: named {} {}, but the parser ran",
                                step.setter.name(),
                                step.number
                            ));
                        }
                        if step.explanation.contains("does nothing")
                            && edited.href() != parsed.href()
                        {
                            wrong.push(format!(
                                "{case}: {} {} does nothing, but the href became {}",
                                step.setter.name(),
                                step.number,
                                edited.href()
                            ));
                        }
                    }
                    None if trace.is_empty() => {
                        wrong.push(format!(
                            "{case}: the parser did not run, and no setter step is named"
                        ));
                    }
                    None => {}
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    let unreached: Vec<String> = explain::SETTER_STEPS
        .iter()
        .filter(|(setter, number, _)| !reached.contains(&(setter.name(), *number)))
        .map(|(setter, number, _)| format!("{} {number}", setter.name()))
        .collect();
    assert!(unreached.is_empty(), "never reached: {unreached:?}");
}

// --- traces ----------------------------------------------------------------------------------

/// Every step of a trace carries at least one cited step, and each has an explanation.
fn assert_explained(input: &str, base: Option<&str>) {
    let report = Report::new(input, base);
    let Some(trace) = report.trace.as_ref() else {
        return;
    };
    for index in 0..trace.len() {
        let view = trace.view(index);
        assert!(
            !view.spec_steps.is_empty(),
            "{input:?} against {base:?}: step {index} ({}) cites no step",
            view.phase
        );
        for citation in &view.spec_steps {
            let step = explain::SpecStep::new(view.phase, citation);
            assert!(
                step.explanation.is_some_and(|e| !e.is_empty()),
                "{input:?}: step {index} ({}) cites {citation:?} without an explanation",
                view.phase
            );
        }
    }
}

#[test]
fn every_step_of_the_conformance_inputs_is_explained() {
    let mut count = 0;
    for (input, base) in conformance_inputs() {
        let (input, base) = (input.as_str(), base.as_deref());
        assert_explained(input, base);
        count += 1;
    }
    assert!(count > 500, "{count} inputs");
}

// --- the deciding step against what the step did ---------------------------------------------

/// Each state's steps with their own texts (see [`step_texts`]), by the state's name.
fn state_step_texts(text: &str) -> BTreeMap<&'static str, BTreeMap<String, String>> {
    let mut sections = vec![Section::BasicUrlParser];
    sections.extend(State::ALL.iter().map(|s| Section::of(Phase::State(*s))));
    sections
        .into_iter()
        .map(|section| (section.name(), step_texts(text, definition(text, section))))
        .collect()
}

/// The states a step's own text sets: `X` of each "<var>state</var> to <a>X</a>".
fn states_set(own: &str) -> Vec<&str> {
    own.match_indices("<var>state</var> to <a>")
        .filter_map(|(at, found)| {
            let name = &own[at + found.len()..];
            name.find("</a>").map(|end| &name[..end])
        })
        .collect()
}

/// What a step's own text says it ends with: "return failure", or a "return" on its own.
fn returns(own: &str) -> (bool, bool) {
    let lower = own.to_lowercase();
    let failure = lower.contains("return failure");
    let plain = lower.replace("return failure", "").contains("return");
    (failure, plain)
}

/// Where a traced run of the basic URL parser went wrong against the standard's text: for
/// each step, the last step it cited (the one `spec.step` reports and the strip shows) must be
/// one whose own text does what the step did. A step whose state differs from the next step's
/// was decided by a step that sets the state to that next state; the last step of a failed
/// run, by one that returns failure; the last step of a setter that stopped before the input's
/// end, by one that returns. And the other way: a deciding step that sets the state, returns
/// failure or returns, did so. Each validation error the state raises, and each record field
/// it edits, is named by a step the step cited.
fn deciding_steps_wrong(
    trace: &urlscope::trace::Trace,
    texts: &BTreeMap<&'static str, BTreeMap<String, String>>,
    case: &str,
) -> Vec<String> {
    let mut wrong = Vec::new();
    let last = trace.len().saturating_sub(1);
    for index in 0..trace.len() {
        let view = trace.view(index);
        let Phase::State(state) = view.phase else {
            continue;
        };
        let section = Section::of(view.phase).name();
        let steps = &texts[section];
        let Some(spec) = view.spec() else {
            wrong.push(format!("{case}: step {index} ({section}) cites no step"));
            continue;
        };
        let own: String = spec
            .number
            .split('-')
            .filter_map(|part| steps.get(part).map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ");
        let mut said = |what: String| {
            wrong.push(format!(
                "{case}: step {index} ({section}, c {:?}) decided by {} ({:?}): {what}\n    its text: {own}",
                view.c, spec.number, spec.words
            ));
        };
        let set = states_set(&own);
        let (fails, returns) = returns(&own);
        let failed_here = index == last && trace.failed();
        let ended_here = index == last && !trace.failed();
        match view.next {
            Some(next) if next != Phase::State(state) && !set.contains(&next.name()) => {
                said(format!(
                    "the next step is in the {}, which it does not set",
                    next.name()
                ));
            }
            _ => {}
        }
        for named in &set {
            if view.next.map(Phase::name) != Some(*named) && !(ended_here && returns) {
                said(format!(
                    "it sets the {named}, but the next step is in {:?}",
                    view.next
                ));
            }
        }
        if failed_here && !fails {
            said("the parser returned failure here, and the step does not".to_owned());
        }
        if fails && !failed_here {
            said("the step returns failure, and the parser did not".to_owned());
        }
        if returns && !ended_here {
            said("the step returns, and the parser went on".to_owned());
        }
        // A state override's run can return before the input's end; only a return does that.
        if ended_here && view.c.is_some() && !returns {
            said("the parser returned before the input's end, and the step does not".to_owned());
        }
        // What the step did, named by one of the steps it cited.
        let cited: Vec<String> = view
            .spec_steps
            .iter()
            .flat_map(|citation| {
                let (number, _) = explain::split_citation(citation);
                number
                    .split('-')
                    .filter_map(|part| steps.get(part).map(|t| t.to_lowercase()))
                    .collect::<Vec<_>>()
            })
            .collect();
        let algorithm = steps.values().map(|t| t.to_lowercase()).collect::<String>();
        for error in &view.errors {
            // The host parser's errors are its own steps' (checked above, by host sub-step).
            let name = format!(">{}<", error.kind.name().to_lowercase());
            if algorithm.contains(&name) && !cited.iter().any(|t| t.contains(&name)) {
                said(format!(
                    "{} is raised by a step it does not cite",
                    error.kind
                ));
            }
        }
        for change in &view.changes {
            let field = match change {
                ChangeView::Set { field, .. } | ChangeView::Append { field, .. } => *field,
                ChangeView::PathPush { .. } | ChangeView::PathShorten => "path",
            };
            let named = format!("<a for=url>{field}</a>");
            if !cited.iter().any(|t| t.contains(&named)) {
                said(format!("{change} is done by a step it does not cite"));
            }
        }
    }
    wrong
}

/// The port state's "2.3", which sets the path start state, was once never cited: the trace of
/// "http://h:8080/" named "2.1.3" (set url's port) as the step that left the port state.
#[test]
fn the_port_state_cites_the_step_that_leaves_it() {
    let report = Report::new("http://h:8080/", None);
    let trace = report.trace.as_ref().expect("a trace");
    let (index, view) = (0..trace.len())
        .map(|i| (i, trace.view(i)))
        .find(|(_, v)| v.phase == Phase::State(State::Port) && v.c == Some('/'))
        .expect("the port state reads \"/\"");
    let spec = view.spec().expect("a step");
    assert_eq!(
        (spec.number, view.next),
        ("2.3", Some(Phase::State(State::PathStart))),
        "step {index}: {:?}",
        view.spec_steps
    );
    let Some(text) = spec_text() else { return };
    let wrong = deciding_steps_wrong(trace, &state_step_texts(&text), "http://h:8080/");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn every_deciding_step_does_what_its_step_did() {
    let Some(text) = spec_text() else { return };
    let texts = state_step_texts(&text);
    let mut wrong = Vec::new();
    let mut count = 0;
    for (input, base) in conformance_inputs() {
        let report = Report::new(&input, base.as_deref());
        let Some(trace) = report.trace.as_ref() else {
            continue;
        };
        let case = format!("{input:?} against {base:?}");
        wrong.extend(deciding_steps_wrong(trace, &texts, &case));
        count += trace.len();
    }
    // The setters' runs, with a state override.
    for (href, component, value) in setter_cases() {
        let Ok(parsed) = Url::parse(&href, None) else {
            continue;
        };
        let mut edited = parsed.clone();
        let mut recorder = Recorder::new();
        let _ = edited.set(component, &value, &mut recorder);
        let trace = recorder.finish(&value, parsed.record().clone());
        let case = format!("{href:?} {}={value:?}", component.name());
        wrong.extend(deciding_steps_wrong(&trace, &texts, &case));
        count += trace.len();
    }
    assert!(count > 10_000, "{count} steps");
    assert!(
        wrong.is_empty(),
        "{} steps decided by a step that does not say what they did:\n{}",
        wrong.len(),
        wrong
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// The cases of the web-platform-tests' setters_tests.json: the URL, the setter and its value.
fn setter_cases() -> Vec<(String, Component, String)> {
    let source = common::discover().expect("web-platform-tests data");
    let located = source
        .locate("setters_tests.json")
        .expect("setters_tests.json");
    let data = common::read_json(&located.path).expect("setters_tests.json parses");
    let mut cases = Vec::new();
    for (name, list) in data.as_object().expect("an object") {
        let Some(component) = Component::ALL.iter().find(|c| c.name() == name) else {
            continue; // "comment"
        };
        for case in list.as_array().into_iter().flatten() {
            if let (Some(href), Some(value)) = (case["href"].as_str(), case["new_value"].as_str()) {
                cases.push((href.to_owned(), *component, value.to_owned()));
            }
        }
    }
    assert!(cases.len() > 200, "{} setter cases", cases.len());
    cases
}

// --- host parsing sub-steps -------------------------------------------------------------------

/// Hosts that reach every host sub-step the trace records and every step it cites: IPv6 (with
/// compression and an IPv4 address inside), IPv4 in radixes 10, 16 and 8, opaque hosts, IDN,
/// percent-encoded hosts, and each way the host parser can fail.
const HOSTS: &[&str] = &[
    // Domains: ASCII, IDN, percent-encoded, strict ToASCII rejecting, failures.
    "http://Example.COM/",
    "http://Bücher.de/",
    "http://ex%41mple.com/",
    "http://a_b.com/",
    "http://xn--a.ß/",
    "http://\u{AD}/",
    "http://a%3Cb/",
    // IPv4.
    "http://0x7f.1/",
    "http://0177.0.0.1/",
    "http://192.168.0.1/",
    "http://0x/",
    "http://1.0x1/",
    "http://1.2.3.4.5/",
    "http://test.42/",
    "http://1..2/",
    "http://08.1/",
    "http://1.256.3.4/",
    "http://4294967296/",
    // IPv6.
    "http://[::1]/",
    "http://[1::2]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[1:2:3:4:5:6:7:8]/",
    "http://[::1/",
    "http://[:1]/",
    "http://[1:2:3:4:5:6:7:8:9]/",
    "http://[1::2::3]/",
    "http://[::.1]/",
    "http://[1:2:3:4:5:6:7:1.2.3.4]/",
    "http://[::1.2.3.4.5]/",
    "http://[::1..2]/",
    "http://[::a.1.2.3]/",
    "http://[::01.2.3.4]/",
    "http://[::256.0.0.1]/",
    "http://[::1.2.3]/",
    "http://[1:]/",
    "http://[1x]/",
    "http://[1:2:3]/",
    // Opaque hosts.
    "foo://Héllo/",
    "foo://a<b/",
];

/// The event's kind, as `trace --json` names it. A match without a wildcard, so that a new kind
/// of event fails to compile here until it is listed in `KINDS`.
fn kind(event: &HostEvent) -> &'static str {
    match event {
        HostEvent::Ipv6Input { .. } => "ipv6-input",
        HostEvent::OpaqueHost { .. } => "opaque-host",
        HostEvent::PercentDecoded { .. } => "percent-decoded",
        HostEvent::DomainToAscii { .. } => "domain-to-ascii",
        HostEvent::AsciiLowercase { .. } => "ascii-lowercase",
        HostEvent::IdnaLabel { .. } => "idna-label",
        HostEvent::EndsInANumber { .. } => "ends-in-a-number",
        HostEvent::Ipv4Part { .. } => "ipv4-part",
        HostEvent::Ipv4Address { .. } => "ipv4-address",
        HostEvent::Ipv6Piece { .. } => "ipv6-piece",
        HostEvent::Ipv6Compress { .. } => "ipv6-compress",
        HostEvent::Ipv4InIpv6Part { .. } => "ipv4-in-ipv6-part",
        HostEvent::Ipv6Swap { .. } => "ipv6-swap",
        HostEvent::Ipv6Address { .. } => "ipv6-address",
        HostEvent::Failure => "failure",
    }
}

const KINDS: &[&str] = &[
    "ipv6-input",
    "opaque-host",
    "percent-decoded",
    "domain-to-ascii",
    "ascii-lowercase",
    "idna-label",
    "ends-in-a-number",
    "ipv4-part",
    "ipv4-address",
    "ipv6-piece",
    "ipv6-compress",
    "ipv4-in-ipv6-part",
    "ipv6-swap",
    "ipv6-address",
    "failure",
];

/// Every host sub-step of `input`'s trace with the step it took; panics on one without.
fn host_steps_of(input: &str, base: Option<&str>) -> Vec<(HostEvent, HostStep)> {
    let report = Report::new(input, base);
    let Some(trace) = report.trace.as_ref() else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for index in 0..trace.len() {
        let view = trace.view(index);
        let steps = view.host_steps(trace.input());
        assert_eq!(steps.len(), view.host_events.len());
        for (event, step) in view.host_events.iter().zip(steps) {
            let step = step.unwrap_or_else(|| {
                panic!("{input:?} against {base:?}: {event:?} takes no step it can name")
            });
            assert!(
                !step.explanation.trim().is_empty(),
                "{input:?}: {event:?}: {:?}",
                step.explanation
            );
            // Every name the entry leaves to the event's data is filled in.
            let entry = explain::explanation(Section::Host(step.algorithm), step.number);
            for name in explain::placeholders(entry.expect("an entry")) {
                assert!(
                    !step.explanation.contains(&format!("{{{name}}}")),
                    "{input:?}: {event:?}: {name} is not filled in: {:?}",
                    step.explanation
                );
            }
            found.push(((*event).clone(), step));
        }
    }
    found
}

#[test]
fn every_host_sub_step_is_explained_and_every_host_explanation_is_reached() {
    let mut kinds = BTreeSet::new();
    let mut reached = BTreeSet::new();
    for input in HOSTS {
        for (event, step) in host_steps_of(input, None) {
            kinds.insert(kind(&event));
            reached.insert((step.name(), step.number));
        }
    }
    let missing: Vec<&&str> = KINDS.iter().filter(|k| !kinds.contains(**k)).collect();
    assert!(missing.is_empty(), "no host reaches {missing:?}");
    let entries: BTreeSet<(&str, &str)> = explain::ALL
        .iter()
        .filter(|(section, ..)| matches!(section, Section::Host(_)))
        .map(|(section, number, _)| (section.name(), *number))
        .collect();
    let orphans: Vec<_> = entries.difference(&reached).collect();
    assert!(
        orphans.is_empty(),
        "host explanations no host reaches: {orphans:?}"
    );
    // A step without an entry has no step (host_steps_of panics), so this holds too.
    assert!(reached.is_subset(&entries));
}

#[test]
fn every_host_sub_step_of_the_conformance_inputs_is_explained() {
    let mut count = 0;
    for (input, base) in conformance_inputs() {
        let (input, base) = (input.as_str(), base.as_deref());
        count += host_steps_of(input, base).len();
    }
    assert!(count > 1000, "{count} host sub-steps");
}

#[test]
fn every_host_step_cited_is_a_step_of_its_algorithm_in_the_standard() {
    let Some(text) = spec_text() else { return };
    let steps = section_steps(&text);
    let mut wrong = Vec::new();
    let mut cited = BTreeSet::new();
    for input in HOSTS {
        for (_, step) in host_steps_of(input, None) {
            cited.insert((step.name(), step.number));
        }
    }
    // Every entry too, which the test above ties to the steps cited.
    for (section, number, _) in explain::ALL {
        if matches!(section, Section::Host(_)) {
            cited.insert((section.name(), number));
        }
    }
    for (name, number) in cited {
        if !steps[name].contains(number) {
            wrong.push(format!(
                "the {name} has no step {number}; it has {:?}",
                steps[name]
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_step_reader_numbers_the_ipv4_number_parser_as_the_standard_does() {
    let Some(text) = spec_text() else { return };
    let steps = &section_steps(&text)["IPv4 number parser"];
    let expected = [
        "1", "2", "3", "4", "4.1", "4.2", "4.3", "5", "5.1", "5.2", "5.3", "6", "7", "8", "9",
    ];
    assert_eq!(
        steps.iter().map(String::as_str).collect::<Vec<_>>(),
        expected
    );
}

/// The step a host event of `input` took, the `n`th of that kind.
fn host_step(input: &str, event_kind: &str, n: usize) -> HostStep {
    host_steps_of(input, None)
        .into_iter()
        .filter(|(event, _)| kind(event) == event_kind)
        .nth(n)
        .unwrap_or_else(|| panic!("{input:?} has no {event_kind} number {n}"))
        .1
}

#[test]
fn failures_name_the_step_that_returned_failure() {
    let cases: &[(&str, &str, &str)] = &[
        ("http://[::1/", "host parser", "1.1"),
        ("http://xn--a.ß/", "host parser", "7"),
        ("http://\u{AD}/", "domain parser", "7"),
        ("http://a%3Cb/", "domain parser", "8"),
        ("http://1.2.3.4.5/", "IPv4 parser", "4"),
        ("http://test.42/", "IPv4 parser", "6.2"),
        ("http://1.256.3.4/", "IPv4 parser", "8"),
        ("http://4294967296/", "IPv4 parser", "9"),
        ("http://[:1]/", "IPv6 parser", "5.1"),
        ("http://[1:2:3:4:5:6:7:8:9]/", "IPv6 parser", "6.1"),
        ("http://[1::2::3]/", "IPv6 parser", "6.2.1"),
        ("http://[::.1]/", "IPv6 parser", "6.5.1"),
        ("http://[1:2:3:4:5:6:7:1.2.3.4]/", "IPv6 parser", "6.5.3"),
        ("http://[::1.2.3.4.5]/", "IPv6 parser", "6.5.5.2.2"),
        ("http://[::1.2x]/", "IPv6 parser", "6.5.5.2.2"),
        ("http://[::1..2]/", "IPv6 parser", "6.5.5.3"),
        ("http://[::1.2.]/", "IPv6 parser", "6.5.5.3"),
        ("http://[::a.1.2.3]/", "IPv6 parser", "6.5.5.3"),
        ("http://[::01.2.3.4]/", "IPv6 parser", "6.5.5.4.3"),
        ("http://[::1.02.3.4]/", "IPv6 parser", "6.5.5.4.3"),
        ("http://[::256.0.0.1]/", "IPv6 parser", "6.5.5.4.5"),
        ("http://[::1.2.3]/", "IPv6 parser", "6.5.6"),
        ("http://[1:]/", "IPv6 parser", "6.6.2"),
        ("http://[1x]/", "IPv6 parser", "6.7"),
        ("http://[1:2:3]/", "IPv6 parser", "8"),
        ("foo://a<b/", "opaque-host parser", "1"),
    ];
    for (input, algorithm, number) in cases {
        let step = host_step(input, "failure", 0);
        assert_eq!(
            (step.name(), step.number),
            (*algorithm, *number),
            "{input:?}: {}",
            step.explanation
        );
    }
    assert!(host_step("http://[1x]/", "failure", 0)
        .explanation
        .starts_with("\"x\" cannot be part of an IPv6 address"));
    assert!(host_step("http://a%3Cb/", "failure", 0)
        .explanation
        .contains("\"a<b\" contains \"<\""));
}

/// The URL Standard's IPv6 parser, written again from its text to say which step returns
/// failure (`None` when it returns an address): the oracle for the failure step the trace names.
fn ipv6_failure_step(input: &str) -> Option<&'static str> {
    let c: Vec<char> = input.chars().collect();
    let at = |p: usize| c.get(p).copied();
    let mut piece_index = 0;
    let mut compress: Option<usize> = None;
    let mut pointer = 0;
    if at(pointer) == Some(':') {
        if at(pointer + 1) != Some(':') {
            return Some("5.1");
        }
        pointer += 2;
        piece_index += 1;
        compress = Some(piece_index);
    }
    while at(pointer).is_some() {
        if piece_index == 8 {
            return Some("6.1");
        }
        if at(pointer) == Some(':') {
            if compress.is_some() {
                return Some("6.2.1");
            }
            pointer += 1;
            piece_index += 1;
            compress = Some(piece_index);
            continue;
        }
        let mut length = 0;
        while length < 4 && at(pointer).is_some_and(|c| c.is_ascii_hexdigit()) {
            pointer += 1;
            length += 1;
        }
        if at(pointer) == Some('.') {
            if length == 0 {
                return Some("6.5.1");
            }
            pointer -= length;
            if piece_index > 6 {
                return Some("6.5.3");
            }
            let mut numbers_seen = 0;
            while at(pointer).is_some() {
                let mut ipv4_piece: Option<u32> = None;
                if numbers_seen > 0 {
                    if at(pointer) == Some('.') && numbers_seen < 4 {
                        pointer += 1;
                    } else {
                        return Some("6.5.5.2.2");
                    }
                }
                if !at(pointer).is_some_and(|c| c.is_ascii_digit()) {
                    return Some("6.5.5.3");
                }
                while let Some(number) = at(pointer).and_then(|c| c.to_digit(10)) {
                    ipv4_piece = match ipv4_piece {
                        None => Some(number),
                        Some(0) => return Some("6.5.5.4.3"),
                        Some(piece) => Some(piece * 10 + number),
                    };
                    if ipv4_piece > Some(255) {
                        return Some("6.5.5.4.5");
                    }
                    pointer += 1;
                }
                numbers_seen += 1;
                if numbers_seen == 2 || numbers_seen == 4 {
                    piece_index += 1;
                }
            }
            if numbers_seen != 4 {
                return Some("6.5.6");
            }
            break;
        } else if at(pointer) == Some(':') {
            pointer += 1;
            if at(pointer).is_none() {
                return Some("6.6.2");
            }
        } else if at(pointer).is_some() {
            return Some("6.7");
        }
        piece_index += 1;
    }
    if compress.is_none() && piece_index != 8 {
        return Some("8");
    }
    None
}

#[test]
fn an_ipv6_failure_names_the_step_the_standard_returns_failure_at() {
    // Generated addresses made of what steers the IPv6 parser (pieces, ":", "::", ".", other
    // code points), checked against the parser written again above. A fixed seed keeps the inputs the same from run to run.
    let tokens = [
        "1", "ff", "0", "00", "12", "256", "a", ":", ":", ":", "::", ".", ".", "x", "%", "\u{e9}",
    ];
    let mut seed: u64 = 0x5eed;
    let mut next = || {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        seed >> 33
    };
    let mut failures = BTreeMap::new();
    for _ in 0..20_000 {
        // Up to 8 well-formed pieces first, so that the steps about too many pieces come up.
        let mut inner = "1:".repeat(next() as usize % 9);
        let len = 1 + next() as usize % 12;
        inner.extend((0..len).map(|_| tokens[next() as usize % tokens.len()]));
        let input = format!("http://[{inner}]/");
        let named = host_steps_of(&input, None)
            .into_iter()
            .find(|(event, _)| matches!(event, HostEvent::Failure))
            .map(|(_, step)| {
                assert_eq!(step.name(), "IPv6 parser", "{input:?}");
                step.number
            });
        assert_eq!(named, ipv6_failure_step(&inner), "{input:?}");
        *failures.entry(named).or_insert(0) += 1;
    }
    // Every failure step of the IPv6 parser came up.
    assert_eq!(failures.len(), 14, "{failures:?}");
}

/// The inputs of the web-platform-tests' urltestdata.json, with their bases.
fn conformance_inputs() -> Vec<(String, Option<String>)> {
    let source = common::discover().expect("web-platform-tests data");
    let located = source.locate("urltestdata.json").expect("urltestdata.json");
    let data = common::read_json(&located.path).expect("urltestdata.json parses");
    data.as_array()
        .expect("an array")
        .iter()
        .filter_map(|case| {
            let input = case.get("input")?.as_str()?.to_owned();
            let base = case.get("base").and_then(|v| v.as_str()).map(str::to_owned);
            Some((input, base))
        })
        .collect()
}
