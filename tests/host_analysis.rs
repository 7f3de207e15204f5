//! A labelled corpus for the host analysis: spoofs (homographs in Cyrillic, Greek and Armenian,
//! mixed scripts, fullwidth forms, deviation characters, invisible characters, credential tricks,
//! IPv4 in hex, octal, short and integer forms, RFC 3986 differentials) and legitimate
//! internationalised domains that must not be flagged. Each case asserts its exact finding ids
//! and the display decision (None: the host has no IDN label, so nothing to decide).

use urlscope::Report;

struct Case {
    input: &'static str,
    ids: &'static [&'static str],
    display_unicode: Option<bool>,
}

const fn c(
    input: &'static str,
    ids: &'static [&'static str],
    display_unicode: Option<bool>,
) -> Case {
    Case {
        input,
        ids,
        display_unicode,
    }
}

const CASES: &[Case] = &[
    // Ordinary hosts: nothing to say.
    c("https://example.com/", &[], None),
    c("https://www.google.com/search?q=x", &[], None),
    c("https://mail.google.com/", &[], None),
    c("https://github.com/rust-lang/rust", &[], None),
    c("https://sub.example.co.uk/a", &[], None),
    c("http://localhost:8080/", &[], None),
    c("https://paypal.com/", &[], None),
    c("https://www.paypal.com/signin", &[], None),
    c("http://8.8.8.8/", &[], None),
    c("http://[2606:4700::1111]/", &[], None),
    c("mailto:someone@example.org", &[], None),
    c("file:///etc/hosts", &[], None),
    // Legitimate internationalised domains: information only, shown in Unicode.
    c("https://münchen.de/", &["idn"], Some(true)),
    c("https://xn--mnchen-3ya.de/", &["idn"], Some(true)),
    c("https://bücher.example/", &["idn"], Some(true)),
    c("https://例え.jp/", &["idn"], Some(true)),
    c("https://ドメイン名例.jp/", &["idn"], Some(true)),
    c("https://пример.рф/", &["idn"], Some(true)),
    c("https://xn--e1afmkfd.xn--p1ai/", &["idn"], Some(true)),
    c("https://παράδειγμα.ελ/", &["idn"], Some(true)),
    c("https://한국.kr/", &["idn"], Some(true)),
    c("https://中国.cn/", &["idn"], Some(true)),
    c("https://مثال.إختبار/", &["idn"], Some(true)),
    c("https://उदाहरण.भारत/", &["idn"], Some(true)),
    c("https://españa.es/", &["idn"], Some(true)),
    c("https://zürich.ch/", &["idn"], Some(true)),
    // Symbols are valid IDNA but not identifiers: shown as Punycode, not a spoof.
    c("https://☕.example/", &[], Some(false)),
    // Homographs: whole-script confusables and look-alikes of well-known domains.
    c(
        "https://аррӏе.com/",
        &["lookalike-domain", "whole-script-confusable"],
        Some(false),
    ),
    c(
        "https://www.аррӏе.com/",
        &["lookalike-domain", "whole-script-confusable"],
        Some(false),
    ),
    c(
        "https://xn--80ak6aa92e.com/",
        &["lookalike-domain", "whole-script-confusable"],
        Some(false),
    ),
    c(
        "https://раураӏ.com/",
        &["lookalike-domain", "whole-script-confusable"],
        Some(false),
    ),
    c(
        "https://ցօօց.com/",
        &["whole-script-confusable"],
        Some(false),
    ),
    c(
        "https://ροο.com/",
        &["whole-script-confusable"],
        Some(false),
    ),
    // Mixed scripts in one label.
    c(
        "https://раypal.com/",
        &["lookalike-domain", "mixed-script"],
        Some(false),
    ),
    c(
        "https://gооgle.com/",
        &["lookalike-domain", "mixed-script"],
        Some(false),
    ),
    c(
        "https://аmazon.com/",
        &["lookalike-domain", "mixed-script"],
        Some(false),
    ),
    c(
        "https://ρaypal.com/",
        &["lookalike-domain", "mixed-script"],
        Some(false),
    ),
    c("https://examрle.org/", &["mixed-script"], Some(false)),
    // ASCII look-alikes of well-known domains.
    c("https://paypa1.com/", &["lookalike-domain"], None),
    c("https://rnicrosoft.com/", &["lookalike-domain"], None),
    c("https://pay-pal.com/", &["lookalike-domain"], None),
    // Well-known domains spelled out left of another registrable domain.
    c(
        "https://www.paypal.com.evil.example/",
        &["known-domain-in-subdomain"],
        None,
    ),
    c(
        "https://paypal-com.evil.example/",
        &["known-domain-in-subdomain"],
        None,
    ),
    c(
        "https://login.microsoftonline.com.attacker.net/",
        &["known-domain-in-subdomain"],
        None,
    ),
    c(
        "https://apple.com.evil.co.uk/",
        &["known-domain-in-subdomain"],
        None,
    ),
    // Fullwidth forms and other mapped code points.
    c("https://ｇｏｏｇｌｅ.com/", &["mapped-code-points"], None),
    c(
        "https://ｅｘａｍｐｌｅ。com/",
        &["mapped-code-points"],
        None,
    ),
    c("https://example．com/", &["mapped-code-points"], None),
    c("https://EXAMPLE.com/", &["uppercase"], None),
    c("https://exam%70le.org/", &["percent-encoded-host"], None),
    // The hex digits of "%6D" are not uppercase letters of the host.
    c("https://exa%6Dple.com/", &["percent-encoded-host"], None),
    c(
        "https://EXA%6Dple.com/",
        &["percent-encoded-host", "uppercase"],
        None,
    ),
    // Deviation characters.
    c("https://faß.de/", &["deviation-character"], Some(false)),
    c("https://βόλος.com/", &["deviation-character"], Some(false)),
    // Invisible and bidi control code points.
    c("https://a\u{200B}b.com/", &["invisible-code-point"], None),
    c(
        "https://exam\u{AD}ple.com/",
        &["invisible-code-point"],
        None,
    ),
    c(
        "https://example.com/\u{202E}fdp.exe",
        &["bidi-control"],
        None,
    ),
    c(
        "https://example.com/\u{2066}x\u{2069}",
        &["bidi-control"],
        None,
    ),
    c("https://a\u{202E}b.com/", &["bidi-control"], None),
    // A format character that the hand-written list lacked, found from the Unicode data
    // (General_Category Cf): an Egyptian hieroglyph format control.
    c(
        "https://example.com/a\u{13430}b",
        &["invisible-code-point"],
        None,
    ),
    // Credentials, and credentials shaped like a host.
    c("https://user:pw@example.com/", &["credentials"], None),
    c("ftp://anonymous@ftp.example.org/", &["credentials"], None),
    c(
        "https://paypal.com@evil.example/",
        &["credentials-look-like-host"],
        None,
    ),
    c(
        "https://paypal.com:443@evil.example/",
        &["credentials-look-like-host"],
        None,
    ),
    c(
        "https://www.google.com@evil.example/login",
        &["credentials-look-like-host"],
        None,
    ),
    c(
        "http://127.0.0.1@evil.example/",
        &["credentials-look-like-host"],
        None,
    ),
    // IPv4 in non-canonical forms, and internal ranges.
    c(
        "http://0x7f.1/",
        &["internal-address", "non-canonical-ipv4"],
        None,
    ),
    c(
        "http://017700000001/",
        &["internal-address", "non-canonical-ipv4"],
        None,
    ),
    c(
        "http://2130706433/",
        &["internal-address", "non-canonical-ipv4"],
        None,
    ),
    c(
        "http://127.1/",
        &["internal-address", "non-canonical-ipv4"],
        None,
    ),
    c(
        "http://0x7f000001/",
        &["internal-address", "non-canonical-ipv4"],
        None,
    ),
    c(
        "http://0300.0250.0.1/",
        &["internal-address", "non-canonical-ipv4"],
        None,
    ),
    c("http://0xd8.0x3a.0xd6.0xce/", &["non-canonical-ipv4"], None),
    c("http://192.168.0.1/", &["internal-address"], None),
    c("http://10.0.0.1/", &["internal-address"], None),
    c(
        "http://169.254.169.254/latest/meta-data/",
        &["internal-address"],
        None,
    ),
    c("http://0.0.0.0/", &["internal-address"], None),
    c("http://[::1]/", &["internal-address"], None),
    c("http://[::ffff:127.0.0.1]/", &["internal-address"], None),
    c("http://[fe80::1]/", &["internal-address"], None),
    c("http://[2001:db8::1]/", &["internal-address"], None),
    // What you typed is not what resolves.
    c("https:\\\\example.com\\path", &["backslash-as-slash"], None),
    c("ht\ttps://example.com/", &["tab-or-newline-removed"], None),
    c("  https://example.com/  ", &["trimmed"], None),
    // Parser differentials: an RFC 3986 parser reads another host.
    c(
        "http://evil.example\\@good.example/",
        &["backslash-as-slash", "parser-differential"],
        None,
    ),
    c(
        "https://evil.example\\\\@good.example/",
        &["backslash-as-slash", "parser-differential"],
        None,
    ),
    c(
        "http://ex\tample.com/",
        &["parser-differential", "tab-or-newline-removed"],
        None,
    ),
    c("http://good.example#@evil.example/", &[], None),
];

