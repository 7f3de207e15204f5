//! The gate judged on the real built-in parsers' readings (`Gate::judge_builtins`); the
//! external runtimes' readings are tested through the binary (tests/gate.rs).

use super::*;
use crate::diff::Builtin;
use crate::inspect::Severity;

fn allow(values: &[&str]) -> Gate {
    Gate {
        allowlist: Some(Allowlist::parse(values).expect("a host")),
        deny_internal: false,
    }
}

/// The gate's findings on `input` as (id, severity) pairs.
fn verdict(gate: &Gate, input: &str) -> Vec<(&'static str, Severity)> {
    gate.judge_builtins(input)
        .iter()
        .map(|f| (f.id, f.severity))
        .collect()
}

fn refused(value: &str) -> String {
    match Allowlist::parse(&[value]) {
        Err(message) => message,
        Ok(list) => panic!("{value:?} was accepted: {list:?}"),
    }
}

const NOT_ALLOWED: (&str, Severity) = ("not-allowed", Severity::Danger);
const BYPASS: (&str, Severity) = ("allowlist-bypass", Severity::Danger);

#[test]
fn an_entry_is_the_host_the_host_parser_reads() {
    let key = |v: &str| {
        Allowlist::parse(&[v]).expect("a host").entries[0]
            .host
            .clone()
    };
    let example = HostKey::Name("example.com".into());
    for spelling in [
        "example.com",
        "EXAMPLE.com",
        "example.com.",
        "ｅxample.com",
        "exa\u{AD}mple.com",
    ] {
        assert_eq!(key(spelling), example, "{spelling:?}");
    }
    assert_eq!(key("bücher.example"), key("xn--bcher-kva.example"));
    assert_eq!(key("[::1]"), HostKey::Ipv6(std::net::Ipv6Addr::LOCALHOST));
    assert_eq!(key("::1"), HostKey::Ipv6(std::net::Ipv6Addr::LOCALHOST));
    // The host parser's IPv4 parser reads every notation a special URL's host may use.
    assert_eq!(key("0x7f.1"), HostKey::Ipv4(std::net::Ipv4Addr::LOCALHOST));
    let entry = &Allowlist::parse(&["[::1]:8080"]).expect("a host").entries[0];
    assert_eq!(entry.port, Some(8080));
    let entry = &Allowlist::parse(&["*.example.com:8443"])
        .expect("a host")
        .entries[0];
    assert!(entry.subdomains);
    assert_eq!((entry.host.clone(), entry.port), (example, Some(8443)));
}

#[test]
fn a_value_that_cannot_be_a_host_is_refused_with_the_reason() {
    let cases = [
        (
            "https://example.com/",
            "is a URL, not a host: give the host: example.com",
        ),
        (
            "http:\\\\example.com",
            "is a URL, not a host: give the host: example.com",
        ),
        ("example.com/path", "has a path: give the host: example.com"),
        ("example.com?q", "has a query: give the host: example.com"),
        ("user@example.com", "has credentials: give the host: user"),
        ("", "is empty"),
        ("  ", "is empty"),
        ("*", "\"*\" is allowed only as a leading \"*.\""),
        ("ex*ample.com", "\"*\" is allowed only as a leading \"*.\""),
        (
            "*.*.example.com",
            "\"*\" is allowed only as a leading \"*.\"",
        ),
        ("*.", "has no host"),
        ("*.127.0.0.1", "takes a domain, not an IP address"),
        ("example.com:99999", "is not a number from 0 to 65535"),
        ("example.com:", "is not a number from 0 to 65535"),
        ("example.com:https", "is not a number from 0 to 65535"),
        ("exa mple.com", "the URL Standard's host parser fails on it"),
        ("[::1", "the URL Standard's host parser fails on it"),
        ("[::1]x", "only \":PORT\" may follow"),
        ("1.2.3.4.5", "the URL Standard's host parser fails on it"),
    ];
    for (value, expected) in cases {
        let message = refused(value);
        assert!(
            message.contains(expected),
            "input {value:?}: expected {expected:?} in {message:?}"
        );
    }
}

#[test]
fn every_reading_going_to_an_allowed_host_passes() {
    let gate = allow(&["example.com"]);
    for input in [
        "https://example.com/",
        "HTTPS://EXAMPLE.COM./path?q#f",
        "https://example.com:443/",
        // No port in the entry: any port.
        "http://example.com:8080/",
        "https://user:pass@example.com/",
        // IDNA: a soft hyphen is ignored and a fullwidth letter mapped, by every parser that
        // keeps the Unicode name when it connects (curl maps it with the same table).
        "https://exa\u{AD}mple.com/",
        "https://ｅxample.com/",
        // Leading and trailing C0 controls and spaces are stripped; tabs and newlines removed
        // (every built-in parser that reads them goes to example.com or fails).
        " https://example.com/ ",
        // An opaque host (a scheme that is not special) is compared as spelled: every reading
        // gives example.com.
        "foo://example.com/",
    ] {
        assert_eq!(verdict(&gate, input), [], "input {input:?}");
    }
}

