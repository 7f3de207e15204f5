//! What the panes show that takes work to compute, computed once per report (on each edit of
//! the Input or Base line), never per frame: the URL part of each input code point, the
//! component rows, the host rows, the base resolution summary, the Base line's own parse, and
//! the verdict line.

use crate::diff::{Comparison, Verdict as DiffVerdict};
use crate::inspect::{Finding, LabelAnalysis, PolicyDecision, Severity};
use crate::report::Report;
use crate::trace::{HostEvent, Trace};
use crate::url::host::domain_to_unicode;
use crate::url::{Component, Host};
use crate::validation::ValidationError;

use super::theme::Part;

mod resolution;

pub use crate::display::show;

/// A code point on its own, as the Trace pane shows c: a space as ␠ (a blank cell would read as
/// nothing), as the controls show as their Control Pictures; the EOF code point as "EOF".
pub fn show_c(c: Option<char>) -> String {
    match c {
        Some(' ') => "␠".to_owned(),
        Some(c) => show(c.encode_utf8(&mut [0; 4])),
        None => "EOF".to_owned(),
    }
}

/// One row of a key-value pane: what it is, its value as shown, and what `Y` copies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub kind: RowKind,
    pub key: String,
    pub value: String,
    /// A longer explanation, wrapped under the row.
    pub note: Option<String>,
    pub copy: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowKind {
    Component(Option<Part>),
    Origin,
    ParamHeading,
    Param,
    Finding(Severity),
    Info,
    Reference { failed: bool },
    Heading,
}

impl Row {
    fn new(kind: RowKind, key: impl Into<String>, value: impl Into<String>) -> Self {
        let value = value.into();
        Row {
            kind,
            key: key.into(),
            copy: value.clone(),
            value: show(&value),
            note: None,
        }
    }

    fn note(mut self, note: impl Into<String>) -> Self {
        self.note = Some(note.into());
        self
    }
}

/// The input part a component comes from (`None` for href, which is all of them).
pub fn part_of(component: Component) -> Option<Part> {
    match component {
        Component::Protocol => Some(Part::Scheme),
        Component::Username | Component::Password => Some(Part::Userinfo),
        Component::Host | Component::Hostname => Some(Part::Host),
        Component::Port => Some(Part::Port),
        Component::Pathname => Some(Part::Path),
        Component::Search => Some(Part::Query),
        Component::Hash => Some(Part::Fragment),
        Component::Href => None,
    }
}

/// The URL part each input code point ended up in, as the trace's edits show it
/// ([`Trace::input_parts`], which the classroom page colours by too).
pub fn parts(trace: &Trace, len: usize) -> Vec<Option<Part>> {
    trace
        .input_parts(len)
        .into_iter()
        .map(|p| p.map(Part::from))
        .collect()
}

/// How a validation error reads in one line.
pub fn error_text(e: &ValidationError) -> String {
    format!(
        "{} at {}..{} ({}): {}",
        e.kind, e.span.start, e.span.end, e.state, e.message
    )
}

use crate::report::verdict::verdict;
pub use crate::report::verdict::Verdict;
pub use crate::validation::fix::browsers;

#[derive(Clone, Debug, Default)]
pub struct Derived {
    pub parts: Vec<Option<Part>>,
    /// The Base line parsed on its own: its parts and validation errors.
    pub base_parts: Vec<Option<Part>>,
    pub base_errors: Vec<ValidationError>,
    pub components: Vec<Row>,
    pub host: Vec<Row>,
    pub resolution: Vec<Row>,
    pub verdict: Option<Verdict>,
    pub danger: usize,
    pub warn: usize,
    pub info: usize,
    /// The verdict of the report alone, before the gate's is put in front of it.
    plain_verdict: Option<Verdict>,
    /// How many of the first Host rows are the gate's, and how many of its findings are
    /// counted in `danger`.
    gate_rows: usize,
    gate_danger: usize,
}

