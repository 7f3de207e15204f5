//! What each SQL function computes for one chunk of rows: the library's parse, its fields, the
//! host analysis and the gate, written into DuckDB's result vectors.
//!
//! Each function computes only what it returns: `urlscope_href` and `urlscope_host` parse
//! alone (no validation error collected; `urlscope_href` builds no URL where the input is
//! already its href, `urlscope_host` none where the host parser keeps the host as typed), `urlscope_valid` collects the validation errors,
//! `urlscope_registrable_domain` looks the host up in the Public Suffix List without the rest of
//! the host analysis, and `urlscope_parse` computes every field, as `parse_batch` does.

use std::cell::RefCell;
use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

use encoding_rs::UTF_8;
use urlscope::diff::Builtin;
use urlscope::inspect::gate::{Allowlist, Gate};
use urlscope::inspect::{HostAnalysis, Severity};
use urlscope::report::fields::{FieldType, Fields, FIELDS};
use urlscope::report::{Parts, Report};
use urlscope::url::writing::Writing;
use urlscope::url::{Component, Host};
use urlscope::{Url, ValidationError};

use crate::types::{self, Ty};
use crate::vector::{Bools, Cell, Chunk, Out, StringLists, Strings, Texts};

/// The functions, each with its overloads (one callback serves them all).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Function {
    Parse,
    Href,
    Host,
    RegistrableDomain,
    Valid,
    Check,
    GateParsers,
    /// `urlscope_allowlist_parses()`, in debug builds only: how many times this process has
    /// parsed an allowlist ([`allowlist`]), which the tests (tests/sql.rs) count.
    #[cfg(debug_assertions)]
    AllowlistParses,
}

impl Function {
    /// Computes the chunk's rows into `out`. An error is the query's (a setting that cannot be
    /// read, such as an allowlist entry that is not a host); a row that cannot be read is NULL.
    pub fn run(self, chunk: &Chunk, out: Out) -> Result<(), String> {
        match self {
            Function::Parse => parse_chunk(chunk, out),
            // The href alone, borrowed from the input where it is already its href: no URL is
            // built for those.
            Function::Href => rows(chunk, out, |input, base, texts, row| {
                texts.push(row, &Url::parse_href(input, base, UTF_8).ok()?);
                Some(())
            }),
            // The hostname alone, borrowed from the input where the host parser keeps it as
            // typed: no URL is built and nothing past the host is read for those.
            Function::Host => rows(chunk, out, |input, base, texts, row| {
                texts.push(row, &Url::parse_hostname(input, base, UTF_8).ok()?);
                Some(())
            }),
            Function::RegistrableDomain => rows(chunk, out, |input, base, texts, row| {
                texts.push(row, registrable_domain(&Url::parse(input, base).ok()?)?);
                Some(())
            }),
            Function::Valid => valid_chunk(chunk, out),
            Function::Check => check_chunk(chunk, out),
            Function::GateParsers => {
                parsers_chunk(chunk, out);
                Ok(())
            }
            #[cfg(debug_assertions)]
            Function::AllowlistParses => {
                let parses = ALLOWLIST_PARSES.load(Ordering::Relaxed) as u64;
                for row in 0..chunk.len {
                    out.u64(row, parses);
                }
                Ok(())
            }
        }
    }
}

// --- the input and its base -----------------------------------------------------------------

/// A base (the second argument), parsed once for the rows that repeat it.
#[derive(Default)]
struct Bases {
    last: Option<(String, Option<Url>)>,
}

impl Bases {
    /// The parsed base, `None` when it is not a URL.
    fn get(&mut self, text: &str) -> Option<&Url> {
        if self.last.as_ref().is_none_or(|(t, _)| t != text) {
            self.last = Some((text.to_owned(), Url::parse(text, None).ok()));
        }
        self.last.as_ref().and_then(|(_, url)| url.as_ref())
    }
}