#[test]
fn a_url_that_goes_elsewhere_is_not_allowed() {
    let gate = allow(&["example.com"]);
    for input in [
        "https://attacker.net/",
        "https://example.com.attacker.net/",
        "https://example.comattacker.net/",
        "https://attacker.net/?example.com",
        "https://attacker.net#@example.com",
        "https://example.com@attacker.net/",
        "https://example.com%2F@attacker.net/",
        "https://example.com%23@attacker.net/",
        "https://example.com%3F@attacker.net/",
        "https://example.com%40attacker.net@attacker.net/",
        "https://example.com\u{3002}attacker/",
        "\u{0}http://attacker.net",
        "\u{1F} https://attacker.net",
        "http:\\\\attacker.net",
        "http:/attacker.net",
        "https:attacker.net",
        "https://evilexample.com/",
        "http://127.0.0.1/",
        "file:///etc/passwd",
        "https://example.com.attacker.net\t/",
    ] {
        assert_eq!(verdict(&gate, input), [NOT_ALLOWED], "input {input:?}");
    }
}

#[test]
fn readings_that_part_ways_are_a_bypass() {
    let gate = allow(&["example.com"]);
    // The backslash: curl's userinfo ends at the "@", the URL Standard's host at the "\".
    let input = "https://attacker.net\\@example.com/";
    let findings = gate.judge_builtins(input);
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert_eq!((findings[0].id, findings[0].severity), BYPASS);
    assert_eq!(
        findings[0].detail,
        "attacker.net:443 (not allowed): whatwg, rust-url; example.com:443: curl; \
         no destination: rfc3986 (fails), http (fails)"
    );
    // Percent-encoded bytes in the host: the URL Standard refuses the "%2F", RFC 3986 keeps
    // it as a name, and no resolver has one that decodes to example.com.
    assert_eq!(verdict(&gate, "https://exa%2Fmple.com/"), [NOT_ALLOWED]);
}

#[test]
fn no_reading_with_a_destination_fails_and_says_why() {
    let gate = allow(&["example.com"]);
    let findings = gate.judge_builtins("not a url");
    assert_eq!(findings.len(), 1);
    assert_eq!((findings[0].id, findings[0].severity), NOT_ALLOWED);
    assert_eq!(
        findings[0].detail,
        "no reading has a destination to allow: whatwg (fails), rust-url (fails), curl (fails), \
         rfc3986 (fails), http (fails)"
    );
    // A reading without a host is no destination.
    let findings = gate.judge_builtins("urn:isbn:123");
    assert_eq!(findings.len(), 1);
    assert_eq!((findings[0].id, findings[0].severity), NOT_ALLOWED);
    assert_eq!(
        findings[0].detail,
        "no reading has a destination to allow: whatwg (no host), rust-url (no host), \
         curl (fails), rfc3986 (no host), http (fails)"
    );
    // An unavailable parser is no destination either.
    let readings = vec![("java".to_owned(), Answer::unavailable("no java"))];
    let findings = gate.judge(&readings);
    assert_eq!(
        findings[0].detail,
        "no reading has a destination to allow: java (unavailable)"
    );
}

#[test]
fn a_port_entry_allows_that_port_only() {
    let gate = allow(&["example.com:8443"]);
    assert_eq!(verdict(&gate, "https://example.com:8443/"), []);
    assert_eq!(verdict(&gate, "foo://example.com:8443/"), []);
    assert_eq!(verdict(&gate, "https://example.com/"), [NOT_ALLOWED]);
    assert_eq!(verdict(&gate, "http://example.com:443/"), [NOT_ALLOWED]);
    let gate = allow(&["example.com:443"]);
    // The scheme's default port is the port a connection uses.
    assert_eq!(verdict(&gate, "https://example.com/"), []);
    assert_eq!(verdict(&gate, "http://example.com/"), [NOT_ALLOWED]);
}