impl Derived {
    pub fn of(report: &Report) -> Self {
        let len = report.input.chars().count();
        let input_parts = report
            .trace
            .as_ref()
            .map(|t| parts(t, len))
            .unwrap_or_default();
        let (base_parts, base_errors) = match &report.base {
            Some(base) if base.len() <= crate::MAX_TRACED_INPUT => {
                let own = Report::new(base, None);
                let n = base.chars().count();
                (
                    own.trace.as_ref().map(|t| parts(t, n)).unwrap_or_default(),
                    own.errors,
                )
            }
            _ => (Vec::new(), Vec::new()),
        };
        let mut d = Derived {
            parts: input_parts,
            base_parts,
            base_errors,
            ..Derived::default()
        };
        d.components = components(report);
        d.host = host_rows(report);
        d.resolution = resolution::rows(report);
        if let Some(a) = &report.host_analysis {
            for f in &a.findings {
                match f.severity {
                    Severity::Danger => d.danger += 1,
                    Severity::Warn => d.warn += 1,
                    Severity::Info => d.info += 1,
                }
            }
        }
        d.verdict = verdict(report, d.danger, d.warn, false);
        d.plain_verdict = d.verdict.clone();
        d
    }

    /// Puts the gate's verdict in front of the report's: its findings first in the Host pane
    /// and on the verdict line, with "judging…" while `pending` parsers have not answered (the
    /// verdict so far is on the readings that have).
    /// With `--resolve`, `lookups` are the lookups that have arrived, each a row;
    /// `lookups_only`: the gate asks nothing else (no allowlist, internal destinations allowed).
    pub fn set_gate(
        &mut self,
        findings: &[Finding],
        pending: &[&str],
        lookups: Option<&[crate::inspect::resolve::Lookup]>,
        lookups_only: bool,
    ) {
        self.set_gate_off();
        let Some(plain) = &self.plain_verdict else {
            return;
        };
        let judging = match pending {
            [] => String::new(),
            names => format!("judging… ({} pending)", names.join(", ")),
        };
        let mut rows: Vec<Row> = findings
            .iter()
            .map(|f| {
                let mut row = Row::new(RowKind::Finding(f.severity), f.severity.to_string(), f.id)
                    .note(show(&f.detail));
                row.copy = format!("{} {}: {}", f.severity, f.id, f.detail);
                row
            })
            .collect();
        rows.extend(lookups.unwrap_or(&[]).iter().map(lookup_row));
        let head = match findings.first() {
            Some(f) => {
                let what = match f.id {
                    "allowlist-bypass" => "allowlist bypass",
                    "internal-destination" => "internal destination",
                    "lookup-failed" => "lookup failed",
                    "resolves-internal" => "resolves inside",
                    _ => "not allowed",
                };
                let mark = match f.severity {
                    Severity::Danger => "✗",
                    _ => "⚠",
                };
                format!("{mark} {what}: {}", show(&f.detail))
            }
            None if pending.is_empty() && lookups_only => {
                "✓ no lookup gives an internal address".to_owned()
            }
            None if pending.is_empty() => "✓ allowed".to_owned(),
            None => judging.clone(),
        };
        if findings.is_empty() {
            let value = match pending.is_empty() {
                true if lookups_only => {
                    "passes: every address the lookups gave is public".to_owned()
                }
                true => "passes: every reading goes to an allowed destination".to_owned(),
                false => judging.clone(),
            };
            rows.push(Row::new(RowKind::Info, "gate", value));
        } else if !pending.is_empty() {
            rows.push(Row::new(RowKind::Info, "gate", judging.clone()));
        }
        self.gate_rows = rows.len();
        self.gate_danger = findings
            .iter()
            .filter(|f| f.severity == Severity::Danger)
            .count();
        self.danger += self.gate_danger;
        self.host.splice(0..0, rows);
        let mut text = head;
        if !findings.is_empty() && !pending.is_empty() {
            text.push_str(&format!(" · {judging}"));
        }
        text.push_str(" · ");
        text.push_str(&plain.text);
        let worst = match self.gate_danger {
            0 => plain.worst,
            _ => Some(Severity::Danger),
        };
        self.verdict = Some(Verdict { text, worst });
    }

    /// Takes the gate's verdict out again: the report's alone.
    pub fn set_gate_off(&mut self) {
        self.host.drain(..self.gate_rows.min(self.host.len()));
        self.danger -= self.gate_danger.min(self.danger);
        self.gate_rows = 0;
        self.gate_danger = 0;
        self.verdict = self.plain_verdict.clone();
    }

