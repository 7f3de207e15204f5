//! `Url::parse` takes a shortcut past the state machine for input already in serialized form.
//! These tests hold it to the state machine (`Url::parse_without_shortcut`): the same href,
//! every getter, and the same URL record, on the web-platform-tests inputs, the benchmark
//! corpora, the peer suites' inputs, and inputs made by splicing the shortcut's edge cases into
//! serialized URLs. `Url::parse_href` and `Url::parse_hostname`, which answer without building
//! a URL, are held to the same.

mod common;

use encoding_rs::UTF_8;
use serde_json::Value;
use urlscope::report::Parts;
use urlscope::url::Component;
use urlscope::{Report, Url};

/// Asserts that the two parses agree entirely; returns whether `input` parsed.
fn agree(input: &str, base: Option<&Url>) -> bool {
    if base.is_none() {
        // The untraced report (validation errors, host span, host analysis) too.
        let quick = Report::untraced(input, None, UTF_8);
        let slow = Report::untraced_without_shortcut(input, None, UTF_8);
        assert_eq!(
            serde_json::to_value(&quick).expect("serializes"),
            serde_json::to_value(&slow).expect("serializes"),
            "report of {input:?}"
        );
        assert_eq!(quick.host_span, slow.host_span, "host span of {input:?}");
        // The findings alone, as `check` asks for them: the same findings, without the forms
        // of the name.
        let parts = Parts {
            host_analysis: true,
            ..Parts::NONE
        };
        let findings_only = Report::untraced_parts(input, None, UTF_8, parts);
        match (&findings_only.host_analysis, &quick.host_analysis) {
            (Some(alone), Some(whole)) => {
                assert_eq!(alone.findings, whole.findings, "findings of {input:?}");
                assert_eq!(alone.imitates, whole.imitates, "imitations of {input:?}");
                assert_eq!(
                    (
                        alone.public_suffix.as_ref(),
                        alone.registrable_domain.as_ref()
                    ),
                    (None, None),
                    "forms of {input:?}"
                );
                // A special URL's host that is not an address (nor empty) is a domain, whose
                // forms are left out; an address, an empty host and an opaque host keep
                // theirs, which cost nothing more to make.
                let domain = whole.ip.is_none()
                    && !whole.host.is_empty()
                    && quick.url.as_ref().is_some_and(Url::is_special);
                match domain {
                    true => assert_eq!(
                        (
                            alone.host.as_str(),
                            alone.typed.as_ref(),
                            alone.unicode.as_str()
                        ),
                        ("", None, ""),
                        "forms of the domain of {input:?}"
                    ),
                    false => assert_eq!(
                        (&alone.host, &alone.typed, &alone.unicode),
                        (&whole.host, &whole.typed, &whole.unicode),
                        "forms of the host of {input:?}"
                    ),
                }
            }
            (alone, whole) => assert_eq!(alone.is_some(), whole.is_some(), "{input:?}"),
        }
    }
    let quick = Url::parse(input, base);
    let slow = Url::parse_without_shortcut(input, base);
    // The href alone, as a batch of hrefs asks for it without building the URL.
    assert_eq!(
        Url::parse_href(input, base, UTF_8).ok().as_deref(),
        slow.as_ref().ok().map(Url::href),
        "href alone of {input:?}"
    );
    // The hostname alone, as a column of hosts asks for it without reading past the host: the
    // same value, or the same failure.
    assert_eq!(
        Url::parse_hostname(input, base, UTF_8).as_deref(),
        quick.as_ref().map(Url::hostname),
        "hostname alone of {input:?}"
    );
    match (&quick, &slow) {
        (Ok(quick), Ok(slow)) => {
            assert_eq!(quick.href(), slow.href(), "href of {input:?}");
            for component in Component::ALL {
                assert_eq!(
                    quick.get(component),
                    slow.get(component),
                    "{component} of {input:?}"
                );
            }
            assert_eq!(quick.origin(), slow.origin(), "origin of {input:?}");
            assert_eq!(quick.query(), slow.query(), "query of {input:?}");
            assert_eq!(quick.fragment(), slow.fragment(), "fragment of {input:?}");
            assert_eq!(quick.record(), slow.record(), "record of {input:?}");
            true
        }
        (Err(_), Err(_)) => false,
        _ => panic!("{input:?}: shortcut {quick:?}, state machine {slow:?}"),
    }
}