/// One row's input and base, as a function reads them: `None` for a NULL argument or a row
/// that cannot be read (the result is then NULL).
fn args<'a>(
    urls: &Strings<'a>,
    bases: Option<&Strings<'a>>,
    row: usize,
) -> Option<(&'a str, Option<&'a str>)> {
    let base = match bases.map(|b| b.cell(row)) {
        None => None,
        Some(Cell::Text(base)) => Some(base),
        Some(Cell::Null | Cell::Bad) => return None,
    };
    match urls.cell(row) {
        Cell::Text(input) => Some((input, base)),
        Cell::Null | Cell::Bad => None,
    }
}

/// A string function of the input and its base (`url` and an optional `base`): `write` writes
/// row `row`'s value into the chunk's [`Texts`], or gives `None` for NULL (the input is not a
/// URL, or has no such value). A NULL argument, a row that cannot be read and a base that is
/// not a URL are NULL without it.
fn rows(
    chunk: &Chunk,
    out: Out,
    mut write: impl FnMut(&str, Option<&Url>, &mut Texts, usize) -> Option<()>,
) -> Result<(), String> {
    let urls = chunk.strings(0);
    let bases = (chunk.columns > 1).then(|| chunk.strings(1));
    let mut parsed_bases = Bases::default();
    let mut texts = Texts::new(out, chunk.len);
    for row in 0..chunk.len {
        let written = match args(&urls, bases.as_ref(), row) {
            None => None,
            Some((input, None)) => write(input, None, &mut texts, row),
            Some((input, Some(base))) => match parsed_bases.get(base) {
                Some(base) => write(input, Some(base), &mut texts, row),
                None => None,
            },
        };
        if written.is_none() {
            texts.null(row);
        }
    }
    texts.finish();
    Ok(())
}

/// The registrable domain of the URL's host, as the host analysis finds it
/// (src/inspect/host/domain.rs, `suffix_and_registrable`): the Public Suffix List's lookup of a
/// domain host; none for an IP address, an opaque or empty host, or a public suffix itself.
pub fn registrable_domain(url: &Url) -> Option<&str> {
    if !matches!(url.host_record(), Some(Host::Domain(_))) {
        return None;
    }
    let registrable = psl::domain(url.hostname().as_bytes())?;
    std::str::from_utf8(registrable.trim().as_bytes()).ok()
}

/// `urlscope_valid`: whether the input is a URL that raised no validation error. Only the
/// errors are collected (`Parts::NONE`), no derived part.
fn valid_chunk(chunk: &Chunk, out: Out) -> Result<(), String> {
    let urls = chunk.strings(0);
    let bases = (chunk.columns > 1).then(|| chunk.strings(1));
    let mut parsed_bases = Bases::default();
    for row in 0..chunk.len {
        let Some((input, base)) = args(&urls, bases.as_ref(), row) else {
            out.set_invalid(row);
            continue;
        };
        let valid = match base.map(|b| parsed_bases.get(b).cloned()) {
            // A base that is not a URL: the input cannot parse against it.
            Some(None) => false,
            base => {
                let report = Report::untraced_parts(input, base.flatten(), UTF_8, Parts::NONE);
                report.url.is_some() && report.errors.is_empty()
            }
        };
        out.bool(row, valid);
    }
    Ok(())
}

// --- urlscope_parse -------------------------------------------------------------------------

/// Where a text field's value comes from.
#[derive(Clone, Copy)]
enum Source {
    Input,
    Base,
    Origin,
    Getter(Component),
}

impl Source {
    /// Where the text field named `name` comes from: the input, the base, the origin or the URL
    /// API getter of that name (a test holds every text field of the library to one).
    fn of(name: &str) -> Option<Source> {
        match name {
            "input" => Some(Source::Input),
            "base" => Some(Source::Base),
            "origin" => Some(Source::Origin),
            name => Component::from_str(name).ok().map(Source::Getter),
        }
    }
}

/// One field's vector and how it is written.
enum Column {
    Text(Source, Out),
    Valid(Out),
    SearchParams(Out),
    Errors(Out),
    Writing(Out),
    HostAnalysis(Out),
}