    /// The verdict line once the Parsers pane's readings are in: when they go elsewhere
    /// ([`crate::diff::Verdict::Elsewhere`], decided by [`crate::diff::decide`] as for `diff`),
    /// the line says so, even where the external parsers alone disagree.
    pub fn with_parsers(&mut self, report: &Report, comparison: Option<&Comparison>) {
        let elsewhere = comparison.is_some_and(|c| c.verdict() == DiffVerdict::Elsewhere);
        // The report's own counts: the gate's findings are put back on top by `set_gate`.
        self.plain_verdict = verdict(report, self.danger - self.gate_danger, self.warn, elsewhere);
        self.verdict = self.plain_verdict.clone();
    }
}

fn components(report: &Report) -> Vec<Row> {
    let Some(c) = report.components() else {
        return Vec::new();
    };
    let mut rows = Vec::new();
    for component in Component::ALL {
        let value = report
            .url
            .as_ref()
            .map(|u| u.get(component))
            .unwrap_or_default();
        rows.push(Row::new(
            RowKind::Component(part_of(component)),
            component.name(),
            value,
        ));
        if component == Component::Href {
            rows.push(Row::new(RowKind::Origin, "origin", c.origin.clone()));
        }
    }
    if !c.search_params.is_empty() {
        rows.push(Row::new(
            RowKind::ParamHeading,
            format!("query params ({})", c.search_params.len()),
            "",
        ));
    }
    rows
}

/// The row of a query parameter, built when it is drawn: a long query has a hundred thousand.
pub fn param_row(name: &str, value: &str) -> Row {
    let mut row = Row::new(RowKind::Param, show(name), value);
    row.copy = format!("{name}={value}");
    row
}

