//! The page's model: what the classroom page shows for one input and base, read from the
//! library's [`Report`] as the terminal inspector reads it (the verdict line, the Input line's
//! parts, Components, Validation errors with their fixes, the Trace), as plain data for the DOM.
//!
//! Every string that comes from the input and is meant to be *read* is given escaped
//! ([`show`]: controls, bidi controls and invisible code points as visible escapes), so that a
//! hostile input cannot reorder or hide what the page shows; what is meant to be *used* (a
//! fixed input, a component's value to copy, the command) is exact.

use serde::Serialize;
use urlscope::display::Handout;
use urlscope::report::verdict::Verdict;
use urlscope::report::{Outcome, Report};
use urlscope::trace::{Part, Trace};
use urlscope::url::explain::Section;
use urlscope::url::Phase;
use urlscope::validation::fix::{self, Fixer};
use urlscope::validation::NotAUrl;

/// Past this many code points the Input line is shown without parts, as one run: a 1 MB
/// paste would otherwise make a DOM element per delimiter.
pub const MAX_COLOURED: usize = 16 * 1024;

/// How many trace rows the page shows around the selected step.
pub const TRACE_WINDOW: usize = 101;

pub use urlscope::display::show;

/// One screen of the page.
#[derive(Debug, Serialize)]
pub struct Page {
    /// The input (the page has it already: not serialized).
    #[serde(skip)]
    pub input: String,
    /// The input's length in code points.
    pub length: usize,
    pub base: Option<String>,
    /// "parsed", "failure" or "base-failure".
    pub outcome: &'static str,
    pub verdict: Option<VerdictLine>,
    /// The Input line: runs of code points that ended up in one part, with or without an error.
    pub runs: Vec<Run>,
    /// Whether the Input line is coloured (the input has at most [`MAX_COLOURED`] code points
    /// and was traced).
    pub coloured: bool,
    /// The URL API's getters, in the inspector's order (`None` when nothing parsed).
    pub components: Option<Vec<Component>>,
    pub params: Vec<(String, String)>,
    pub errors: Vec<Error>,
    /// Why the base failed, with its errors.
    pub base_errors: Vec<Error>,
    pub trace: Option<TraceSummary>,
}

#[derive(Debug, Serialize)]
pub struct VerdictLine {
    pub text: String,
    /// "danger", "warn", or `None`.
    pub worst: Option<String>,
}

#[derive(Debug, PartialEq, Eq, Serialize)]
pub struct Run {
    /// The run's code points, escaped ([`show`]).
    pub text: String,
    pub start: usize,
    pub end: usize,
    pub part: Option<Part>,
    /// Whether a validation error's span covers the run.
    pub error: bool,
}

#[derive(Debug, Serialize)]
pub struct Component {
    pub name: &'static str,
    /// The exact value (for copying and for comparison with the browser's reading).
    pub value: String,
    /// Whether the URL record's field behind the getter is null (no host, port, query or
    /// fragment), which the getter returns as the empty string too: the page shows "(empty
    /// string: null in the record)" for it and "(empty string)" for an empty value that is
    /// there (`file:///x`'s host, `https://h/?`'s query).
    pub absent: bool,
    pub part: Option<Part>,
}

#[derive(Debug, Serialize)]
pub struct Error {
    pub name: &'static str,
    pub start: usize,
    pub end: usize,
    /// How many errors the entry stands for (more than one past the repeat limit).
    pub count: usize,
    pub state: String,
    /// The standard's section of the state that raised it.
    pub link: Option<String>,
    pub explanation: String,
    /// Whether browsers accept the URL with it.
    pub effect: String,
    pub fix: Option<ErrorFix>,
}

/// An error's fix as the screen shows it. The input it makes (what a click puts in the Input
/// box) is not part of it: an input can raise an error per code point, and a copy of the
/// input per error is what made a 2 KB input's screen 0.5 MB; [`fixed_input`] makes it when
/// the fix is clicked.
#[derive(Debug, Serialize)]
pub struct ErrorFix {
    /// Whether the fixed input parses to the same href.
    pub same_href: bool,
    /// Whether the fix is the failure's: it makes an input that is not a URL parse.
    pub makes_url: bool,
    /// The edits in words.
    pub words: String,
}

#[derive(Debug, Serialize)]
pub struct TraceSummary {
    pub steps: usize,
    pub failed: bool,
}

/// One row of the Trace table.
#[derive(Debug, Serialize)]
pub struct TraceRow {
    pub index: usize,
    pub state: &'static str,
    /// `None` for the preprocessing steps, which have no pointer.
    pub pointer: Option<usize>,
    /// The code point, escaped; "EOF" past the end.
    pub c: Option<String>,
    pub buffer: String,
    /// What the step changed, in the trace's compact form (`path+=[C:]`, `pointer−1`).
    pub changes: Vec<String>,
    pub error: bool,
}