#[test]
fn a_subdomain_entry_allows_subdomains_not_the_apex() {
    let gate = allow(&["*.example.com"]);
    assert_eq!(verdict(&gate, "https://a.example.com/"), []);
    assert_eq!(verdict(&gate, "https://a.B.example.com./"), []);
    assert_eq!(verdict(&gate, "https://example.com/"), [NOT_ALLOWED]);
    assert_eq!(verdict(&gate, "https://evilexample.com/"), [NOT_ALLOWED]);
    assert_eq!(
        verdict(&gate, "https://example.com.attacker.net/"),
        [NOT_ALLOWED]
    );
    let both = allow(&["*.example.com", "example.com"]);
    assert_eq!(verdict(&both, "https://example.com/"), []);
    // What stands before the parent domain must be labels a resolver reads as such.
    let reading = |host: &str| Destination {
        host: Some(HostKey::of(host)),
        port: None,
    };
    let list = Allowlist::parse(&["*.example.com"]).expect("a host");
    assert!(list.allows(&reading("a-b_c.example.com")));
    for host in [
        "attacker.net\u{0}.example.com",
        "a/b.example.com",
        ".example.com",
        "a..example.com",
    ] {
        assert!(!list.allows(&reading(host)), "{host:?}");
    }
}

#[test]
fn an_ip_allowlist_compares_addresses() {
    let gate = allow(&["127.0.0.1"]);
    assert_eq!(verdict(&gate, "http://127.0.0.1/"), []);
    assert_eq!(verdict(&gate, "http://127.0.0.1.:80/"), []);
    // Other notations are read as 127.0.0.1 by the URL Standard, as names by RFC 3986: the
    // readings part ways.
    assert_eq!(verdict(&gate, "http://0x7f.1/"), [BYPASS]);
    assert_eq!(verdict(&gate, "http://2130706433/"), [BYPASS]);
    assert_eq!(verdict(&gate, "http://[::ffff:127.0.0.1]/"), [NOT_ALLOWED]);
    let gate = allow(&["[::1]"]);
    assert_eq!(verdict(&gate, "http://[::1]/"), []);
    assert_eq!(verdict(&gate, "http://[0:0::1]/"), []);
    assert_eq!(verdict(&gate, "http://[::2]/"), [NOT_ALLOWED]);
}

#[test]
fn a_file_url_is_an_internal_destination() {
    let gate = Gate {
        allowlist: None,
        deny_internal: true,
    };
    let findings = gate.judge_builtins("file:///etc/passwd");
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert_eq!(
        (findings[0].id, findings[0].severity),
        ("internal-destination", Severity::Danger)
    );
    assert!(
        findings[0].detail.contains("whatwg"),
        "{}",
        findings[0].detail
    );
    assert_eq!(verdict(&gate, "https://example.com/"), []);
}

#[test]
fn an_inactive_gate_judges_nothing() {
    let gate = Gate::default();
    assert!(!gate.is_active());
    assert_eq!(verdict(&gate, "https://attacker.net/"), []);
    // An empty allowlist allows nothing.
    let gate = Gate {
        allowlist: Some(Allowlist::parse::<&str>(&[]).expect("a host")),
        deny_internal: false,
    };
    assert_eq!(verdict(&gate, "https://example.com/"), [NOT_ALLOWED]);
    assert!(Builtin::ALL.len() > 1);
}

fn deny_internal() -> Gate {
    Gate {
        allowlist: None,
        deny_internal: true,
    }
}

#[test]
fn an_internal_destination_names_the_readings_the_host_and_the_entry() {
    let findings = deny_internal().judge_builtins("http://127.0.0.1/");
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert_eq!(
        (findings[0].id, findings[0].severity),
        ("internal-destination", Severity::Danger)
    );
    assert_eq!(
        findings[0].detail,
        "127.0.0.1:80, loopback (IANA IPv4 Special-Purpose Address Registry: 127.0.0.0/8 \
         (RFC 1122 § 3.2.1.3)): whatwg, rust-url, curl, rfc3986, http"
    );
    // Every spelling, as each parser gives it: RFC 3986 keeps "0x7f.1", which the table reads
    // as a client does.
    // One finding for the URL, naming both destinations.
    let findings = deny_internal().judge_builtins("http://0x7f.1/");
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert_eq!(findings[0].id, "internal-destination");
    let parts: Vec<&str> = findings[0].detail.split("; ").collect();
    assert_eq!(parts.len(), 2, "{parts:?}");
    assert!(
        parts[0].starts_with(
            "127.0.0.1:80, loopback (IANA IPv4 Special-Purpose Address Registry: 127.0.0.0/8 \
             (RFC 1122 § 3.2.1.3)): whatwg"
        ) && parts[1].starts_with("0x7f.1:80, loopback")
            && parts[1].ends_with(": rfc3986, http"),
        "{parts:?}"
    );
    for input in [
        "http://localhost/",
        "http://LOCAL\u{AD}HOST./",
        "http://[::1]/",
        "http://[::ffff:127.0.0.1]/",
        "http://169.254.169.254/latest/meta-data/",
        "http://10.0.0.1/",
        "http://2130706433/",
    ] {
        let found = verdict(&deny_internal(), input);
        assert!(
            !found.is_empty()
                && found
                    .iter()
                    .all(|f| *f == ("internal-destination", Severity::Danger)),
            "input {input:?}: {found:?}"
        );
    }
    for input in [
        "https://example.com/",
        "http://8.8.8.8/",
        "http://[2001:4860::8888]/",
    ] {
        assert_eq!(verdict(&deny_internal(), input), [], "input {input:?}");
    }
}

