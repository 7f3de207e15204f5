//! The explanation table against the parser and the standard: every step the parser can cite
//! (`spec!` in src/url/parser.rs) has an explanation, every explanation is for a step the parser
//! cites, and every cited number is a step of that state's algorithm in the standard's text.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use urlscope::url::explain::{self, Section};
use urlscope::url::{Phase, State};
use urlscope::Report;

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
    let orphans: Vec<String> = explain::ALL
        .iter()
        .filter(|(section, number, _)| {
            !cited.contains(&(section.name().to_owned(), (*number).to_owned()))
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
        Ok(text) => Some(text),
        Err(_) => {
            eprintln!(
                "{} not found: the step numbers are not checked",
                path.display()
            );
            None
        }
    }
}

/// The step numbers of the first ordered list after `from` in the standard's Bikeshed source:
/// `<li>`s of nested `<ol>`s, numbered as the standard renders them. Unordered lists (the
/// "one of the following is true" conditions) and nested `<dl>`s (the basic URL parser's
/// state machine, inside its step 9) do not number steps.
fn step_numbers(text: &str, from: usize) -> BTreeSet<String> {
    enum List {
        Ordered(usize),
        Other,
    }
    let start = from + text[from..].find("<ol").expect("an ordered list");
    let mut stack: Vec<List> = Vec::new();
    let mut numbers = BTreeSet::new();
    let mut rest = &text[start..];
    let is_tag = |s: &str, name: &str| {
        s.strip_prefix(name)
            .is_some_and(|after| after.starts_with('>') || after.starts_with(' '))
    };
    while let Some(at) = rest.find('<') {
        rest = &rest[at..];
        if is_tag(rest, "<ol") {
            stack.push(List::Ordered(0));
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
        } else if is_tag(rest, "<li") && !stack.iter().any(|l| matches!(l, List::Other)) {
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
            numbers.insert(number.join("."));
        }
        rest = &rest[1..];
    }
    numbers
}

fn section_steps(text: &str) -> BTreeMap<&'static str, BTreeSet<String>> {
    let mut sections = vec![Section::BasicUrlParser];
    sections.extend(State::ALL.iter().map(|s| Section::of(Phase::State(*s))));
    sections
        .into_iter()
        .map(|section| {
            let anchor = format!("id={}", section.anchor());
            let from = text
                .find(&anchor)
                .unwrap_or_else(|| panic!("{anchor} not in the standard"));
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
    let source = common::discover().expect("web-platform-tests data");
    let located = source.locate("urltestdata.json").expect("urltestdata.json");
    let data = common::read_json(&located.path).expect("urltestdata.json parses");
    let mut count = 0;
    for case in data.as_array().expect("an array") {
        let Some(input) = case.get("input").and_then(|v| v.as_str()) else {
            continue;
        };
        let base = case.get("base").and_then(|v| v.as_str());
        assert_explained(input, base);
        count += 1;
    }
    assert!(count > 500, "{count} inputs");
}