/// The selected step in full.
#[derive(Debug, Serialize)]
pub struct StepDetail {
    pub row: TraceRow,
    /// The standard's step that decided what this step did, and its link.
    pub spec: Option<SpecCitation>,
    /// Every step of the standard it took, explained.
    pub explained: Vec<Explained>,
    /// The host parser's sub-steps.
    pub host: Vec<Explained>,
    /// What comes after this step, to be read under "next state": the state the next step runs
    /// in, or, after step 0, that no state runs yet (the basic URL parser's steps 1 to 3,
    /// removing C0 controls, spaces, tabs and newlines, come before its state machine), or that
    /// the parser returns.
    pub next: String,
    /// The URL record after the step, field by field.
    pub record: Vec<(&'static str, String)>,
}

#[derive(Debug, Serialize)]
pub struct SpecCitation {
    pub section: &'static str,
    pub step: &'static str,
    pub url: String,
}

#[derive(Debug, Serialize)]
pub struct Explained {
    pub step: String,
    pub explanation: String,
    pub url: Option<String>,
}

/// The report the page shows: [`Report::for_inspector`] (an input past the inspector's trace
/// limit is parsed without its trace).
pub fn report(input: &str, base: Option<&str>) -> Report {
    Report::for_inspector(input, base)
}

impl Page {
    pub fn of(report: &Report) -> Page {
        let input = &report.input;
        let why = report.not_a_url();
        let outcome = match report.outcome {
            Outcome::Parsed { .. } => "parsed",
            Outcome::Failure { .. } => "failure",
            Outcome::BaseFailure { .. } => "base-failure",
        };
        let verdict = Verdict::of(report).map(|v| VerdictLine {
            text: v.text,
            worst: v.worst.map(|s| s.to_string()),
        });
        let len = input.chars().count();
        let (runs, coloured) = runs(report, len);
        let components = report.url.as_ref().map(|url| {
            use urlscope::url::Component as C;
            let record = url.record();
            let mut rows = Vec::new();
            for c in C::ALL {
                let absent = match c {
                    C::Host | C::Hostname => record.host.is_none(),
                    C::Port => record.port.is_none(),
                    C::Search => record.query.is_none(),
                    C::Hash => record.fragment.is_none(),
                    _ => false,
                };
                rows.push(Component {
                    name: c.name(),
                    value: url.get(c).to_owned(),
                    absent,
                    part: part_of(c),
                });
                if c == C::Href {
                    rows.push(Component {
                        name: "origin",
                        value: url.origin(),
                        absent: false,
                        part: None,
                    });
                }
            }
            rows
        });
        let params = report
            .components()
            .map(|c| c.search_params.clone())
            .unwrap_or_default();
        let fixer = Fixer::new(
            input,
            report.url.as_ref().map(urlscope::Url::record),
            report.host_span,
        )
        .with_base(report.base_url.as_ref());
        let errors = report
            .errors
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let fix = match fix_of(report, &fixer, why.as_ref(), e) {
                    Some(ErrorFixOf::Rewrite(f)) => Some(ErrorFix {
                        same_href: f.same_href,
                        makes_url: false,
                        words: f.in_words(input, "remove"),
                    }),
                    Some(ErrorFixOf::Failure(why)) => why.fix.as_ref().map(|f| ErrorFix {
                        same_href: false,
                        makes_url: true,
                        words: f.in_words(input, "remove"),
                    }),
                    None => None,
                };
                Error {
                    name: e.kind.name(),
                    start: e.span.start,
                    end: e.span.end,
                    count: e.count(),
                    state: e.state.to_string(),
                    link: link_of(e.state),
                    explanation: e.message.to_owned(),
                    effect: fix::browsers(&report.errors, i, why.as_ref()),
                    fix,
                }
            })
            .collect();
        let base_errors = report
            .base_errors
            .iter()
            .map(|e| Error {
                name: e.kind.name(),
                start: e.span.start,
                end: e.span.end,
                count: e.count(),
                state: e.state.to_string(),
                link: link_of(e.state),
                explanation: e.message.to_owned(),
                effect: "the base is not a URL".to_owned(),
                fix: None,
            })
            .collect();
        Page {
            input: input.clone(),
            length: len,
            base: report.base.clone(),
            outcome,
            verdict,
            runs,
            coloured,
            components,
            params,
            errors,
            base_errors,
            trace: report.trace.as_ref().map(|t| TraceSummary {
                steps: t.len(),
                failed: t.failed(),
            }),
        }
    }
}

