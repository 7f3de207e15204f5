//! The analysis of one parsed URL's host: its forms, labels, registrable domain, numeric forms,
//! each display policy's decision, what it imitates, and the findings.

mod differential;
mod domain;
mod input;
mod ip;
mod names;

use serde::Serialize;
use std::borrow::Cow;

pub use differential::{asked, judge, judged, parser_differential, Reading};
pub use domain::Imitation;
pub use input::credential_finding;
pub(crate) use input::userinfo_parts;
pub use ip::{ipv4_range, ipv6_range, IpAnalysis};

use super::finding::{quoted, Finding, FindingId as F};
use super::internal::{self, Destination};
use super::label::LabelAnalysis;
use super::policy::PolicyDecision;
use crate::url::{Host, Url};
use crate::validation::{Span, ValidationError};

/// What the analysis reads: the input, what the parser made of it, and where the host was.
#[derive(Clone, Copy, Debug)]
pub struct Subject<'a> {
    pub input: &'a str,
    pub url: Option<&'a Url>,
    /// The parse's validation errors.
    pub errors: &'a [ValidationError],
    /// Where in the input the host parser ran (code points), when it did.
    pub host_span: Option<Span>,
    /// Whether the input was parsed against a base (the other parsers' readings need it
    /// alone).
    pub has_base: bool,
    /// Whether to fill [`HostAnalysis::labels`], the table a reader looks at; the findings do
    /// not depend on it, and a batch that prints only findings goes without.
    pub label_table: bool,
    /// Whether to fill [`HostAnalysis::host`], [`HostAnalysis::typed`],
    /// [`HostAnalysis::unicode`], [`HostAnalysis::public_suffix`] and
    /// [`HostAnalysis::registrable_domain`] for a domain (they are empty and `None` without);
    /// the findings do not depend on it.
    pub forms: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HostAnalysis {
    /// The host as serialized (ASCII).
    pub host: String,
    /// The host exactly as typed in the input (before percent-decoding and IDNA).
    pub typed: Option<String>,
    pub unicode: String,
    pub public_suffix: Option<String>,
    /// Public suffix plus one label: the part of the name that decides who owns it.
    pub registrable_domain: Option<String>,
    /// The first [`MAX_LABEL_ROWS`] labels' rows.
    pub labels: Vec<LabelAnalysis>,
    /// How many labels past [`MAX_LABEL_ROWS`] have no row (0, and left out of the JSON, for
    /// every name DNS can hold).
    #[serde(skip_serializing_if = "is_zero")]
    pub labels_omitted: usize,
    pub ip: Option<IpAnalysis>,
    /// Each display policy's decision (empty for a host without an IDN label: every policy
    /// shows it as it is).
    pub display: Vec<PolicyDecision>,
    /// The well-known domains the host imitates.
    pub imitates: Vec<Imitation>,
    pub findings: Vec<Finding>,
}

impl HostAnalysis {
    pub fn ids(&self) -> Vec<&'static str> {
        self.findings.iter().map(|f| f.id).collect()
    }

    /// The decision of the policy named `name` (`chromium`, `firefox`, `uts39`).
    pub fn decision(&self, name: &str) -> Option<&PolicyDecision> {
        self.display.iter().find(|d| d.policy == name)
    }
}

/// The label table holds at most this many rows: a DNS name has at most 127 labels (RFC 1035
/// § 2.3.4: 255 octets, each label at least one octet and its length byte). A hostile host of
/// millions of labels would otherwise make a row each, tens of times the input's size; the
/// findings still read every label.
pub const MAX_LABEL_ROWS: usize = 127;

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Code points of the input with their positions.
fn positioned(input: &str, span: Option<Span>) -> Vec<(usize, char)> {
    let (start, end) = span.map_or((0, 0), |s| (s.start, s.end));
    let mut points = Vec::with_capacity(end.saturating_sub(start).min(input.len()));
    match ascii_slice(input, input.is_ascii(), start, end) {
        // Code point offsets are byte offsets: no decoding up to the span.
        Some(typed) => points.extend(
            typed
                .bytes()
                .enumerate()
                .map(|(i, b)| (start + i, char::from(b))),
        ),
        None => points.extend(input.chars().enumerate().skip(start).take(end - start)),
    }
    points
}

/// Code points `start..end` of an ASCII `input` (its bytes, clamped to it); `None` when the
/// input is not ASCII (`is_ascii` says, asked once by the caller), so that code point offsets
/// are not byte offsets.
fn ascii_slice(input: &str, is_ascii: bool, start: usize, end: usize) -> Option<&str> {
    let from = start.min(input.len());
    is_ascii.then(|| &input[from..end.clamp(from, input.len())])
}