#[test]
fn the_shortcut_agrees_with_the_state_machine_on_the_web_platform_tests() {
    let source = common::discover().expect("web-platform-tests data");
    let data = common::load(&source.dir, "urltestdata.json")
        .expect("urltestdata.json")
        .expect("valid JSON");
    let mut cases = 0;
    for case in data.as_array().expect("an array") {
        let Value::Object(case) = case else { continue };
        let Some(input) = case.get("input").and_then(Value::as_str) else {
            continue;
        };
        let base = case
            .get("base")
            .and_then(Value::as_str)
            .and_then(|b| Url::parse(b, None).ok());
        agree(input, base.as_ref());
        // The serialization of every URL is the shortcut's home ground.
        if let Ok(url) = Url::parse_without_shortcut(input, base.as_ref()) {
            assert!(agree(url.href(), None));
            assert!(agree(url.href(), base.as_ref()));
        }
        cases += 1;
    }
    println!(
        "{cases} urltestdata inputs from {} ({})",
        source.dir.display(),
        source.how
    );
    assert!(cases > 800);
}

#[test]
fn the_shortcut_agrees_with_the_state_machine_on_the_corpora() {
    let dir = std::env::var_os("URLSCOPE_BENCH_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| common::manifest_dir().join("../shared/bench"));
    let mut texts = Vec::new();
    for file in ["kasztp.txt", "node_files.txt"] {
        match std::fs::read_to_string(dir.join(file)) {
            Ok(text) => texts.push(text),
            Err(_) => println!("{file} not found in {}: skipped", dir.display()),
        }
    }
    let lines: Vec<&str> = texts.iter().flat_map(|text| text.lines()).collect();
    // The hostname alone is borrowed from the input (found without the parser) for nearly
    // every web URL: what makes a column of hosts cheap.
    if let Some(kasztp) = texts.first() {
        let (mut borrowed, mut total) = (0, 0);
        for line in kasztp.lines() {
            total += 1;
            if let Ok(std::borrow::Cow::Borrowed(_)) = Url::parse_hostname(line, None, UTF_8) {
                borrowed += 1;
            }
        }
        println!("{borrowed} of {total} kasztp.txt hostnames borrowed");
        assert!(borrowed * 10 > total * 9, "{borrowed} of {total}");
    }
    // 91,000 lines, each made into two reports and parsed twice: the lines are shared among
    // the cores (a disagreement panics its thread, and the scope passes the panic on).
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|scope| {
        for chunk in lines.chunks(lines.len().div_ceil(threads).max(1)) {
            scope.spawn(move || {
                for line in chunk {
                    agree(line, None);
                }
            });
        }
    });
    println!("{} corpus lines", lines.len());
}

#[test]
fn the_shortcut_agrees_with_the_state_machine_on_the_peer_suites() {
    let path = common::manifest_dir().join("../shared/conformance/peer_suites.jsonl");
    let Ok(text) = std::fs::read_to_string(&path) else {
        println!("{} not found: skipped", path.display());
        return;
    };
    let mut cases = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: Value = serde_json::from_str(&common::replace_lone_surrogate_escapes(line))
            .expect("a JSON line");
        let Some(input) = case["input"].as_str() else {
            continue;
        };
        let base = case["base"].as_str().and_then(|b| Url::parse(b, None).ok());
        agree(input, base.as_ref());
        if let Ok(url) = Url::parse_without_shortcut(input, base.as_ref()) {
            assert!(agree(url.href(), base.as_ref()));
        }
        cases += 1;
    }
    println!("{cases} peer-suite inputs");
    assert!(cases > 1000);
}