/// The fix of one of a report's errors.
enum ErrorFixOf<'a> {
    /// A rewrite of the input that removes it ([`Fixer::fix`]).
    Rewrite(fix::Fix),
    /// The failure's fix, which makes an input that is not a URL parse (it has one, and the
    /// input it makes).
    Failure(&'a NotAUrl),
}

/// The fix the page offers for `e`: its rewrite, else, when the input is not a URL, the
/// failure's; none for the entry that stands for the repeats past the limit.
fn fix_of<'a>(
    report: &Report,
    fixer: &Fixer<'_>,
    why: Option<&'a NotAUrl>,
    e: &urlscope::ValidationError,
) -> Option<ErrorFixOf<'a>> {
    if e.repeats.is_some() {
        return None;
    }
    match fixer.fix(e) {
        Some(f) => Some(ErrorFixOf::Rewrite(f)),
        None if report.url.is_none() => why
            .filter(|why| why.fix.is_some() && why.fixed.is_some())
            .map(ErrorFixOf::Failure),
        None => None,
    }
}

/// The input that error `index`'s fix makes (exact): what a click on its fix puts in the
/// Input box; `None` when the error has no fix.
pub fn fixed_input(report: &Report, index: usize) -> Option<String> {
    let e = report.errors.get(index)?;
    let why = report.not_a_url();
    let fixer = Fixer::new(
        &report.input,
        report.url.as_ref().map(urlscope::Url::record),
        report.host_span,
    )
    .with_base(report.base_url.as_ref());
    match fix_of(report, &fixer, why.as_ref(), e)? {
        ErrorFixOf::Rewrite(f) => Some(fix::apply(&report.input, std::slice::from_ref(&f))),
        ErrorFixOf::Failure(why) => why.fixed.clone(),
    }
}

/// The link to the standard's section of `phase`.
fn link_of(phase: Phase) -> Option<String> {
    Some(format!(
        "{}#{}",
        urlscope::url::explain::SPEC_URL,
        Section::of(phase).anchor()
    ))
}

/// The input part a getter comes from (`None` for href and origin, which are all of them).
fn part_of(component: urlscope::url::Component) -> Option<Part> {
    use urlscope::url::Component as C;
    match component {
        C::Protocol => Some(Part::Scheme),
        C::Username | C::Password => Some(Part::Userinfo),
        C::Host | C::Hostname => Some(Part::Host),
        C::Port => Some(Part::Port),
        C::Pathname => Some(Part::Path),
        C::Search => Some(Part::Query),
        C::Hash => Some(Part::Fragment),
        C::Href => None,
    }
}

/// The Input line as runs: each code point's part from the trace ([`Trace::input_parts`]),
/// and whether an error's span covers it.
fn runs(report: &Report, len: usize) -> (Vec<Run>, bool) {
    let input = report.input.as_str();
    let coloured = len <= MAX_COLOURED && report.trace.is_some();
    if !coloured {
        // The first MAX_COLOURED code points only: the page says how many more there are.
        let end = len.min(MAX_COLOURED);
        let bytes = input
            .char_indices()
            .nth(end)
            .map_or(input.len(), |(at, _)| at);
        let run = Run {
            text: show(&input[..bytes]),
            start: 0,
            end,
            part: None,
            error: false,
        };
        return ((len > 0).then_some(run).into_iter().collect(), false);
    }
    let parts = report
        .trace
        .as_ref()
        .map(|t| t.input_parts(len))
        .unwrap_or_default();
    let mut error = vec![false; len];
    for e in &report.errors {
        // An empty span (at the end, or a missing code point) underlines the code point at it.
        let end = e.span.end.max(e.span.start + 1).min(len);
        for flag in error.iter_mut().take(end).skip(e.span.start) {
            *flag = true;
        }
    }
    // A run ends where the part or the error flag changes. Its text is escaped once it is
    // whole (`show` escapes code point by code point, so this is the same text), from `from`,
    // the byte where the last run starts.
    let mut runs: Vec<Run> = Vec::new();
    let mut from = 0;
    for (i, (at, _)) in input.char_indices().enumerate() {
        let (part, error) = (parts.get(i).copied().flatten(), error[i]);
        match runs.last_mut() {
            Some(run) if run.part == part && run.error == error => run.end = i + 1,
            last => {
                if let Some(run) = last {
                    run.text = show(&input[from..at]);
                }
                from = at;
                runs.push(Run {
                    text: String::new(),
                    start: i,
                    end: i + 1,
                    part,
                    error,
                });
            }
        }
    }
    if let Some(run) = runs.last_mut() {
        run.text = show(&input[from..]);
    }
    (runs, true)
}