#[test]
fn labelled_corpus() {
    let mut failures = Vec::new();
    for case in CASES {
        let report = Report::new(case.input, None);
        let Some(analysis) = &report.host_analysis else {
            failures.push(format!("{:?}: no analysis", case.input));
            continue;
        };
        let mut ids = analysis.ids();
        ids.sort_unstable();
        let mut expected = case.ids.to_vec();
        expected.sort_unstable();
        let display = analysis.display.as_ref().map(|d| d.unicode);
        if ids != expected || display != case.display_unicode {
            failures.push(format!(
                "{:?}: expected {expected:?} display {:?}, got {ids:?} display {display:?}",
                case.input, case.display_unicode
            ));
        }
    }
    eprintln!("host analysis corpus: {} cases", CASES.len());
    assert!(CASES.len() >= 80);
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn legitimate_idns_get_no_warning() {
    for case in CASES.iter().filter(|c| c.ids == ["idn"]) {
        let report = Report::new(case.input, None);
        let analysis = report.host_analysis.expect("analysis");
        assert!(
            analysis
                .findings
                .iter()
                .all(|f| f.severity == urlscope::inspect::Severity::Info),
            "{:?}",
            case.input
        );
    }
}

#[test]
fn findings_name_the_code_points_and_where_they_are() {
    let report = Report::new("https://раypal.com/", None);
    let analysis = report.host_analysis.expect("analysis");
    let mixed = analysis
        .findings
        .iter()
        .find(|f| f.id == "mixed-script")
        .expect("mixed-script");
    let points: Vec<(usize, &str)> = mixed
        .code_points
        .iter()
        .map(|p| (p.position, p.code_point.as_str()))
        .collect();
    assert_eq!(
        points,
        vec![
            (8, "U+0440 CYRILLIC SMALL LETTER ER"),
            (9, "U+0430 CYRILLIC SMALL LETTER A")
        ]
    );
    assert_eq!(
        analysis.registrable_domain.as_deref(),
        Some("xn--ypal-43d9g.com")
    );
    let report = Report::new("http://0x7f.1/", None);
    let ip = report
        .host_analysis
        .and_then(|a| a.ip)
        .expect("ip analysis");
    assert_eq!(ip.range, Some("loopback"));
    assert!(ip
        .notations
        .contains(&("integer".to_owned(), "2130706433".to_owned())));
    assert!(ip
        .notations
        .contains(&("as typed".to_owned(), "0x7f.1".to_owned())));
}