/// One parse of a row, with what the fields read of it.
struct Row<'a> {
    input: &'a str,
    /// The base as written in the result: the parsed base's href, or the text given when it
    /// is not a URL.
    base: Option<&'a str>,
    url: Option<&'a Url>,
    errors: &'a [ValidationError],
    writing: Option<&'a Writing>,
    host_analysis: Option<&'a HostAnalysis>,
}

/// The parts of the report that `urlscope_parse`'s fields read: every one but the host
/// analysis's label table, which no field holds (as `parse_batch`).
fn parse_parts() -> Parts {
    Parts {
        host_labels: false,
        ..Fields::ALL.parts()
    }
}

fn parse_chunk(chunk: &Chunk, out: Out) -> Result<(), String> {
    let ty = types::parse();
    let columns: Vec<Column> = FIELDS
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let member = out.member(i);
            match f.ty {
                FieldType::Text | FieldType::OptionalText => {
                    Column::Text(Source::of(f.name).unwrap_or(Source::Input), member)
                }
                FieldType::Bool => Column::Valid(member),
                FieldType::Pairs => Column::SearchParams(member),
                FieldType::Errors => Column::Errors(member),
                FieldType::Writing => Column::Writing(member),
                FieldType::HostAnalysis => Column::HostAnalysis(member),
            }
        })
        .collect();
    let failure = out.member(FIELDS.len());
    let members = ty.members();
    let urls = chunk.strings(0);
    let bases = (chunk.columns > 1).then(|| chunk.strings(1));
    let mut parsed_bases = Bases::default();
    let parts = parse_parts();
    for row in 0..chunk.len {
        let Some((input, base)) = args(&urls, bases.as_ref(), row) else {
            out.null(&ty, row);
            continue;
        };
        let base_url = base.map(|b| parsed_bases.get(b).cloned());
        if let Some(None) = base_url {
            // A base that is not a URL: the input cannot be parsed against it. As `parse
            // --base` says: a failure, with the base as given and nothing else known.
            write_row(
                &columns,
                members,
                row,
                &Row {
                    input,
                    base,
                    url: None,
                    errors: &[],
                    writing: None,
                    host_analysis: None,
                },
            );
            failure.bool(row, true);
            continue;
        }
        let base_url = base_url.flatten();
        let base_href = base_url.as_ref().map(|b| b.href().to_owned());
        let report = Report::untraced_parts(input, base_url, UTF_8, parts);
        write_row(
            &columns,
            members,
            row,
            &Row {
                input,
                base: base_href.as_deref(),
                url: report.url.as_ref(),
                errors: &report.errors,
                writing: Some(&report.writing),
                host_analysis: report.host_analysis.as_ref(),
            },
        );
        failure.bool(row, report.url.is_none());
    }
    Ok(())
}