/// The rows `from..to` of the Trace table.
pub fn trace_rows(trace: &Trace, from: usize, to: usize) -> Vec<TraceRow> {
    let mut rows = Vec::new();
    trace.for_each_in(from..to, |view, buffer| {
        rows.push(row(&view, buffer, ROW_MAX));
    });
    rows
}

/// Past this many UTF-16 code units a value in a row of the Trace is cut ([`cut`]), as the
/// page cuts what it shows there (app.js's `ROW_MAX`): a buffer holds up to the whole input,
/// and at the last step of a 1 MB input the window's 101 rows held 100 MB of buffers, which
/// took 0.4 s to escape and write as JSON natively (the page's End in the Trace, 577 ms).
pub const ROW_MAX: usize = 256;

/// Past this many UTF-16 code units a value in the step's detail is cut (app.js's
/// `SHOWN_MAX`).
pub const SHOWN_MAX: usize = 4096;

/// `raw` as the page shows it ([`show`]: hidden code points made visible), in at most `max`
/// UTF-16 code units: whole when it fits, else its beginning, "…" and how many UTF-16 code
/// units of it are left out, the very form the page's own cut gives (so that the page leaves
/// it as it is). Escapes only what it keeps: the length of the rest is read without copying
/// it when the rest is ASCII, as a long buffer nearly always is.
pub fn cut(raw: &str, max: usize) -> String {
    // Each code point shows as at least one UTF-16 code unit: `max` of them are enough to fill
    // the cut.
    let prefix_end = raw.char_indices().nth(max).map_or(raw.len(), |(at, _)| at);
    let shown = show(&raw[..prefix_end]);
    let rest = &raw[prefix_end..];
    let shown_units: usize = shown.chars().map(char::len_utf16).sum();
    if rest.is_empty() && shown_units <= max {
        return shown;
    }
    // Every ASCII code point shows as one UTF-16 code unit (a control as its Control
    // Picture, U+2400 to U+2421).
    let rest_units = if rest.is_ascii() {
        rest.len()
    } else {
        show(rest).chars().map(char::len_utf16).sum()
    };
    let total = shown_units + rest_units;
    let digits = total.to_string().len();
    let keep = max.saturating_sub("… ( more UTF-16 code units)".chars().count() + digits);
    let mut kept = 0;
    let mut end = 0;
    for (at, c) in shown.char_indices() {
        if kept + c.len_utf16() > keep {
            break;
        }
        kept += c.len_utf16();
        end = at + c.len_utf8();
    }
    format!(
        "{}… ({} more UTF-16 code units)",
        &shown[..end],
        total - kept
    )
}

fn row(view: &urlscope::trace::StepView<'_>, buffer: &str, max: usize) -> TraceRow {
    let state_machine = matches!(view.phase, Phase::State(_));
    let mut changes: Vec<String> = view
        .changes
        .iter()
        .map(|c| cut(&c.to_string(), max))
        .collect();
    changes.extend(view.pointer_moves.iter().map(|m| m.to_string()));
    changes.extend(view.errors.iter().map(|e| format!("⚠ {}", e.kind.name())));
    TraceRow {
        index: view.index,
        state: view.phase.name(),
        pointer: state_machine.then_some(view.pointer),
        c: state_machine.then(|| match view.c {
            Some(' ') => "␠".to_owned(),
            Some(c) => show(c.encode_utf8(&mut [0; 4])),
            None => "EOF".to_owned(),
        }),
        buffer: cut(buffer, max),
        changes,
        error: !view.errors.is_empty(),
    }
}

/// The "next state" of a step: a state's name, or what the parser does instead.
fn next_in_words(next: Option<Phase>, failed: bool) -> String {
    match next {
        Some(Phase::State(state)) => state.name().to_owned(),
        Some(step) => format!(
            "none yet: next, the basic URL parser's step “{}” (before the state machine)",
            step.name()
        ),
        None if failed => "none: the parser returns failure".to_owned(),
        None => "none: the parser returns the URL record".to_owned(),
    }
}