fn host_rows(report: &Report) -> Vec<Row> {
    let mut rows = Vec::new();
    let analysis = report.host_analysis.as_ref();
    if let Some(a) = analysis {
        for f in &a.findings {
            rows.push(
                Row::new(RowKind::Finding(f.severity), f.severity.to_string(), f.id)
                    .note(show(&f.detail)),
            );
            let last = rows.last_mut().expect("just pushed");
            last.copy = format!("{} {}: {}", f.severity, f.id, f.detail);
        }
        if let Some(owner) = &a.registrable_domain {
            let unicode = domain_to_unicode(owner);
            let value = if unicode == *owner {
                owner.clone()
            } else {
                format!("{owner} ({unicode})")
            };
            rows.push(
                Row::new(RowKind::Info, "owner", value)
                    .note("the registrable domain: who owns the name"),
            );
        }
        // One row per display policy: Unicode or Punycode, and the rule that decided.
        for decision in &a.display {
            let verdict = if decision.unicode {
                "shown in Unicode".to_owned()
            } else {
                format!("shown as {}", decision.shown)
            };
            let why = match (&decision.host_rule, decision.first_refusal()) {
                (Some(h), _) => format!(": {}", h.rule),
                (None, Some(l)) => match l.code_points.first() {
                    Some(c) => format!(": {} ({c})", l.rule.unwrap_or("")),
                    None => format!(": {}", l.rule.unwrap_or("")),
                },
                (None, None) => String::new(),
            };
            rows.push(Row::new(
                RowKind::Info,
                decision.policy.to_string(),
                policy_value(decision, format!("{verdict}{why}")),
            ));
        }
    }
    let host = report.url.as_ref().and_then(|u| u.record().host.clone());
    match &host {
        None => rows.push(Row::new(RowKind::Info, "host", "null (no host)")),
        Some(Host::Empty) => rows.push(Row::new(RowKind::Info, "host", "the empty host")),
        Some(Host::Opaque(s)) => {
            rows.push(
                Row::new(RowKind::Info, "opaque host", s.clone())
                    .note("not special: percent-encoded, never IDNA"),
            );
        }
        Some(Host::Domain(domain)) => {
            rows.push(Row::new(RowKind::Info, "domain", domain.clone()));
            let unicode = analysis.map_or_else(|| domain_to_unicode(domain), |a| a.unicode.clone());
            rows.push(Row::new(RowKind::Info, "Unicode", unicode));
            // Exactly what was typed (`ex%41mple.com`), not the percent-decoded buffer.
            if let Some(typed) = analysis.and_then(|a| a.typed.clone()) {
                rows.push(Row::new(RowKind::Info, "as typed", typed));
            }
            for label in analysis.map_or(&[][..], |a| a.labels.as_slice()) {
                let mut row = Row::new(
                    RowKind::Info,
                    format!("label {}", show(&label.unicode)),
                    label_value(label),
                );
                row.copy = label.ascii.clone();
                rows.push(row);
            }
            if let Some(omitted) = analysis.map(|a| a.labels_omitted).filter(|&n| n > 0) {
                rows.push(Row::new(
                    RowKind::Info,
                    "labels",
                    format!(
                        "… {omitted} more labels without a row (a DNS name has at most {})",
                        crate::inspect::host::MAX_LABEL_ROWS
                    ),
                ));
            }
        }
        Some(Host::Ipv4(address)) => {
            let ip = std::net::Ipv4Addr::from(*address);
            rows.push(Row::new(RowKind::Info, "IPv4", ip.to_string()));
            rows.push(Row::new(RowKind::Info, "integer", address.to_string()));
            rows.push(Row::new(RowKind::Info, "hex", format!("0x{address:08x}")));
            if let Some(trace) = &report.trace {
                for e in trace.host_events() {
                    if let HostEvent::Ipv4Part {
                        text,
                        radix,
                        value: Some(v),
                    } = e
                    {
                        rows.push(Row::new(
                            RowKind::Info,
                            format!("part {}", show(text)),
                            format!("radix {radix} = {v}"),
                        ));
                    }
                }
            }
        }
        Some(Host::Ipv6(pieces)) => {
            let ip = std::net::Ipv6Addr::from(*pieces);
            rows.push(Row::new(RowKind::Info, "IPv6", format!("[{ip}]")));
            let full: Vec<String> = pieces.iter().map(|p| format!("{p:04x}")).collect();
            rows.push(Row::new(RowKind::Info, "pieces", full.join(":")));
            if let Some(v4) = ip.to_ipv4_mapped() {
                rows.push(Row::new(RowKind::Info, "IPv4-mapped", v4.to_string()));
            }
        }
    }
    rows
}

/// A label row's value: its Punycode form, its scripts and its UTS 39 restriction level. A
/// label of no script (digits, symbols, emoji) says so, rather than leaving an empty column.
pub fn label_value(label: &LabelAnalysis) -> String {
    let scripts = if label.scripts.is_empty() {
        "no script".to_owned()
    } else {
        label.scripts.join("+")
    };
    format!("{} · {scripts} · {}", label.ascii, label.restriction)
}

/// A display policy's row value: the platform it decided for when its rules depend on one,
/// then its decision (`linux · shown in Unicode`).
pub fn policy_value(decision: &PolicyDecision, verdict: String) -> String {
    match decision.platform {
        Some(platform) => format!("{platform} · {verdict}"),
        None => verdict,
    }
}

/// One lookup as a Host pane row: the name, who answered, and each address with its internal
/// entry (or "public"), or why there is none.
fn lookup_row(lookup: &crate::inspect::resolve::Lookup) -> Row {
    use crate::inspect::resolve::{classify, Outcome};
    let value = match &lookup.outcome {
        Outcome::Addresses { addresses } => {
            let each: Vec<String> = addresses
                .iter()
                .map(|&a| match classify(a) {
                    Some(i) => format!("{a} ({})", i.what),
                    None => format!("{a} (public)"),
                })
                .collect();
            format!("{} → {}", lookup.name, each.join(", "))
        }
        Outcome::Failed { error } => format!("{}: no address ({error})", lookup.name),
        Outcome::TimedOut { seconds } => {
            format!("{}: no answer within {seconds} s", lookup.name)
        }
    };
    let mut row = Row::new(RowKind::Info, "lookup", show(&value)).note(lookup.by.clone());
    row.copy = format!("{value} ({})", lookup.by);
    row
}