/// Serialized URLs of each shape the shortcut takes.
const TEMPLATES: &[&str] = &[
    "https://www.example.com/a/b.html?q=1&r=two#top",
    "http://example.org",
    "http://a.b-c.example:8080/x/y/?#",
    "ws://h.example/chat?x#y",
    "wss://h.example:443/",
    "ftp://files.example/pub/file.txt",
    "file:///home/user/file.txt",
    "file://server.example/share/x",
    "file:///C:/x",
    "https://xn--mnchen-3ya.de/",
    "https://1.2.3.4/",
    "/a/b?q#f",
    "b/c.html",
    "./b",
    "../b/",
    "../../x/y?z",
    "?q=1",
    "#frag",
    "",
    "//h.example/p",
    "x.html?y#z",
    // The hostname alone reads up to the host's end: each delimiter, a port, case in the scheme.
    "HTTPS://www.example.com/",
    "http://example.com\\x\\y",
    "https://example.com:0443?q",
    "wss://example.com:#f",
    "http://example.com:8080\\p",
    "\\x",
    "a:b",
];

/// What the shortcut must notice: case, delimiters, dots, numbers, percent signs, ports,
/// controls, non-ASCII and the file quirks.
const SPLICES: &[&str] = &[
    "A",
    ".",
    "..",
    "./",
    "../",
    "/.",
    "/..",
    "%2e",
    "%2E",
    ".%2e",
    "%2e.",
    ":",
    ":80",
    ":443",
    ":0",
    ":00",
    ":65535",
    ":65536",
    ":99999",
    ":8a",
    "0x",
    "0x1f",
    "1",
    "9",
    "-",
    "--",
    "a--b",
    "@",
    "u:p@",
    "\\",
    "|",
    "C|",
    "C:",
    "c:/",
    " ",
    "\t",
    "\n",
    "\u{0}",
    "\u{7f}",
    "é",
    "ß",
    "ａ",
    "xn--",
    "xn--a",
    "localhost",
    "//",
    "///",
    "?",
    "#",
    "'",
    "\"",
    "<",
    ">",
    "^",
    "`",
    "{",
    "}",
    "%",
    "%zz",
    "%41",
    "[",
    "]",
    "[::1]",
    "_",
    "~",
    "!",
    "$",
    "&",
    "=",
    "+",
    ",",
    ";",
    "\r",
    "\u{1}",
    ":00080",
    ":0000065535",
    "HTTP:",
    "ws:",
    "x:",
];

#[test]
fn the_shortcut_agrees_with_the_state_machine_on_spliced_urls() {
    let bases: Vec<Option<Url>> = [
        None,
        Some("http://base.example/p/q?x#y"),
        Some("file:///D:/z"),
        Some("wss://[::1]:8443/d/"),
    ]
    .into_iter()
    .map(|b| b.map(|b| Url::parse(b, None).expect("base parses")))
    .collect();
    let mut rng = common::Rng(0x2545_F491_4F6C_DD1D);
    let (mut cases, mut parsed) = (0, 0);
    for template in TEMPLATES {
        for base in &bases {
            parsed += usize::from(agree(template, base.as_ref()));
            cases += 1;
        }
    }
    for _ in 0..100_000 {
        let mut input = TEMPLATES[rng.below(TEMPLATES.len())].to_owned();
        for _ in 0..1 + rng.below(2) {
            let mut at = rng.below(input.len() + 1);
            while !input.is_char_boundary(at) {
                at -= 1;
            }
            if rng.below(4) == 0 && at < input.len() {
                // Replace a byte (or a code point) instead of inserting.
                let len = input[at..].chars().next().map_or(0, char::len_utf8);
                input.replace_range(at..at + len, "");
            }
            input.insert_str(at, SPLICES[rng.below(SPLICES.len())]);
        }
        let base = &bases[rng.below(bases.len())];
        parsed += usize::from(agree(&input, base.as_ref()));
        cases += 1;
    }
    println!("{cases} spliced inputs, {parsed} parsed");
    assert!(parsed > cases / 2, "the splices should mostly leave a URL");
}