/// Step `index` of `trace` in full (clamped to the last step); `None` for an empty trace.
pub fn step_detail(trace: &Trace, index: usize) -> Option<StepDetail> {
    let index = index.min(trace.len().checked_sub(1)?);
    let mut detail = None;
    trace.for_each_in(index..index + 1, |view, buffer| {
        let spec = view.spec().map(|s| SpecCitation {
            section: s.section_name(),
            step: s.number,
            url: s.url().to_string(),
        });
        let explained = view
            .explained()
            .map(|s| Explained {
                url: Some(s.url().to_string()),
                step: s.number.to_owned(),
                explanation: s.explanation.map(|e| cut(e, SHOWN_MAX)).unwrap_or_default(),
            })
            .collect();
        let host = view
            .host_steps(trace.input())
            .into_iter()
            .flatten()
            .map(|h| Explained {
                step: format!("{} step {}", h.name(), h.number),
                explanation: cut(&h.explanation, SHOWN_MAX),
                url: Some(h.link.to_string()),
            })
            .collect();
        detail = Some(StepDetail {
            row: row(&view, buffer, SHOWN_MAX),
            spec,
            explained,
            host,
            next: next_in_words(view.next, trace.failed()),
            record: Vec::new(),
        });
    });
    let mut detail = detail?;
    detail.record = record_fields(&trace.state_after(index).1)
        .into_iter()
        .map(|(name, value)| (name, cut(&value, SHOWN_MAX)))
        .collect();
    Some(detail)
}