#[test]
fn an_allowed_internal_host_is_still_internal() {
    let gate = Gate {
        allowlist: Some(Allowlist::parse(&["127.0.0.1"]).expect("a host")),
        deny_internal: true,
    };
    assert_eq!(
        verdict(&gate, "http://127.0.0.1/"),
        [("internal-destination", Severity::Danger)]
    );
    let findings = gate.judge_builtins("http://169.254.169.254/");
    let ids: Vec<&str> = findings.iter().map(|f| f.id).collect();
    assert_eq!(ids, ["not-allowed", "internal-destination"]);
    assert!(
        findings[1].detail.contains("cloud metadata"),
        "{}",
        findings[1].detail
    );
}

/// A reading as a runtime's adapter gives it: `scheme://host` with no port.
fn read_as(name: &str, scheme: &str, host: Option<&str>) -> (String, Answer) {
    (
        name.to_owned(),
        Answer {
            available: true,
            scheme: Some(scheme.to_owned()),
            host: host.map(str::to_owned),
            port: Some(String::new()),
            ..Answer::default()
        },
    )
}

#[test]
fn the_empty_host_is_no_destination() {
    // Go reads `https:/example.com`, `https:\\example.com` and `http:example.com/path` with the
    // host "": no client connects to it, so it is a refusal like a failure, never a destination
    // the allowlist must allow.
    let gate = allow(&["example.com"]);
    let readings = [
        read_as("whatwg", "https", Some("example.com")),
        read_as("go", "https", Some("")),
        read_as("python", "https", None),
    ];
    assert_eq!(gate.judge(&readings), []);
    let judged = gate.destinations(&readings);
    assert_eq!((judged[1].host.as_deref(), judged[1].allowed), (None, None));
    // Elsewhere, the empty host is named among the readings without a destination, not as a
    // destination `"":80 (not allowed)`.
    let readings = [
        read_as("whatwg", "http", Some("attacker.net")),
        read_as("go", "http", Some("")),
    ];
    let findings = gate.judge(&readings);
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert_eq!(findings[0].id, "not-allowed");
    assert_eq!(
        findings[0].detail,
        "attacker.net:80 (not allowed): whatwg; no destination: go (empty host)"
    );
    // A reading with nothing but the empty host has nothing to allow.
    let findings = gate.judge(&[read_as("go", "http", Some(""))]);
    assert_eq!(
        findings[0].detail,
        "no reading has a destination to allow: go (empty host)"
    );
    // Nor is it internal.
    assert_eq!(deny_internal().judge(&readings), []);
}

#[test]
fn a_userinfo_that_names_an_allowed_host_elsewhere_is_a_lure() {
    // Both hosts allowed: the URL passes the allowlist, but its userinfo shows a reader the
    // one it does not go to.
    let gate = allow(&["intranet.example", "files.example"]);
    let findings = gate.judge_builtins("https://intranet.example@files.example/");
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert_eq!(
        (findings[0].id, findings[0].severity),
        ("credentials-look-like-host", Severity::Danger)
    );
    assert_eq!(
        findings[0].detail,
        "\"intranet.example\" in the userinfo is an allowed host, but this URL goes to \
         files.example:443"
    );
    // Any spelling of the allowed host: its case, a percent-encoded delimiter after it.
    assert_eq!(
        verdict(&gate, "https://INTRANET.example%2F@files.example/"),
        [("credentials-look-like-host", Severity::Danger)]
    );
    // The userinfo naming the host the URL goes to imitates nothing.
    assert_eq!(verdict(&gate, "https://files.example@files.example/"), []);
    // An address entry: every notation of it in the userinfo.
    let gate = allow(&["127.0.0.1", "files.example"]);
    for input in [
        "https://127.0.0.1@files.example/",
        "https://2130706433@files.example/",
        "https://0x7f.0x0.0x0.0x1:80@files.example/",
    ] {
        assert_eq!(
            verdict(&gate, input),
            [("credentials-look-like-host", Severity::Danger)],
            "{input}"
        );
    }
}