/// The host as typed (the code points of the input's host span). Most rules only ask whether
/// it holds a kind of code point, which an ASCII input answers from its bytes; the code points
/// with their positions are decoded the first time a rule reads them one by one.
pub(super) struct TypedHost<'a> {
    input: &'a str,
    span: Option<Span>,
    /// The host as typed, when the input is ASCII.
    ascii: Option<&'a str>,
    points: std::cell::OnceCell<Vec<(usize, char)>>,
}

impl<'a> TypedHost<'a> {
    fn new(input: &'a str, is_ascii: bool, span: Option<Span>) -> Self {
        let (start, end) = span.map_or((0, 0), |s| (s.start, s.end));
        TypedHost {
            input,
            span,
            ascii: ascii_slice(input, is_ascii, start, end),
            points: std::cell::OnceCell::new(),
        }
    }

    /// The code points with their positions in the input.
    pub(super) fn points(&self) -> &[(usize, char)] {
        self.points
            .get_or_init(|| positioned(self.input, self.span))
    }

    /// The host as typed, as text.
    fn text(&self) -> Cow<'a, str> {
        match self.ascii {
            Some(typed) => Cow::Borrowed(typed),
            None => Cow::Owned(self.points().iter().map(|&(_, c)| c).collect()),
        }
    }

    pub(super) fn is_ascii(&self) -> bool {
        self.ascii.is_some() || self.points().iter().all(|&(_, c)| c.is_ascii())
    }

    /// Whether the input is ASCII and the host as typed is `text`, byte for byte.
    pub(super) fn is_ascii_text(&self, text: &str) -> bool {
        self.ascii == Some(text)
    }

    pub(super) fn has_ascii_uppercase(&self) -> bool {
        match self.ascii {
            Some(typed) => typed.bytes().any(|b| b.is_ascii_uppercase()),
            None => self.points().iter().any(|&(_, c)| c.is_ascii_uppercase()),
        }
    }

    /// The last code point, with its position.
    pub(super) fn last(&self) -> Option<(usize, char)> {
        match (self.ascii, self.span) {
            (Some(typed), Some(span)) => typed
                .bytes()
                .next_back()
                .map(|b| (span.start + typed.len() - 1, char::from(b))),
            _ => self.points().last().copied(),
        }
    }
}

/// The finding for a host that is an internal destination; `typed`, the host as typed, is
/// named when IDNA or percent-decoding made the destination of it.
fn internal_finding(destination: &Destination, typed: Option<&str>) -> Finding {
    let id = if destination.internal.cloud_metadata {
        F::CloudMetadata
    } else if destination.internal.name {
        F::InternalName
    } else {
        F::InternalAddress
    };
    let mut detail = String::new();
    if let Some(typed) = typed {
        let plain = typed.trim_end_matches('.').to_ascii_lowercase();
        if plain != destination.host {
            let how = if typed.contains('%') {
                "percent-decoding and IDNA"
            } else {
                "IDNA"
            };
            detail = format!("{} is {} after {how}: ", quoted(typed), destination.host);
        }
    }
    detail.push_str(&destination.describe());
    Finding::new(id, detail)
}

/// The finding for an opaque host that spells an internal destination.
fn opaque_internal_finding(opaque: &str, destination: &Destination) -> Finding {
    let mut finding = internal_finding(destination, None);
    finding.detail = format!(
        "the opaque host {} is never read as an address or a name by the URL Standard, but a \
         client connects to {}: {}",
        quoted(opaque),
        destination.host,
        finding.detail
    );
    finding
}