/// The URL record's fields as the standard names them, null distinct from the empty string.
fn record_fields(record: &urlscope::url::UrlRecord) -> Vec<(&'static str, String)> {
    let quoted = |s: &str| show(&serde_json::to_string(s).unwrap_or_default());
    let nullable = |s: Option<&str>| s.map_or("null".to_owned(), quoted);
    let path = match &record.path {
        urlscope::url::Path::Opaque(s) => format!("{} (opaque)", quoted(s)),
        urlscope::url::Path::List(segments) => format!(
            "« {} »",
            segments
                .iter()
                .map(|s| quoted(s))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let host = record.host.as_ref().map_or("null".to_owned(), |h| match h {
        urlscope::url::Host::Empty => "\"\" (the empty host)".to_owned(),
        other => quoted(&other.to_string()),
    });
    vec![
        ("scheme", quoted(&record.scheme)),
        ("username", quoted(&record.username)),
        ("password", quoted(&record.password)),
        ("host", host),
        (
            "port",
            record.port.map_or("null".to_owned(), |p| p.to_string()),
        ),
        ("path", path),
        ("query", nullable(record.query.as_deref())),
        ("fragment", nullable(record.fragment.as_deref())),
    ]
}

/// The `urlscope` command that opens the inspector on the same screen: the page's views that
/// the inspector has are its `--view`; the Trace's step with `--step`; the pattern with
/// `--pattern` and its ignoreCase with `--ignore-case`. The Lessons view is the inspector's
/// gallery, which `urlscope` alone opens (its welcome screen; ctrl-n walks the lessons), and so
/// is the page's welcome (no input, base or pattern): the inspector shows its welcome then too.
///
/// An input that clap would read as an option (`-x`) or as a subcommand (`parse`) comes last,
/// after `--`, which ends the options. `None` when a value holds U+0000: no command can carry
/// it, as an argument is a C string (bash ends the word at the NUL, `$'a\x00b'` is `a`).
pub fn command(
    input: &str,
    base: Option<&str>,
    view: &str,
    step: Option<usize>,
    pattern: Option<&str>,
    ignore_case: bool,
) -> Option<String> {
    let base = base.filter(|b| !b.is_empty());
    let pattern = pattern.filter(|p| !p.is_empty());
    if view == "lessons" || (input.is_empty() && base.is_none() && pattern.is_none()) {
        return Some("urlscope".to_owned());
    }
    let inspector_view = match view {
        "trace" | "components" | "errors" | "host" | "resolution" | "grammar" | "parsers"
        | "pattern" => Some(view),
        _ => None,
    };
    let handout = Handout {
        input,
        base,
        encoding: None,
        view: inspector_view,
        pattern,
        ignore_case,
        step: step.filter(|_| view == "trace"),
    };
    // The library's rule, the inspector's `y` too: `--` before an input read as an option or
    // a subcommand, and no command for a value holding U+0000.
    handout.command()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(input: &str, base: Option<&str>) -> Page {
        Page::of(&report(input, base))
    }

    /// The Input line as `text:part` runs, `!` after an underlined one.
    fn runs_of(page: &Page) -> Vec<String> {
        page.runs
            .iter()
            .map(|r| {
                format!(
                    "{}:{}{}",
                    r.text,
                    r.part.map_or("-", Part::name),
                    if r.error { "!" } else { "" }
                )
            })
            .collect()
    }

    #[test]
    fn the_input_line_puts_a_drive_letter_host_in_the_path() {
        // file://c:/x: the host is empty and the path /c:/x, so "c:" is path, underlined for
        // file-invalid-Windows-drive-letter-host; the scheme's ":" is the scheme's, the "/"
        // before a segment the path's.
        let p = page("file://c:/x", None);
        assert_eq!(
            runs_of(&p),
            ["file::scheme", "//:-", "c::path!", "/x:path"],
            "{:?}",
            p.runs
        );
        let components = p.components.expect("parsed");
        let get = |name: &str| &components.iter().find(|c| c.name == name).unwrap().value;
        assert_eq!(get("host"), "");
        assert_eq!(get("pathname"), "/c:/x");
    }

    #[test]
    fn the_verdict_and_an_error_with_its_fix() {
        let p = page("https://user@example.com/", None);
        let verdict = p.verdict.expect("a verdict");
        assert!(
            verdict.text.starts_with("→ connects to example.com"),
            "{}",
            verdict.text
        );
        assert_eq!(p.errors.len(), 1);
        let e = &p.errors[0];
        assert_eq!(e.name, "invalid-credentials");
        assert_eq!((e.start, e.end), (8, 13), "user@");
        assert_eq!(
            e.link.as_deref(),
            Some("https://url.spec.whatwg.org/#authority-state")
        );
        let fix = e.fix.as_ref().expect("a fix");
        assert_eq!(
            fixed_input(&report("https://user@example.com/", None), 0).as_deref(),
            Some("https://example.com/")
        );
        assert!(!fix.same_href, "dropping the username changes the href");
    }

    /// The drive letter's "|" is fixed as ":", which the href already shows ("%7C" lost the
    /// drive letter), against no base and, as a relative reference, against a file base.
    #[test]
    fn a_drive_letters_bar_is_fixed_as_a_colon() {
        for (input, base, fixed) in [
            ("file:///C|/x", None, "file:///C:/x"),
            ("C|/x", Some("file:///D:/dir/file"), "/C:/x"),
        ] {
            let r = report(input, base);
            let p = Page::of(&r);
            let i = p
                .errors
                .iter()
                .position(|e| e.name == "invalid-URL-unit")
                .expect("the bar is an invalid-URL-unit");
            assert_eq!(fixed_input(&r, i).as_deref(), Some(fixed), "{input:?}");
            assert!(
                p.errors[i].fix.as_ref().expect("a fix").same_href,
                "{input:?}"
            );
        }
    }

    /// The getters return the empty string for a null field and for an empty one; the model
    /// tells them apart, so that the page shows "(empty string: null in the record)" or
    /// "(empty string)".
    #[test]
    fn components_mark_a_null_field_apart_from_an_empty_one() {
        let shown = |input: &str| {
            let r = report(input, None);
            let p = Page::of(&r);
            p.components
                .expect("parsed")
                .into_iter()
                .filter(|c| c.value.is_empty())
                .map(|c| (c.name, c.absent))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            shown("https://h/"),
            vec![
                ("username", false),
                ("password", false),
                ("port", true),
                ("search", true),
                ("hash", true)
            ]
        );
        // An empty query and fragment, an empty host: there, and empty.
        assert_eq!(
            shown("file:///x?#"),
            vec![
                ("username", false),
                ("password", false),
                ("host", false),
                ("hostname", false),
                ("port", true),
                ("search", false),
                ("hash", false)
            ]
        );
        // No host at all.
        assert!(shown("mailto:x").contains(&("host", true)));
    }

    /// The page's cut (app.js `cut`) leaves a value of at most `max` UTF-16 code units as it
    /// is: the model's cut is within `max`, says how much it left out, and keeps whole code
    /// points.
    #[test]
    fn a_value_is_cut_within_the_pages_limit() {
        let units = |s: &str| s.encode_utf16().count();
        assert_eq!(cut("a\tb", 8), "a␉b");
        let exact = "a".repeat(ROW_MAX);
        assert_eq!(cut(&exact, ROW_MAX), exact);
        for raw in [
            "a".repeat(1_000_000),
            "\t".repeat(5000),
            "😀".repeat(5000),
            format!("{}\u{202e}{}", "é".repeat(3000), "x".repeat(3000)),
        ] {
            for max in [ROW_MAX, SHOWN_MAX] {
                let shown = cut(&raw, max);
                assert!(units(&shown) <= max, "{} > {max}", units(&shown));
                let (kept, said) = shown.rsplit_once("… (").expect("cut");
                let more: usize = said
                    .strip_suffix(" more UTF-16 code units)")
                    .and_then(|n| n.parse().ok())
                    .expect("the count");
                assert_eq!(units(kept) + more, units(&show(&raw)), "{max}");
                assert!(show(&raw).starts_with(kept));
            }
        }
    }

    /// At the last step of a 1 MB input the window's rows and the step's detail are bounded:
    /// the buffer held the whole path in each of the 101 rows (100 MB).
    #[test]
    fn the_trace_of_a_1_mb_input_is_bounded_at_its_end() {
        let input = format!("https://example.com/{}", "a".repeat(1_000_000));
        let r = report(&input, None);
        let trace = r.trace.as_ref().expect("traced");
        let last = trace.len() - 1;
        let rows = trace_rows(trace, last + 1 - TRACE_WINDOW, last + 1);
        assert_eq!(rows.len(), TRACE_WINDOW);
        let json = serde_json::to_string(&rows).unwrap();
        assert!(json.len() < TRACE_WINDOW * 400, "{} bytes", json.len());
        assert!(rows[50].buffer.starts_with("aaaa"), "{}", rows[50].buffer);
        let detail = step_detail(trace, last).expect("a step");
        let json = serde_json::to_string(&detail).unwrap();
        assert!(json.len() < 20 * SHOWN_MAX, "{} bytes", json.len());
    }

    #[test]
    fn a_failure_offers_the_fix_that_makes_it_a_url() {
        let r = report("https://exa mple.com/", None);
        let p = Page::of(&r);
        assert_eq!(p.outcome, "failure");
        assert!(p.components.is_none());
        let fixed: Vec<String> = (0..p.errors.len())
            .filter(|&i| p.errors[i].fix.as_ref().is_some_and(|f| f.makes_url))
            .filter_map(|i| fixed_input(&r, i))
            .collect();
        assert!(!fixed.is_empty(), "{:?}", p.errors);
        for fixed in fixed {
            assert!(
                urlscope::Url::parse(&fixed, None).is_ok(),
                "the fix {fixed:?} parses"
            );
        }
    }

    #[test]
    fn hidden_code_points_are_shown_escaped_in_what_is_read() {
        let p = page("https://a\u{202E}b.example/\t", None);
        let text: String = p.runs.iter().map(|r| r.text.as_str()).collect();
        assert!(text.contains("⟨U+202E⟩") && text.contains('␉'), "{text}");
        assert!(!text.contains('\u{202E}'));
    }

    #[test]
    fn the_screen_holds_no_copy_of_the_input_per_error() {
        // An error per code point, each with a fix: the fixed inputs are made on a click, not
        // with the screen.
        let input: String = (0..200).map(|i| format!("{i}\\{i}|")).collect();
        let input = format!("http://h/{input}");
        let r = report(&input, None);
        let p = Page::of(&r);
        let fixes = p.errors.iter().filter(|e| e.fix.is_some()).count();
        assert!(fixes >= 100, "{fixes} fixes");
        let json = serde_json::to_string(&p).expect("JSON");
        // The input's last 40 code points as JSON writes them, wherever a copy of it is.
        let tail = serde_json::to_string(&input[input.len() - 40..]).expect("JSON");
        let copies = json.matches(tail.trim_matches('"')).count();
        assert!(
            copies <= 1,
            "{copies} copies of the input in {} bytes",
            json.len()
        );
        // Each fix's input, asked for, is the library's rewrite of the input.
        let first = p
            .errors
            .iter()
            .position(|e| e.fix.is_some())
            .expect("a fix");
        let fixed = fixed_input(&r, first).expect("fixed");
        let fixer = Fixer::new(
            &input,
            r.url.as_ref().map(urlscope::Url::record),
            r.host_span,
        );
        let f = fixer.fix(&r.errors[first]).expect("a rewrite");
        assert_eq!(fixed, fix::apply(&input, &[f]));
        assert_eq!(fixed_input(&r, r.errors.len()), None);
    }

    #[test]
    fn a_long_input_is_one_run_without_parts() {
        let input = format!("https://example.com/{}", "a/".repeat(MAX_COLOURED));
        let p = page(&input, None);
        assert!(!p.coloured);
        assert_eq!(p.runs.len(), 1);
        assert_eq!(p.runs[0].end, MAX_COLOURED);
        assert!(input.chars().count() > MAX_COLOURED);
    }

    /// Step 0 (strip C0 control or space) is followed by step 1 (remove ASCII tab or newline),
    /// which is not a state: the page's "next state" says that no state runs yet and names the
    /// step, rather than that the parser returns.
    #[test]
    fn the_preprocessing_steps_name_what_comes_next() {
        let parsed = report("http://a/", None);
        let trace = parsed.trace.as_ref().expect("traced");
        let next = |i| step_detail(trace, i).expect("a step").next;
        assert_eq!(
            next(0),
            "none yet: next, the basic URL parser's step “remove ASCII tab or newline” (before the state machine)"
        );
        assert_eq!(next(1), "scheme start state");
        assert_eq!(
            next(trace.len() - 1),
            "none: the parser returns the URL record"
        );
        let failed = report("foo", None);
        let trace = failed.trace.as_ref().expect("traced");
        let last = step_detail(trace, trace.len() - 1).expect("a step");
        assert_eq!(last.next, "none: the parser returns failure");
    }

    #[test]
    fn a_step_in_full_cites_the_standard() {
        let report = report("file://c:/x", None);
        let trace = report.trace.as_ref().expect("traced");
        // Step 11: the file host state sees the drive letter and leaves the buffer to the path.
        let detail = step_detail(trace, 11).expect("step 11");
        assert_eq!(detail.row.state, "file host state");
        assert_eq!(detail.row.c.as_deref(), Some("/"));
        assert_eq!(detail.row.buffer, "c:");
        assert_eq!(detail.next, "path state");
        let spec = detail.spec.expect("cited");
        assert!(
            spec.url
                .starts_with("https://url.spec.whatwg.org/#file-host-state"),
            "{}",
            spec.url
        );
        assert!(!detail.explained.is_empty());
        let rows = trace_rows(trace, 9, 13);
        assert_eq!(
            rows.iter().map(|r| r.index).collect::<Vec<_>>(),
            [9, 10, 11, 12]
        );
        assert_eq!(rows[3].changes, ["path+=[c:]"]);
    }

    #[test]
    fn the_command_reopens_the_view_with_bash_quoting() {
        assert_eq!(
            command("ht\ttps://x/", None, "trace", Some(3), None, false).as_deref(),
            Some(r"urlscope $'ht\ttps://x/' --view trace --step 3")
        );
        assert_eq!(
            command("a'b", Some("http://b/"), "host", Some(3), None, false).as_deref(),
            Some(r"urlscope 'a'\''b' --base 'http://b/' --view host")
        );
        assert_eq!(
            command("x", None, "pattern", None, Some("/*"), false).as_deref(),
            Some("urlscope 'x' --view pattern --pattern '/*'")
        );
    }

    /// The Lessons view is the gallery, which `urlscope` alone opens (docs/inspector.md), not
    /// `urlscope ''`, and not the input with the lesson's pattern.
    #[test]
    fn the_lessons_command_opens_the_gallery() {
        assert_eq!(
            command("", None, "lessons", None, None, false).as_deref(),
            Some("urlscope")
        );
        assert_eq!(
            command("x", Some("http://b/"), "lessons", None, Some("/*"), true).as_deref(),
            Some("urlscope")
        );
        // The welcome, as the inspector's: no input, base or pattern.
        assert_eq!(
            command("", Some(""), "trace", Some(0), Some(""), false).as_deref(),
            Some("urlscope")
        );
        assert_eq!(
            command("", Some("http://b/"), "trace", Some(0), None, false).as_deref(),
            Some("urlscope '' --base 'http://b/' --view trace --step 0")
        );
    }

    /// ignoreCase is in the command, as the page shows the match with it.
    #[test]
    fn the_command_carries_ignore_case() {
        assert_eq!(
            command("https://EXAMPLE.com/FOO", None, "pattern", None, Some("https://example.com/foo"), true).as_deref(),
            Some("urlscope 'https://EXAMPLE.com/FOO' --view pattern --pattern 'https://example.com/foo' --ignore-case")
        );
    }

    /// An input clap would take for an option or a subcommand comes after `--`; an input,
    /// base or pattern holding U+0000 has no command (no argument can hold it).
    #[test]
    fn the_command_ends_the_options_before_an_input_clap_would_misread() {
        assert_eq!(
            command("-x", None, "trace", Some(2), None, false).as_deref(),
            Some("urlscope --view trace --step 2 -- '-x'")
        );
        assert_eq!(
            command("--help", Some("http://b/"), "host", None, None, false).as_deref(),
            Some("urlscope --base 'http://b/' --view host -- '--help'")
        );
        assert_eq!(
            command("parse", None, "trace", Some(0), None, false).as_deref(),
            Some("urlscope --view trace --step 0 -- 'parse'")
        );
        assert_eq!(
            command("-\u{202E}", None, "grammar", None, None, false).as_deref(),
            Some(r"urlscope --view grammar -- $'-\xE2\x80\xAE'")
        );
        assert_eq!(command("a\0b", None, "trace", Some(0), None, false), None);
        assert_eq!(
            command("a", Some("\0"), "trace", Some(0), None, false),
            None
        );
        assert_eq!(
            command("a", None, "pattern", None, Some("/\0"), false),
            None
        );
    }
}