fn write_row(columns: &[Column], members: &[(&'static str, Ty)], row: usize, r: &Row<'_>) {
    for (column, (_, ty)) in columns.iter().zip(members) {
        match *column {
            Column::Text(source, out) => match (source, r.url) {
                (Source::Input, _) => out.str(row, r.input),
                (Source::Base, _) => out.opt_str(row, r.base),
                (Source::Origin, Some(url)) => out.str(row, &url.origin()),
                (Source::Getter(c), Some(url)) => out.str(row, url.component(c)),
                (_, None) => out.set_invalid(row),
            },
            Column::Valid(out) => out.bool(row, r.url.is_some() && r.errors.is_empty()),
            Column::SearchParams(out) => match r.url {
                Some(url) => {
                    let params = url.search_params();
                    out.list(row, params.iter().len(), |items, start| {
                        let (names, values) = (items.member(0), items.member(1));
                        for (i, (name, value)) in params.iter().enumerate() {
                            names.str(start + i, name);
                            values.str(start + i, value);
                        }
                    });
                }
                None => out.null(ty, row),
            },
            Column::Errors(out) => out.list(row, r.errors.len(), |items, start| {
                let (kinds, starts, ends) = (items.member(0), items.member(1), items.member(2));
                for (i, e) in r.errors.iter().enumerate() {
                    kinds.str(start + i, e.kind.name());
                    starts.u32(start + i, span(e.span.start));
                    ends.u32(start + i, span(e.span.end));
                }
            }),
            Column::Writing(out) => match r.writing {
                Some(w) => {
                    out.member(0).bool(row, w.valid);
                    out.member(1)
                        .str_list(row, w.production_path.iter().copied());
                    match w.position {
                        Some(p) => out.member(2).u64(row, p as u64),
                        None => out.member(2).set_invalid(row),
                    }
                    out.member(3).opt_str(row, w.expected.as_deref());
                }
                None => out.null(ty, row),
            },
            // As `parse --json`: an input that is not a URL has no host analysis.
            Column::HostAnalysis(out) => match r.url.and(r.host_analysis) {
                Some(a) => {
                    out.member(0).str(row, &a.host);
                    out.member(1).str(row, &a.unicode);
                    out.member(2).opt_str(row, a.public_suffix.as_deref());
                    out.member(3).opt_str(row, a.registrable_domain.as_deref());
                    out.member(4)
                        .str_list(row, a.imitates.iter().map(|i| i.domain));
                    write_findings(
                        out.member(5),
                        row,
                        a.findings.iter().map(|f| (f.id, f.severity)),
                    );
                }
                None => out.null(ty, row),
            },
        }
    }
}

fn span(n: usize) -> u32 {
    // Inputs are at most `urlscope::MAX_INPUT` bytes, so offsets fit.
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// A list of findings (id, severity) at row `row`.
fn write_findings(
    out: Out,
    row: usize,
    findings: impl ExactSizeIterator<Item = (&'static str, Severity)>,
) {
    out.list(row, findings.len(), |items, start| {
        let (ids, severities) = (items.member(0), items.member(1));
        for (i, (id, severity)) in findings.enumerate() {
            ids.str(start + i, id);
            severities.str(start + i, severity.name());
        }
    });
}

// --- urlscope_check -------------------------------------------------------------------------

/// The severity named `name` ("info", "warn" or "danger").
fn severity(name: &str) -> Result<Severity, String> {
    [Severity::Info, Severity::Warn, Severity::Danger]
        .into_iter()
        .find(|s| s.name() == name)
        .ok_or_else(|| format!("fail_on is \"info\", \"warn\" or \"danger\", not {name:?}"))
}

/// What a row of `urlscope_check` is judged by: the gate and the severity that fails a URL.
#[derive(Debug, PartialEq, Eq)]
struct Settings {
    allow_hosts: Option<Vec<String>>,
    deny_internal: bool,
    fail_on: String,
}

impl Settings {
    fn judge(&self) -> Result<(Gate, Severity), String> {
        let allowlist = self.allow_hosts.as_deref().map(allowlist).transpose()?;
        let gate = Gate {
            allowlist,
            deny_internal: self.deny_internal,
        };
        Ok((gate, severity(&self.fail_on)?))
    }

    /// Whether row `row` has these settings, read in place (nothing copied): what each row
    /// asks before it is judged.
    fn are_rows(&self, columns: &SettingsColumns<'_>, row: usize) -> bool {
        let allow_hosts = match (&columns.allow_hosts, &self.allow_hosts) {
            (None, None) => true,
            (Some(lists), hosts) => match (lists.entry(row), hosts) {
                (None, None) => true,
                (Some(entry), Some(hosts)) => {
                    let items = lists.items(entry);
                    items.len() == hosts.len()
                        && items
                            .zip(hosts)
                            .all(|(item, host)| item == Some(host.as_bytes()))
                }
                _ => false,
            },
            (None, Some(_)) => false,
        };
        let deny_internal = match &columns.deny_internal {
            None => !self.deny_internal,
            Some(deny) => deny.get(row) == Some(self.deny_internal),
        };
        let fail_on = match &columns.fail_on {
            None => self.fail_on == Severity::Danger.name(),
            Some(names) => names.get(row) == Some(self.fail_on.as_bytes()),
        };
        allow_hosts && deny_internal && fail_on
    }
}

/// The settings' columns of a chunk (those its overload has), taken once for its rows.
struct SettingsColumns<'a> {
    allow_hosts: Option<StringLists<'a>>,
    deny_internal: Option<Bools<'a>>,
    fail_on: Option<Strings<'a>>,
}

impl<'a> SettingsColumns<'a> {
    fn of(chunk: &'a Chunk) -> Self {
        SettingsColumns {
            allow_hosts: (chunk.columns > 1).then(|| chunk.string_lists(1)),
            deny_internal: (chunk.columns > 2).then(|| chunk.bools(2)),
            fail_on: (chunk.columns > 3).then(|| chunk.strings(3)),
        }
    }
}

/// The allowlists parsed in this process, by their entries, the most recently used last; each
/// parsed once, for every query, thread and database of the process that names it (a parse
/// that failed is kept too: it fails the same way). DuckDB's C API for scalar functions of
/// v1.2.0 has no bind step that would parse a query's constant arguments once per query, so the
/// extension keeps what it parsed itself.
static ALLOWLISTS: Mutex<Vec<KeptAllowlist>> = Mutex::new(Vec::new());

/// An allowlist's entries and what parsing them gave.
type KeptAllowlist = (Vec<String>, Result<Allowlist, String>);

/// The most allowlists kept at once: a query names one or a few, and each is small.
const KEPT_ALLOWLISTS: usize = 16;

/// How many times [`allowlist`] has parsed an allowlist in this process: the tests count it.
static ALLOWLIST_PARSES: AtomicUsize = AtomicUsize::new(0);

/// The allowlist of the entries `hosts`, parsed at its first use in the process (the lock is
/// held while it is parsed, so that threads that ask for the same new list at once parse it
/// once), then kept while it is among the [`KEPT_ALLOWLISTS`] last used.
fn allowlist(hosts: &[String]) -> Result<Allowlist, String> {
    let mut kept = ALLOWLISTS.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(at) = kept.iter().position(|(entries, _)| entries == hosts) {
        let used = kept.remove(at);
        let parsed = used.1.clone();
        kept.push(used);
        return parsed;
    }
    ALLOWLIST_PARSES.fetch_add(1, Ordering::Relaxed);
    let parsed = Allowlist::parse(hosts).map_err(|e| format!("allow_hosts: {e}"));
    if kept.len() >= KEPT_ALLOWLISTS {
        drop(kept.remove(0));
    }
    kept.push((hosts.to_vec(), parsed.clone()));
    parsed
}

thread_local! {
    /// The settings last read on this thread and what they made: a query's rows all have the
    /// same (its arguments are constants, in the common case), and each row compares its
    /// settings with these in place; only a row whose settings differ reads them out and asks
    /// [`allowlist`] for the process's copy of its allowlist.
    static JUDGE: RefCell<Option<(Settings, Gate, Severity)>> = const { RefCell::new(None) };
}

/// Row `row`'s settings; `Ok(None)` when one of them is NULL (the row's result is then NULL). A
/// NULL `allow_hosts` is no allowlist, as `check_batch`'s `None`.
fn settings(columns: &SettingsColumns<'_>, row: usize) -> Result<Option<Settings>, String> {
    let allow_hosts = match columns.allow_hosts.as_ref().map(|l| (l, l.entry(row))) {
        None | Some((_, None)) => None,
        Some((lists, Some(entry))) => Some(
            lists
                .items(entry)
                .map(|item| match Cell::of(item) {
                    Cell::Text(host) => Ok(host.to_owned()),
                    Cell::Null => Err("allow_hosts has a NULL entry".to_owned()),
                    Cell::Bad => Err("allow_hosts has an entry that is not UTF-8".to_owned()),
                })
                .collect::<Result<Vec<_>, _>>()?,
        ),
    };
    let deny_internal = match columns.deny_internal.as_ref().map(|d| d.get(row)) {
        None => false,
        Some(None) => return Ok(None),
        Some(Some(deny)) => deny,
    };
    let fail_on = match columns.fail_on.as_ref().map(|f| f.cell(row)) {
        None => Severity::Danger.name().to_owned(),
        Some(Cell::Text(name)) => name.to_owned(),
        Some(Cell::Null | Cell::Bad) => return Ok(None),
    };
    Ok(Some(Settings {
        allow_hosts,
        deny_internal,
        fail_on,
    }))
}

fn check_chunk(chunk: &Chunk, out: Out) -> Result<(), String> {
    let ty = types::check();
    let (href, host, findings, imitates, worst, fail) = (
        out.member(0),
        out.member(1),
        out.member(2),
        out.member(3),
        out.member(4),
        out.member(5),
    );
    let urls = chunk.strings(0);
    let columns = SettingsColumns::of(chunk);
    let parts = Parts {
        host_analysis: true,
        ..Parts::NONE
    };
    JUDGE.with(|judge| {
        let mut judge = judge.borrow_mut();
        for row in 0..chunk.len {
            let Cell::Text(input) = urls.cell(row) else {
                out.null(&ty, row);
                continue;
            };
            let known = judge
                .as_ref()
                .is_some_and(|(known, _, _)| known.are_rows(&columns, row));
            if !known {
                let Some(wanted) = settings(&columns, row)? else {
                    out.null(&ty, row);
                    continue;
                };
                let (gate, fail_on) = wanted.judge()?;
                *judge = Some((wanted, gate, fail_on));
            }
            let Some((_, gate, fail_on)) = judge.as_ref() else {
                continue;
            };
            let report = Report::untraced_parts(input, None, UTF_8, parts);
            let url = report.url.as_ref();
            href.opt_str(row, url.map(Url::href));
            host.opt_str(row, url.map(Url::hostname));
            let analysis = report.host_analysis.as_ref();
            let mut all: Vec<(&'static str, Severity)> = analysis
                .map_or(&[][..], |a| &a.findings[..])
                .iter()
                .map(|f| (f.id, f.severity))
                .collect();
            // As `urlscope check`: an input that is not a URL is a finding of its own.
            if url.is_none() {
                all.push(("failure", Severity::Warn));
            }
            // The gate of `urlscope check --allow-host`/`--deny-internal`, the library's one
            // function, on the readings of the parsers built in (in-process): the runtimes'
            // adapters are not run here.
            if gate.is_active() {
                all.extend(
                    gate.judge_builtins(input)
                        .into_iter()
                        .map(|f| (f.id, f.severity)),
                );
            }
            let worst_seen = all.iter().map(|(_, s)| *s).max();
            write_findings(findings, row, all.into_iter());
            imitates.str_list(
                row,
                analysis
                    .map_or(&[][..], |a| &a.imitates[..])
                    .iter()
                    .map(|i| i.domain),
            );
            worst.opt_str(row, worst_seen.map(Severity::name));
            fail.bool(row, worst_seen.is_some_and(|w| w >= *fail_on));
        }
        Ok(())
    })
}

// --- urlscope_gate_parsers ------------------------------------------------------------------

/// The parsers whose readings `urlscope_check`'s gate judges, with their versions: the ones
/// built into urlscope (`Gate::judge_builtins`).
fn parsers_chunk(chunk: &Chunk, out: Out) {
    for row in 0..chunk.len {
        out.list(row, Builtin::ALL.len(), |items, start| {
            let (names, versions) = (items.member(0), items.member(1));
            for (i, parser) in Builtin::ALL.iter().enumerate() {
                names.str(start + i, parser.name());
                versions.str(start + i, &parser.version());
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The registrable domain the whole host analysis finds.
    fn analysed(input: &str) -> Option<String> {
        let report = Report::untraced_parts(input, None, UTF_8, parse_parts());
        report
            .url
            .as_ref()
            .and(report.host_analysis)
            .and_then(|a| a.registrable_domain)
    }

    #[test]
    fn the_registrable_domain_is_the_host_analysiss() {
        for input in [
            "https://a.b.example.co.uk/",
            "https://a.b.example.co.uk./",
            "https://example.com..",
            "https://co.uk/",
            "https://аpple.com/",
            "https://xn--80ak6aa92e.com/",
            "https://localhost/",
            "https://foo.blogspot.com/",
            "https://a.b.c.kawasaki.jp/",
            "http://127.0.0.1/",
            "http://[::1]/",
            "http://0x7f.1/",
            "foo://example.com/",
            "mailto:a@example.com",
            "file:///etc/passwd",
            "file://host.example.com/x",
            "https://EXAMPLE.COM/",
            "not a url",
        ] {
            let ours = Url::parse(input, None)
                .ok()
                .and_then(|u| registrable_domain(&u).map(str::to_owned));
            assert_eq!(ours, analysed(input), "{input}");
        }
        let url = Url::parse("https://a.b.example.co.uk/", None).expect("a URL");
        assert_eq!(registrable_domain(&url), Some("example.co.uk"));
    }

    #[test]
    fn every_text_field_of_the_library_has_a_source() {
        for field in FIELDS {
            if matches!(field.ty, FieldType::Text | FieldType::OptionalText) {
                assert!(Source::of(field.name).is_some(), "{}", field.name);
            }
        }
    }

    /// Each distinct allowlist is parsed once in the process, however many threads and rows
    /// ask for it, and one that has left the last [`KEPT_ALLOWLISTS`] is parsed again. (The one
    /// test of this binary that parses allowlists: the count is the process's.)
    #[test]
    fn an_allowlist_is_parsed_once_per_process() {
        let list = |i: usize| vec![format!("host{i}.parses.example"), "*.parses.example".into()];
        let before = ALLOWLIST_PARSES.load(Ordering::Relaxed);
        std::thread::scope(|scope| {
            for _ in 0..8 {
                scope.spawn(|| {
                    for row in 0..2_000 {
                        let parsed = allowlist(&list(row % 2)).expect("hosts");
                        assert!(!parsed.is_empty());
                    }
                });
            }
        });
        assert_eq!(ALLOWLIST_PARSES.load(Ordering::Relaxed) - before, 2);
        // A list that cannot be read is kept with its error, which every use gives.
        let bad = vec!["https://example.com/".to_owned()];
        let error = allowlist(&bad).expect_err("a URL is not a host");
        assert!(error.starts_with("allow_hosts: "), "{error}");
        assert_eq!(allowlist(&bad), Err(error));
        assert_eq!(ALLOWLIST_PARSES.load(Ordering::Relaxed) - before, 3);
        // Fifteen more lists push the first list and the bad one out (the least recently
        // used); the second list, used after each, stays.
        for i in 2..2 + KEPT_ALLOWLISTS - 1 {
            allowlist(&list(i)).expect("hosts");
            allowlist(&list(1)).expect("hosts");
        }
        assert_eq!(
            ALLOWLIST_PARSES.load(Ordering::Relaxed) - before,
            3 + KEPT_ALLOWLISTS - 1
        );
        allowlist(&list(1)).expect("hosts");
        allowlist(&list(0)).expect("hosts");
        assert_eq!(
            ALLOWLIST_PARSES.load(Ordering::Relaxed) - before,
            3 + KEPT_ALLOWLISTS
        );
    }

    #[test]
    fn a_severity_is_named_as_the_library_names_it() {
        assert_eq!(severity("warn"), Ok(Severity::Warn));
        assert_eq!(
            severity("fatal"),
            Err("fail_on is \"info\", \"warn\" or \"danger\", not \"fatal\"".to_owned())
        );
    }
}