/// Analyses the subject's host; for an input that did not parse, only the findings about the
/// input as a whole.
pub fn analyse(subject: &Subject<'_>) -> Option<HostAnalysis> {
    if subject.input.is_empty() {
        return None;
    }
    let mut findings = Vec::new();
    // Whether the input is ASCII, asked once of its every byte.
    let is_ascii = subject.input.is_ascii();
    input::code_point_findings(subject, is_ascii, &mut findings);
    input::validation_findings(subject, &mut findings);
    input::scheme_findings(subject, &mut findings);
    // A domain is read where the URL keeps it; the other hosts are built.
    let domain = subject.url.and_then(Url::domain);
    let host = match domain {
        Some(_) => None,
        None => subject.url.and_then(Url::host_record),
    };
    let typed_host = TypedHost::new(subject.input, is_ascii, subject.host_span);
    let typed = subject.host_span.map(|_| typed_host.text());

    let mut analysis = HostAnalysis {
        host: String::new(),
        typed: None,
        unicode: String::new(),
        public_suffix: None,
        registrable_domain: None,
        labels: Vec::new(),
        labels_omitted: 0,
        ip: None,
        display: Vec::new(),
        imitates: Vec::new(),
        findings: Vec::new(),
    };
    let serialized = match (domain, host) {
        // A domain serializes as itself: its string is the serialization.
        (Some(domain), _) => {
            let d = domain::analyse(subject, domain, &typed_host, &mut findings);
            analysis.unicode = d.unicode;
            analysis.public_suffix = d.public_suffix;
            analysis.registrable_domain = d.registrable_domain;
            analysis.labels = d.labels;
            analysis.labels_omitted = d.labels_omitted;
            analysis.display = d.display;
            analysis.imitates = d.imitates;
            // `classify` answers `None` at once for a plainly public name, which the name's
            // remembered answers already say.
            if !d.plainly_public {
                if let Some(destination) = internal::classify(domain) {
                    findings.push(internal_finding(&destination, typed.as_deref()));
                }
            }
            // Without the forms, the name and the host as typed are not copied either.
            if subject.forms {
                analysis.typed = typed.map(Cow::into_owned);
                analysis.host = domain.to_owned();
            }
            domain
        }
        // Without a URL (or a host), only what the whole input shows can be said.
        (None, None) => {
            analysis.typed = typed.map(Cow::into_owned);
            analysis.findings = findings;
            return Some(analysis);
        }
        (None, Some(host)) => {
            analysis.typed = typed.map(Cow::into_owned);
            let mut serialized = String::new();
            host.serialize_into(&mut serialized);
            match &host {
                Host::Ipv4(address) => {
                    let typed = analysis.typed.as_deref().unwrap_or("");
                    analysis.ip = Some(ip::ipv4(*address, typed, subject.host_span, &mut findings));
                }
                Host::Ipv6(pieces) => analysis.ip = Some(ip::ipv6(*pieces, &mut findings)),
                // A non-special URL's host is opaque: never read as an address or a name by
                // the standard, yet curl and every other client connects to what it spells.
                Host::Opaque(opaque) => {
                    if let Some(destination) = internal::classify(opaque) {
                        findings.push(opaque_internal_finding(opaque, &destination));
                    }
                }
                Host::Domain(_) | Host::Empty => {}
            }
            analysis.unicode.clone_from(&serialized);
            analysis.host = serialized;
            &analysis.host
        }
    };
    let span = subject.host_span.unwrap_or(Span { start: 0, end: 0 });
    let (differential, verdict) = differential::findings(subject, serialized, span);
    findings.extend(differential);
    // Credentials are judged by their consequence: after the readings are compared.
    input::credential_findings(
        subject,
        differential::one_destination(subject, serialized, verdict),
        &mut findings,
    );
    findings.sort_by(|a, b| b.severity.cmp(&a.severity).then(a.id.cmp(b.id)));
    analysis.findings = findings;
    Some(analysis)
}

