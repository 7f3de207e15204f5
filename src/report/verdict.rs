//! The verdict line: where the URL goes and how suspicious its host looks, in one line, as the
//! inspector and the classroom page put it above everything else.

use crate::display::{escape, EscapeStyle};
use crate::inspect::finding::FindingId;
use crate::inspect::{HostAnalysis, Severity};
use crate::report::{Outcome, Report};

/// Display text: control and invisible code points as escapes.
fn show(s: &str) -> String {
    escape(s, EscapeStyle::Symbols).into_owned()
}

/// The verdict line: where the URL goes and how suspicious the host looks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The line; every code point of the input in it is escaped ([`EscapeStyle::Symbols`]).
    pub text: String,
    pub worst: Option<Severity>,
}

impl Verdict {
    /// The verdict of `report` alone (no other parser's reading, no gate): its host
    /// analysis's findings counted by severity.
    pub fn of(report: &Report) -> Option<Verdict> {
        Verdict::judged(report, report.host_analysis.as_ref(), false)
    }

    /// The verdict of `report` with `analysis` for its host analysis, its findings counted by
    /// severity; `elsewhere` when other parsers' readings go to different destinations. The
    /// classroom page's line, its differential judged on the readings it has.
    pub fn judged(
        report: &Report,
        analysis: Option<&HostAnalysis>,
        elsewhere: bool,
    ) -> Option<Verdict> {
        let count = |severity: Severity| {
            analysis.map_or(0, |a| {
                a.findings.iter().filter(|f| f.severity == severity).count()
            })
        };
        verdict_with(
            report,
            analysis,
            count(Severity::Danger),
            count(Severity::Warn),
            elsewhere,
        )
    }
}

/// The verdict line of `report`; `elsewhere` when the Parsers pane's readings go to different
/// destinations.
pub fn verdict(report: &Report, danger: usize, warn: usize, elsewhere: bool) -> Option<Verdict> {
    verdict_with(
        report,
        report.host_analysis.as_ref(),
        danger,
        warn,
        elsewhere,
    )
}

/// [`verdict`] with `analysis` in place of the report's own host analysis: the classroom
/// page's, whose differential findings are judged on the readings the page has
/// ([`crate::inspect::host::rejudge`]).
pub fn verdict_with(
    report: &Report,
    analysis: Option<&HostAnalysis>,
    danger: usize,
    warn: usize,
    elsewhere: bool,
) -> Option<Verdict> {
    if report.input.is_empty() {
        return None;
    }
    let differential = analysis.is_some_and(|a| {
        a.findings
            .iter()
            .any(|f| f.id == FindingId::ParserDifferential.id())
    });
    let elsewhere = elsewhere || differential;
    let worst = if danger > 0 || elsewhere {
        Some(Severity::Danger)
    } else if warn > 0 {
        Some(Severity::Warn)
    } else {
        None
    };
    let text = match &report.outcome {
        Outcome::BaseFailure { cause } => format!(
            "✗ the base URL fails: {}",
            cause
                .as_ref()
                .map_or("failure".to_owned(), |c| c.kind.to_string())
        ),
        // The library's one answer, as `parse` gives it.
        Outcome::Failure { .. } => format!(
            "✗ {}",
            report
                .not_a_url()
                .map_or_else(|| "not a URL".to_owned(), |why| show(&why.message))
        ),
        Outcome::Parsed { .. } => {
            let url = report.url.as_ref();
            let host = url.map_or("", |u| u.host());
            let mut parts = Vec::new();
            if host.is_empty() {
                let protocol = url.map_or("", |u| u.protocol());
                parts.push(format!("→ {protocol} URL without a host"));
            } else {
                parts.push(format!("→ connects to {}", show(host)));
            }
            if let Some(a) = analysis {
                if let Some(owner) = a
                    .registrable_domain
                    .as_ref()
                    .filter(|o| Some(o.as_str()) != url.map(|u| u.hostname()))
                {
                    parts.push(format!("owned by {}", show(owner)));
                }
            }
            if elsewhere {
                parts.push("✗ parsers disagree on where it goes".to_owned());
            }
            if let Some(a) = analysis {
                // The differential's finding is said above, in the words of the Parsers pane.
                if let Some(f) = a.findings.iter().find(|f| {
                    f.severity == Severity::Danger && f.id != FindingId::ParserDifferential.id()
                }) {
                    parts.push(f.title.to_owned());
                }
            }
            if danger + warn == 0 && !elsewhere {
                parts.push("✓ nothing suspicious".to_owned());
            } else {
                let mut counts = Vec::new();
                if danger > 0 {
                    counts.push(format!("{danger} danger"));
                }
                if warn > 0 {
                    counts.push(format!("{warn} warn"));
                }
                if !counts.is_empty() {
                    parts.push(counts.join(" "));
                }
            }
            if !report.errors.is_empty() {
                let n = report.errors.len();
                parts.push(format!(
                    "{n} validation error{}",
                    if n == 1 { "" } else { "s" }
                ));
            }
            parts.join(" · ")
        }
    };
    Some(Verdict { text, worst })
}