/// `analysis` (of `subject`) with its differential findings judged on `comparison`'s readings
/// ([`judge`]) rather than on the built-in parsers' that [`analyse`] reads: for a front end
/// whose readings come from elsewhere (the classroom page's Web Workers). The other findings
/// stay; the findings are sorted as [`analyse`] sorts them.
pub fn rejudge(
    analysis: &mut HostAnalysis,
    subject: &Subject<'_>,
    comparison: &crate::diff::Comparison,
) {
    let differential = [F::ParserDifferential.id(), F::ParserRefuses.id()];
    analysis.findings.retain(|f| !differential.contains(&f.id));
    // [`analyse`] judges the differential only for a URL with a host.
    if subject.url.and_then(Url::host_record).is_none() {
        return;
    }
    let span = subject.host_span.unwrap_or(Span { start: 0, end: 0 });
    let judged = judge(subject, &analysis.host, span, comparison);
    analysis.findings.extend(judged);
    // The credentials' severity follows the readings given.
    let credentials = [F::Credentials.id(), F::CredentialsLookLikeHost.id()];
    analysis.findings.retain(|f| !credentials.contains(&f.id));
    let verdict =
        differential::judged(subject, &analysis.host).then_some(comparison.decision.verdict);
    input::credential_findings(
        subject,
        differential::one_destination(subject, &analysis.host, verdict),
        &mut analysis.findings,
    );
    analysis
        .findings
        .sort_by(|a, b| b.severity.cmp(&a.severity).then(a.id.cmp(b.id)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inspect::known::skeleton_of;
    use crate::Report;

    fn analysed(input: &str) -> Option<HostAnalysis> {
        let report = Report::new(input, None);
        analyse(&report.subject())
    }

    #[test]
    fn the_known_domain_lookups_of_a_long_host_hash_a_bounded_amount() {
        // 50,000 labels: each suffix and each run of labels is a candidate, and hashing every
        // candidate whole (as before keys longer than any listed domain were skipped) hashed
        // about a gigabyte here; the hostile bench found it.
        hashes_at_most_twice_its_length(&format!("https://{}com/", "a.".repeat(50_000)));
    }

    /// The analysis of `input` hashes at most twice the input's length for its lookups.
    fn hashes_at_most_twice_its_length(input: &str) {
        let report = Report::new(input, None);
        let before = crate::inspect::known::hashed_bytes();
        assert!(analyse(&report.subject()).is_some());
        let hashed = crate::inspect::known::hashed_bytes() - before;
        assert!(
            hashed <= 2 * input.len(),
            "{hashed} bytes hashed for a host of {} bytes",
            input.len()
        );
    }

    #[test]
    fn the_lookups_of_a_long_hyphenated_idn_are_bounded() {
        // The look-alike questions (words of a name, edits, folded suffixes) on a hostile
        // name of hyphenated words and IDN labels: a linear amount of hashing, not a square.
        hashes_at_most_twice_its_length(&format!(
            "https://{}{}p\u{e4}ypal.com/",
            "paypal-com-".repeat(20_000),
            "x\u{e9}.".repeat(5_000)
        ));
    }

    #[test]
    fn long_labels_of_what_the_rules_look_for_are_analysed() {
        // Each of these once cost its length squared in one rule or another (a scan back for
        // the last script, a search of the typed label per code point, a set of marks kept in
        // a list); 40,000 code points squared would not finish.
        let n = 40_000;
        let labels = [
            "\u{30FC}".repeat(n),
            "\u{30A2}".repeat(n) + "\u{3078}\u{30A2}",
            "\u{0441}".repeat(n),
            "\u{0967}".repeat(n),
            format!("a{}", "\u{0301}\u{0300}\u{0302}".repeat(n / 3)),
            "\u{4E00}".repeat(n) + "a",
        ];
        for label in labels {
            let input = format!("https://{label}.com/");
            let analysis = analysed(&input);
            assert!(analysis.is_some(), "{} code points", label.chars().count());
        }
    }

    fn ids(input: &str) -> Vec<&'static str> {
        analysed(input).map(|a| a.ids()).unwrap_or_default()
    }

    #[test]
    fn the_label_table_stops_at_the_most_labels_a_dns_name_has() {
        let rows = |labels: usize| {
            let input = format!("https://{}com/", "a.".repeat(labels - 1));
            let analysis = analysed(&input).expect("analysis");
            (analysis.labels.len(), analysis.labels_omitted)
        };
        assert_eq!(rows(MAX_LABEL_ROWS), (MAX_LABEL_ROWS, 0));
        assert_eq!(rows(1_000), (MAX_LABEL_ROWS, 1_000 - MAX_LABEL_ROWS));
        // A million labels: the rows stay 127, and the JSON says how many were left out.
        let input = format!("https://{}com/", "a.".repeat(999_999));
        let report = Report::new(&input, None);
        let analysis = report.host_analysis.as_ref().expect("analysis");
        assert_eq!(analysis.labels.len(), MAX_LABEL_ROWS);
        let json = serde_json::to_value(analysis).expect("JSON");
        assert_eq!(json["labels_omitted"], 1_000_000 - MAX_LABEL_ROWS);
        // A name DNS can hold has no such key.
        let short = serde_json::to_value(analysed("https://a.b.example/").expect("analysis"))
            .expect("JSON");
        assert!(short.get("labels_omitted").is_none(), "{short}");
    }

    #[test]
    fn a_plain_url_has_no_findings() {
        assert_eq!(ids("https://example.com/"), Vec::<&str>::new());
    }

    /// The detail of the finding with id `id` for `input`.
    fn detail(input: &str, id: &str) -> String {
        analysed(input)
            .and_then(|a| a.findings.into_iter().find(|f| f.id == id))
            .map(|f| f.detail)
            .unwrap_or_else(|| panic!("{input:?}: no {id}"))
    }

    #[test]
    fn an_internal_name_is_named_with_its_source() {
        assert_eq!(
            detail("http://localhost/", "internal-name"),
            "localhost is a loopback name (RFC 6761 § 6.3): a server that fetches this URL \
             fetches from itself"
        );
        // IDNA ignores the soft hyphen: the finding says what the typed host became.
        assert_eq!(
            detail("http://local\u{AD}host/", "internal-name"),
            "\"local\\u{AD}host\" is localhost after IDNA: localhost is a loopback name \
             (RFC 6761 § 6.3): a server that fetches this URL fetches from itself"
        );
        assert_eq!(
            detail("http://metadata.google.internal/", "cloud-metadata"),
            "metadata.google.internal is a cloud metadata endpoint (Google Compute Engine \
             metadata server documentation: metadata.google.internal): a server that fetches \
             this URL can hand over its cloud credentials"
        );
    }

    #[test]
    fn an_opaque_host_is_read_as_a_client_reads_it() {
        assert_eq!(
            detail("gopher://127.0.0.1:6379/_FLUSHALL", "internal-address"),
            "the opaque host \"127.0.0.1\" is never read as an address or a name by the URL \
             Standard, but a client connects to 127.0.0.1: 127.0.0.1 is in loopback address \
             space (IANA IPv4 Special-Purpose Address Registry: 127.0.0.0/8 (RFC 1122 § \
             3.2.1.3)): a server that fetches this URL fetches from itself"
        );
        assert!(detail("ldap://169.254.169.254/", "cloud-metadata")
            .starts_with("the opaque host \"169.254.169.254\" is never read"));
        assert_eq!(ids("redis://example.com/"), Vec::<&str>::new());
    }

    #[test]
    fn the_typed_host_is_what_was_typed() {
        let typed = |input: &str| analysed(input).and_then(|a| a.typed);
        assert_eq!(
            typed("https://ex%41mple.com/").as_deref(),
            Some("ex%41mple.com")
        );
        assert_eq!(
            typed("https://EXAMPLE.com/").as_deref(),
            Some("EXAMPLE.com")
        );
        assert_eq!(typed("http://0x7f.1/").as_deref(), Some("0x7f.1"));
    }

    /// Inputs for the shortcuts below: hosts of every kind, typed in every way the parser
    /// accepts.
    const INPUTS: &[&str] = &[
        "https://example.com/",
        "https://www.example.com/path?q=1",
        "https://WWW.Example.COM/",
        "https://example.com./",
        "https://a..b.example/",
        "https://sub.example.co.uk/a",
        "http://localhost:8080/",
        "https://user:pass@example.com:8443/",
        "https://a@b@example.com/",
        "http://evil.example\\@good.example/",
        "https://evil.example\\good.example/",
        "https:example.com",
        "https:/example.com",
        "https:////example.com",
        "  https://example.com/  ",
        "https://exa\tmple.com/",
        "https://example.com\n/",
        "https://%65xample.com/",
        "https://ex%41mple.com/",
        "https://m\u{fc}nchen.de/",
        "https://xn--mnchen-3ya.de/",
        "https://mail.b\u{fc}cher.\u{4f8b}\u{3048}.jp/",
        "https://\u{430}\u{440}\u{440}\u{4cf}\u{435}.com/",
        "https://\u{ff45}\u{ff58}\u{ff41}\u{ff4d}\u{ff50}\u{ff4c}\u{ff45}\u{3002}com/",
        "https://fa\u{df}.de/",
        "https://a\u{200d}b.example/",
        "https://xn--a.example/",
        "https://xn--80ak6aa92e.com/",
        "http://0x7f.1/",
        "http://2130706433/",
        "http://0177.0.0.1/",
        "http://127.1/",
        "http://[::1]/",
        "http://[::ffff:127.0.0.1]:80/",
        "http://[0:0:0:0:0:0:0:1]/",
        "file:///etc/hosts",
        "file://localhost/x",
        "file://LOCALHOST/x",
        "file://host/share",
        "file://C:/x",
        "ws://example.com/",
        "ftp://ftp.example.com/",
        "https://www.paypal.com.evil.example/",
        "https://paypal-com.evil.co.uk/",
    ];

    #[test]
    fn digit_look_alikes_read_as_their_skeletons_say() {
        // UTS 39's confusables decide for every code point they map that the fold table does
        // not read otherwise (৭ is a q to the browsers).
        let code_points = (0..0x3_0000)
            .filter_map(char::from_u32)
            .filter(|c| !c.is_ascii() && (c.is_numeric() || u32::from(*c) % 61 == 0));
        for c in code_points {
            let skeleton = skeleton_of(&c.to_string());
            if crate::inspect::lookalike::fold(c).is_none()
                && skeleton.len() == 1
                && skeleton.as_bytes()[0].is_ascii_digit()
            {
                assert!(crate::inspect::lookalike::reads_as_digit(c), "{c:?}");
            }
        }
    }

    #[test]
    fn labels_split_like_split() {
        for s in [
            "",
            ".",
            "a",
            "a.b",
            ".a.",
            "a..b",
            "www.example.com.",
            "\u{fc}.\u{4f8b}",
        ] {
            assert_eq!(
                domain::labels(s).collect::<Vec<_>>(),
                s.split('.').collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn positions_of_ascii_input_skip_the_decoding() {
        for input in INPUTS {
            let count = input.chars().count();
            for (start, end) in [
                (0, 0),
                (0, count),
                (3, 9),
                (8, count + 4),
                (count, count + 1),
            ] {
                let span = Some(Span { start, end });
                let slow: Vec<(usize, char)> = input
                    .chars()
                    .enumerate()
                    .skip(start)
                    .take(end - start)
                    .collect();
                assert_eq!(positioned(input, span), slow, "{input:?} {start}..{end}");
            }
        }
    }

    #[test]
    fn one_public_suffix_lookup_gives_both() {
        let domains = [
            "com",
            "com.",
            "example.com",
            "example.com.",
            "www.example.com",
            "a.b.example.co.uk",
            "co.uk",
            "localhost",
            "xn--p1ai",
            "xn--e1afmkfd.xn--p1ai",
            "github.io",
            "user.github.io",
            "a..b.example",
            ".",
            "..",
            "1.2.3",
        ];
        for d in domains {
            assert_eq!(
                domain::suffix_and_registrable(d),
                (
                    psl::suffix_str(d).map(str::to_owned),
                    psl::domain_str(d).map(str::to_owned)
                ),
                "{d:?}"
            );
        }
    }

    #[test]
    fn an_ascii_domain_without_xn_is_its_own_unicode_form() {
        let domains = [
            "example.com",
            "example.com.",
            "a..b",
            "-a-.b-",
            "a_b.example",
            "localhost",
            "123.example",
            "axn-b.example",
            "xn-.example",
            "ab--cd.example",
        ];
        for d in domains {
            assert_eq!(
                domain::to_unicode_cow(d),
                crate::url::host::domain_to_unicode(d),
                "{d:?}"
            );
        }
    }

    #[test]
    fn a_host_typed_alone_parses_to_the_same_host() {
        // The differential shortcut: the typed host, between "scheme://" and "/", is what the
        // re-parse would see.
        for input in INPUTS {
            let report = Report::new(input, None);
            let Some(url) = &report.url else { continue };
            let Some(host) = &url.record().host else {
                continue;
            };
            let typed: String = positioned(input, report.host_span)
                .into_iter()
                .map(|(_, c)| c)
                .collect();
            if !url.record().is_special()
                || report.host_span.is_none()
                || typed.contains(|c: char| c.is_control())
            {
                continue;
            }
            let reparsed = crate::url::Url::parse(&format!("{}://{typed}/", url.scheme()), None)
                .ok()
                .and_then(|u| u.record().host.clone());
            assert_eq!(reparsed.as_ref(), Some(host), "{input:?} typed {typed:?}");
        }
    }

    #[test]
    fn the_differential_finding_names_the_built_in_parsers_that_disagree() {
        // libcurl takes `example.com\` for the userinfo and evil.com for the host; rust-url
        // reads the backslash as we do; RFC 3986 and the http crate reject the input.
        let analysis = analysed("http://example.com\\@evil.com").expect("analysis");
        let finding = analysis
            .findings
            .iter()
            .find(|f| f.id == "parser-differential")
            .expect("a parser-differential finding");
        // curl's userinfo is `example.com\`: shown as it is, between plain quotes.
        assert_eq!(
            finding.detail,
            r#"this URL goes to "example.com" here (WHATWG), but curl reads the host as "evil.com" with userinfo "example.com\" (backslash); rfc3986 refuses "\" in the userinfo; http refuses it"#
        );
        // Where every built-in parser goes to our destination, there is no finding: curl keeps
        // a Unicode host as typed and maps it as we do when it connects.
        for input in ["https://user@example.com/a\\b", "https://BÜCHER.de/"] {
            let ids = analysed(input).expect("analysis").ids();
            assert!(!ids.contains(&"parser-differential"), "{input:?}: {ids:?}");
        }
        // A host kept as typed is another destination, as `diff` counts it, where a client
        // cannot map it to ours alone: another IPv4 notation, a deviation character (which
        // IDNA2003 maps to "fass.de").
        for (input, detail) in [
            (
                "http://0x7f.1/",
                r#"this URL goes to "127.0.0.1" here (WHATWG), but rfc3986 reads the host as "0x7f.1"; http reads the host as "0x7f.1" (IPv4 notation)"#,
            ),
            (
                "https://fa\u{df}.de/",
                "this URL goes to \"xn--fa-hia.de\" here (WHATWG), but curl reads the host as \"fa\u{df}.de\" (IDN); rfc3986 refuses \"\u{df}\" in the host; http refuses it",
            ),
        ] {
            let analysis = analysed(input).expect("analysis");
            let finding = analysis
                .findings
                .iter()
                .find(|f| f.id == "parser-differential")
                .expect("a parser-differential finding");
            assert_eq!(finding.detail, detail, "{input:?}");
        }
    }

    #[test]
    fn the_readings_given_are_judged_and_those_missing_named() {
        use crate::diff::{compare, Answer, Builtin};
        let input = "http://example.com\\@evil.com/";
        let report = Report::new(input, None);
        let subject = report.subject();
        let read = |b: Builtin| (b.name().to_owned(), b.read(input, None));
        // The terminal's readings, passed in: the same findings as the analysis made.
        let all = compare(input, None, Builtin::ALL.into_iter().map(read).collect());
        let mut analysis = report.host_analysis.clone().expect("analysis");
        rejudge(&mut analysis, &subject, &all);
        assert_eq!(Some(&analysis), report.host_analysis.as_ref());
        // Without curl's reading (a page whose libcurl has not answered) and without Java's:
        // they are named, with why, and neither counts as agreeing.
        let mut answers: Vec<(String, Answer)> = Builtin::ALL
            .into_iter()
            .filter(|b| b.name() != "curl")
            .map(read)
            .collect();
        answers.insert(
            2,
            ("curl".into(), Answer::unavailable("waiting for its answer")),
        );
        answers.push(("java".into(), Answer::unavailable("terminal only")));
        let some = compare(input, None, answers);
        rejudge(&mut analysis, &subject, &some);
        let refuses = analysis
            .findings
            .iter()
            .find(|f| f.id == "parser-refuses")
            .expect("parser-refuses over the readings given");
        assert_eq!(
            refuses.detail,
            "every parser that reads it goes to example.com:80; rfc3986 refuses \"\\\" in the \
             userinfo; http refuses it (read by whatwg, rust-url, rfc3986, http; without curl: \
             waiting for its answer; java: terminal only)"
        );
        assert!(!analysis.ids().contains(&"parser-differential"));
        assert_eq!(
            some.headline(),
            "refused by rfc3986, http; whatwg, rust-url agree"
        );
        // A URL whose authority is its host is not judged, whatever the readings say.
        let plain = Report::new("https://example.com/", None);
        let mut analysis = plain.host_analysis.clone().expect("analysis");
        rejudge(&mut analysis, &plain.subject(), &all);
        assert!(analysis
            .findings
            .iter()
            .all(|f| !f.id.starts_with("parser-")));
    }

    #[test]
    fn the_differential_finding_names_every_reading() {
        let readings = [
            Reading {
                parser: "rfc3986".to_owned(),
                host: Some("evil.example".to_owned()),
                ports: None,
                userinfo: None,
                class: None,
            },
            Reading {
                parser: "rust-url".to_owned(),
                host: Some("other.example".to_owned()),
                ports: Some(("81".to_owned(), "443".to_owned())),
                userinfo: Some("u".to_owned()),
                class: Some("backslash"),
            },
            Reading {
                parser: "curl".to_owned(),
                host: None,
                ports: None,
                userinfo: None,
                class: None,
            },
        ];
        let span = Span { start: 8, end: 20 };
        assert_eq!(parser_differential("good.example", &[], span), None);
        let finding = parser_differential("good.example", &readings, span).expect("finding");
        assert_eq!(finding.id, "parser-differential");
        assert!(finding
            .detail
            .contains("rfc3986 reads the host as \"evil.example\""));
        assert!(finding.detail.contains(
            "rust-url reads the host as \"other.example\" with userinfo \"u\", port 81 (WHATWG: 443)"
        ));
        assert!(finding
            .detail
            .ends_with("curl reads no host (the local machine) (backslash)"));
    }
}

#[cfg(test)]
mod credential_tests {
    use super::*;
    use crate::inspect::Severity;
    use crate::Report;

    /// The credentials finding of `input`: its id, severity and detail.
    fn credentials(input: &str) -> (&'static str, Severity, String) {
        let report = Report::new(input, None);
        let analysis = report.host_analysis.expect("analysis");
        let f = analysis
            .findings
            .into_iter()
            .find(|f| f.id.starts_with("credentials"))
            .unwrap_or_else(|| panic!("{input:?}: no credentials finding"));
        (f.id, f.severity, f.detail)
    }

    #[test]
    fn a_host_shaped_userinfo_where_every_reading_goes_to_the_host_is_a_warning() {
        // Every built-in parser goes to example.com: the userinfo can mislead a reader only.
        for input in [
            "https://attacker.net@example.com/",
            "https://attacker.net%2f@example.com/",
            "https://foo@attacker.net:443@example.com/",
            "http://W4Acq9GFz6Y1t9E@0x7f.0x0.0x0.0x1:80@example.com/",
            "http://example.com+&@example.com#+@2130706433:80/",
            // Every spelling of an address alike: dotless, dotted, bracketed.
            "http://2130706433@example.com/",
            "http://127.0.0.1@example.com/",
            "http://[::ffff:127.0.0.1]@example.com/",
            "http://%5B::1%5D@example.com/",
        ] {
            let (id, severity, detail) = credentials(input);
            assert_eq!(
                (id, severity),
                ("credentials-look-like-host", Severity::Warn),
                "{input:?}: {detail}"
            );
            assert!(
                detail.ends_with(
                    "but every parser that reads this URL goes to example.com: it can mislead \
                     a reader, not a client"
                ),
                "{input:?}: {detail}"
            );
        }
        assert_eq!(
            credentials("https://attacker.net@example.com/").2,
            "\"attacker.net\" in the userinfo looks like a host, but every parser that reads \
             this URL goes to example.com: it can mislead a reader, not a client"
        );
    }

    #[test]
    fn a_userinfo_that_imitates_a_well_known_host_or_goes_elsewhere_is_a_danger() {
        // The phishing lure: a well-known domain that is not where the URL goes.
        let (id, severity, detail) = credentials("https://paypal.com@evil.example/");
        assert_eq!(
            (id, severity),
            ("credentials-look-like-host", Severity::Danger)
        );
        assert!(
            detail.ends_with("paypal.com is a well-known domain"),
            "{detail}"
        );
        // Spelled out in a longer name, as `known-domain-in-subdomain` reads a host.
        let (id, severity, detail) = credentials("https://paypal.com.evil.co.uk@example.com/");
        assert_eq!(
            (id, severity),
            ("credentials-look-like-host", Severity::Danger)
        );
        assert!(
            detail.ends_with("paypal.com is a well-known domain"),
            "{detail}"
        );
        // Not when it spells the URL's own host.
        let (_, severity, _) = credentials("https://www.paypal.com.x.example@paypal.com/");
        assert_eq!(severity, Severity::Warn);
        // A reading goes elsewhere: RFC 3986 and the http crate keep the host "0x7f.1", which
        // the URL Standard reads as 127.0.0.1.
        let (id, severity, detail) = credentials("http://attacker.net@0x7f.1/");
        assert_eq!(
            (id, severity),
            ("credentials-look-like-host", Severity::Danger),
            "{detail}"
        );
        // The URL's own host in its userinfo imitates nothing.
        let (id, severity, _) = credentials("https://paypal.com@paypal.com/");
        assert_eq!(
            (id, severity),
            ("credentials-look-like-host", Severity::Warn)
        );
    }

    #[test]
    fn rejudged_readings_settle_the_credentials_again() {
        use crate::diff::{compare, Answer, Builtin};
        // A tab makes the built-in parsers read it (RFC 3986's and the http crate's refuse
        // it): every one that reads it goes to example.com.
        let input = "https://attacker.net@exam\tple.com/";
        let report = Report::new(input, None);
        let subject = report.subject();
        let mut analysis = report.host_analysis.clone().expect("analysis");
        assert_eq!(credentials(input).1, Severity::Warn);
        // A reading that goes to attacker.net makes the userinfo a danger.
        let mut answers: Vec<(String, Answer)> = Builtin::ALL
            .into_iter()
            .map(|b| (b.name().to_owned(), b.read(input, None)))
            .collect();
        answers[1].1.host = Some("attacker.net".to_owned());
        rejudge(&mut analysis, &subject, &compare(input, None, answers));
        let f = analysis
            .findings
            .iter()
            .find(|f| f.id == "credentials-look-like-host")
            .expect("finding");
        assert_eq!(f.severity, Severity::Danger);
        assert_eq!(analysis.findings[0].severity, Severity::Danger);
    }
}
