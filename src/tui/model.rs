//! The inspector's state and what the views read of it. Nothing here changes it: that is
//! [`super::app`], whose `App::apply` is the one place that does.
//!
//! The views (`super::panes`) read this module and never `super::app`, so the layers point one
//! way: model ← views ← app. The report (and what is derived from it) is rebuilt whenever the
//! input or the base changes; the views only read them. What is open on top of the views is
//! explicit: a stack of overlays, then a component edit, step mode and zoom, which Esc closes in
//! that order.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use encoding_rs::{Encoding, UTF_8};

use crate::diff::{Builtin, Comparison, Component as Part, Delivery, Lab, Live, Timeouts};
use crate::report::Report;
use crate::trace::Trace;
use crate::url::explain::SetterStep;
use crate::url::{Component, Host, Path, UrlRecord};
use crate::urlpattern::PatternReport;

use super::derived::{show, Derived, Row, RowKind};
use super::editor::LineEditor;
use super::history::History;
pub use super::list::ListState;
pub use super::pane::Pane;
use super::rows::{RowIndex, TraceRows};
use crate::gallery::{gallery, Example};

/// A layer over the panes that takes the keys until it is closed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overlay {
    Help,
    /// The selected row of the focused pane, in full.
    Detail,
}

/// A component being edited: Enter runs its setter.
#[derive(Clone, Debug)]
pub struct ComponentEdit {
    pub component: Component,
    pub editor: LineEditor,
}

/// A setter run through the URL API from the Components pane.
#[derive(Clone, Debug)]
pub struct SetterRun {
    pub component: Component,
    pub value: String,
    pub before: String,
    pub after: String,
    pub failed: bool,
    pub trace: Trace,
    /// The setter's own step that decided what it did, when it did not run the basic URL
    /// parser (and `trace` is empty).
    pub decided: Option<SetterStep>,
}

/// Something to put on the clipboard; the runner does it (and reports how).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CopyRequest {
    pub what: &'static str,
    pub text: String,
}

/// A status message, shown only while the report and the focus it was about are current.
#[derive(Clone, Debug)]
pub(super) struct Message {
    pub(super) text: String,
    pub(super) generation: u64,
    pub(super) focus: Pane,
}

/// Stepping through the gallery; the person's own input and base come back after the last
/// example (or before the first).
#[derive(Clone, Debug)]
pub struct GalleryState {
    pub position: usize,
    pub(super) draft: (String, String),
    pub(super) draft_encoding: &'static Encoding,
    /// The Pattern view's pattern and ignoreCase from before the gallery.
    pub(super) draft_pattern: (String, bool),
    /// The input and base the example opened with (after its setter, if it runs one).
    pub(super) shown: (String, String),
}

impl GalleryState {
    /// Whether the input or base differ from what the example opened with: the lesson's
    /// words are then about the example, not about what is on screen.
    pub fn edited(&self, input: &str, base: &str) -> bool {
        (input, base) != (self.shown.0.as_str(), self.shown.1.as_str())
    }
}

/// A hyperlink drawn on screen: `text` at `x`, `y` is a link to `url` (the runner writes it
/// again as an OSC 8 hyperlink where the terminal has them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hyperlink {
    pub x: u16,
    pub y: u16,
    pub text: String,
    pub url: String,
}

#[derive(Debug)]
pub struct App {
    /// The gate (`--allow-host`, `--deny-internal`), judged on the Parsers pane's readings.
    pub gate: Option<crate::inspect::gate::Gate>,
    /// With `--resolve`, the lookups of the readings' names, made on a thread of their own.
    pub lookups: Option<crate::inspect::resolve::system::Background>,
    pub input: LineEditor,
    pub base: LineEditor,
    pub focus: Pane,
    /// The report pane shown when the screen has room for one only.
    pub view: Pane,
    pub report: Report,
    /// The query encoding the input is parsed with (UTF-8 unless a lesson or
    /// `--encoding` says otherwise).
    pub encoding: &'static Encoding,
    pub derived: Derived,
    /// Changes whenever the trace shown does (a new report, a setter's run).
    pub(super) trace_key: u64,
    /// The Trace pane's collapsed runs and which of them are expanded.
    pub trace_rows: TraceRows,
    /// The hyperlinks of the last frame (set by the renderer).
    pub links: RefCell<Vec<Hyperlink>>,
    /// Counts reports, so that a message about one expires with it.
    pub(super) generation: u64,
    pub overlays: Vec<Overlay>,
    pub help_scroll: Cell<usize>,
    /// The help keeps the lines that contain this (typed after `/`).
    pub help_filter: String,
    /// Keys go to the help's filter.
    pub help_filtering: bool,
    pub detail_scroll: Cell<usize>,
    /// The Trace pane's explanation strip: how far it is scrolled (kept within its text by
    /// the renderer), and the trace and step it was scrolled on (another starts at the top).
    pub strip_scroll: Cell<usize>,
    pub strip_of: Cell<(u64, usize)>,
    /// Where the strip was drawn in the last frame (set by the renderer), for the wheel.
    pub strip_area: Cell<Option<ratatui::layout::Rect>>,
    pub edit: Option<ComponentEdit>,
    pub setter_run: Option<SetterRun>,
    pub zoom: bool,
    /// Step mode: the input marks the selected step's pointer and the Components pane shows
    /// the URL record as it was after that step.
    pub step_mode: bool,
    /// Host parsing sub-steps shown under every step (otherwise under the selected one).
    pub expand_all: bool,
    pub lists: [ListState; Pane::ALL.len()],
    /// The Parsers pane: the parsers, what they have said about the input so far, and the
    /// selected component column.
    pub parsers: Parsers,
    /// The Pattern view: the pattern line, and its report against the Input.
    pub pattern: PatternState,
    pub(super) message: Option<Message>,
    pub history: History,
    pub(super) history_pos: Option<usize>,
    /// What was typed before ↑ went into the history.
    pub(super) draft: Option<(String, String)>,
    pub gallery: Option<GalleryState>,
    pub pending_copy: Option<CopyRequest>,
    pub quit: bool,
    pub mouse: bool,
    /// Rows a page holds (set by the renderer), for PgUp/PgDn.
    pub page: Cell<usize>,
    /// Where the Input line's view starts (set by the renderer), for clicks.
    pub input_start: Cell<usize>,
}

impl App {
    /// The collapsed rows of the trace shown (built once per trace).
    pub fn row_index(&self) -> Option<Rc<RowIndex>> {
        let trace = self.trace()?;
        Some(self.trace_rows.index(self.trace_key, trace))
    }

    /// The status message, while it is still about what is on screen.
    pub fn message(&self) -> Option<&str> {
        self.message
            .as_ref()
            .filter(|m| m.generation == self.generation && m.focus == self.focus)
            .map(|m| m.text.as_str())
    }

    /// The trace the Trace pane shows: a setter's run, or the input's parse.
    pub fn trace(&self) -> Option<&Trace> {
        match &self.setter_run {
            Some(run) => Some(&run.trace),
            None => self.report.trace.as_ref(),
        }
    }

    pub fn step(&self) -> usize {
        self.lists[Pane::Trace.index()].selected
    }

    pub fn selected(&self, pane: Pane) -> usize {
        self.lists[pane.index()].selected
    }

    /// The host analysis's findings (none when there is no analysis).
    pub fn findings(&self) -> &[crate::inspect::Finding] {
        self.report
            .host_analysis
            .as_ref()
            .map_or(&[], |a| a.findings.as_slice())
    }

    /// In step mode, the URL record as it was after the selected step.
    pub fn step_record(&self) -> Option<UrlRecord> {
        if !self.step_mode {
            return None;
        }
        let trace = self.trace().filter(|t| !t.is_empty())?;
        Some(trace.state_after(self.step().min(trace.len() - 1)).1)
    }

    /// The query's name-value pairs (none in step mode, which shows a record).
    pub(super) fn params(&self) -> &[(String, String)] {
        match self.report.components() {
            Some(c) if !self.step_mode => &c.search_params,
            _ => &[],
        }
    }

    /// How many rows the Components pane has.
    pub fn component_count(&self) -> usize {
        if self.step_mode {
            return self.step_record().map_or(0, |_| 8);
        }
        self.derived.components.len() + self.params().len()
    }

    /// The rows `range` of the Components pane: the record's fields in step mode, else the
    /// getters, then the query's parameters (built here, only those asked for).
    pub fn component_rows_in(&self, range: std::ops::Range<usize>) -> Vec<Row> {
        if let Some(record) = self.step_record() {
            let rows = record_rows(&record);
            return rows[range.start.min(rows.len())..range.end.min(rows.len())].to_vec();
        }
        let fixed = &self.derived.components;
        range
            .filter_map(|i| match fixed.get(i) {
                Some(row) => Some(row.clone()),
                None => self
                    .params()
                    .get(i - fixed.len())
                    .map(|(name, value)| super::derived::param_row(name, value)),
            })
            .collect()
    }

    /// Every row of the Components pane.
    pub fn component_rows(&self) -> Vec<Row> {
        self.component_rows_in(0..self.component_count())
    }

    pub(super) fn component_row(&self, i: usize) -> Option<Row> {
        self.component_rows_in(i..i + 1).pop()
    }

    /// The command that opens the inspector on what is on screen: the input, the base, the
    /// query encoding, the view and, in step mode, the step. Each word is quoted for bash
    /// ([`shell_word`]), so that the shell hands the binary exactly the input; `None` when a
    /// value holds U+0000, which no argument can carry ([`crate::display::Handout::command`]).
    pub fn handout(&self) -> Option<String> {
        let view = if self.focus.is_text() {
            self.view
        } else {
            self.focus
        };
        let pattern = self.pattern.editor.text();
        crate::display::Handout {
            input: self.input.text(),
            base: Some(self.base.text()).filter(|b| !b.is_empty()),
            encoding: (self.encoding != UTF_8).then(|| self.encoding.name()),
            view: view.name(),
            pattern: Some(pattern).filter(|p| !p.is_empty()),
            ignore_case: self.pattern.ignore_case,
            // A setter's trace is not the input's: its steps are not the command's.
            step: (self.step_mode && view == Pane::Trace && self.setter_run.is_none())
                .then(|| self.step()),
        }
        .command()
    }

    /// The help as drawn: the command for this view first, then every key, filtered.
    pub fn help_lines(&self) -> Vec<(Option<String>, String, String)> {
        // The help is drawn on every frame: a long input's command is copied, not shown.
        let length = self.input.text().len() + self.base.text().len();
        let command = if length > HANDOUT_SHOWN_MAX {
            format!("(the input and base are {length} bytes: y copies the whole command)")
        } else {
            self.handout()
                .unwrap_or_else(|| format!("({NO_COMMAND_FOR_NUL})"))
        };
        let mut lines = vec![
            (
                Some("This view as a command (y copies it)".to_owned()),
                String::new(),
                String::new(),
            ),
            (None, String::new(), command),
        ];
        if let Some(run) = &self.setter_run {
            // The inspector opens no setter: the command reopens the URL the setter was run on
            // only in words; `parse --set` gives the setter's result.
            lines.push((
                None,
                String::new(),
                format!(
                    "No command reopens this {} setter's run; its result: urlscope parse --set {} {}",
                    run.component,
                    shell_word(&format!("{}={}", run.component, run.value)),
                    shell_word(&run.before),
                ),
            ));
        }
        let owned =
            |(t, k, d): super::keys::HelpLine| (t.map(str::to_owned), k.to_owned(), d.to_owned());
        let keys = super::keys::filter_help(super::keys::help_lines(), &self.help_filter);
        if self.help_filter.is_empty() {
            lines.extend(keys.into_iter().map(owned));
            return lines;
        }
        if keys.is_empty() {
            lines.push((
                Some(format!("No key matches “{}”", show(&self.help_filter))),
                String::new(),
                String::new(),
            ));
        }
        lines.extend(keys.into_iter().map(owned));
        lines
    }

    /// The help's title: the filter, when there is one.
    pub fn help_title(&self) -> String {
        match (self.help_filtering, self.help_filter.is_empty()) {
            (true, _) => format!(
                " Keys · filter: {}▏ · Enter keeps · Esc clears ",
                show(&self.help_filter)
            ),
            (false, false) => format!(
                " Keys · filter: {} · / edits · Esc clears ",
                show(&self.help_filter)
            ),
            (false, true) => " Keys · j/k scroll · / filters · Esc closes ".to_owned(),
        }
    }

    /// The example on screen, when the gallery is open.
    pub fn example(&self) -> Option<&'static Example> {
        gallery().get(self.gallery.as_ref()?.position)
    }

    /// The Unicode form of the host, when it is a domain.
    pub fn unicode_host(&self) -> Option<String> {
        match self.report.url.as_ref()?.record().host.as_ref()? {
            Host::Domain(_) => self
                .report
                .host_analysis
                .as_ref()
                .map(|a| a.unicode.clone()),
            _ => None,
        }
    }
}

/// The Parsers pane's state: the lab that reads the input, the readings of the current input
/// as they arrive, and the selected column.
#[derive(Debug)]
pub struct Parsers {
    pub(super) lab: Lab,
    pub(super) live: Option<Live>,
    /// The parsers, in the order they are shown.
    pub names: Vec<String>,
    /// The readings so far (rebuilt when an answer arrives, not on every frame).
    pub comparison: Option<Comparison>,
    /// The selected component, an index into [`Parsers::COLUMNS`].
    pub column: usize,
}

impl Parsers {
    /// The table's component columns (failure is said in the row's note).
    pub const COLUMNS: [Part; 8] = [
        Part::Scheme,
        Part::Username,
        Part::Password,
        Part::Host,
        Part::Port,
        Part::Path,
        Part::Query,
        Part::Fragment,
    ];

    pub fn new(lab: Lab) -> Self {
        Parsers {
            names: lab.names(),
            lab,
            live: None,
            comparison: None,
            column: 3,
        }
    }

    /// A lab of the built-in parsers alone: no process.
    pub fn builtin_lab() -> Lab {
        Self::builtin_lab_without(&[])
    }

    /// A lab of the built-in parsers but `left_out` (curl, whose answers are the system
    /// libcurl's, for the same answers on every machine).
    pub fn builtin_lab_without(left_out: &[Builtin]) -> Lab {
        let names: Vec<String> = Builtin::ALL
            .iter()
            .filter(|b| !left_out.contains(b))
            .map(|b| b.name().to_owned())
            .collect();
        Lab::new(
            Some(&names),
            Vec::new(),
            Timeouts::default(),
            Delivery::Latest,
        )
        .expect("the built-in parsers' names are known")
    }

    pub(super) fn start(&mut self, input: &str, base: Option<&str>) {
        let live = self.lab.start(input, base);
        self.comparison = Some(live.comparison());
        self.live = Some(live);
    }

    pub(super) fn poll(&mut self) -> bool {
        let Some(live) = &mut self.live else {
            return false;
        };
        if !self.lab.poll(live) {
            return false;
        }
        self.comparison = Some(live.comparison());
        true
    }

    /// The parsers still to answer about the current input.
    pub fn pending(&self) -> Vec<&str> {
        self.live.as_ref().map_or_else(Vec::new, Live::pending)
    }

    pub fn component(&self) -> Part {
        Self::COLUMNS[self.column.min(Self::COLUMNS.len() - 1)]
    }

    /// The answer of the parser on row `row`, once it has come.
    pub fn answer(&self, row: usize) -> Option<(&str, &crate::diff::Answer)> {
        let name = self.names.get(row)?;
        let answer = self.comparison.as_ref()?.answer(name)?;
        Some((name, answer))
    }

    /// The code points of `input` that the selected cell's value matches: no adapter reports
    /// offsets, so the value is looked up in the input (as typed, else ignoring ASCII case).
    pub fn marked(&self, row: usize, input: &str) -> Option<std::ops::Range<usize>> {
        let (_, answer) = self.answer(row)?;
        if !answer.available || answer.failure {
            return None;
        }
        let value = match answer.get(self.component()) {
            crate::diff::Value::Text(Some(v)) if !v.is_empty() => v,
            _ => return None,
        };
        let start = input
            .find(value)
            .or_else(|| input.to_ascii_lowercase().find(&value.to_ascii_lowercase()))?;
        let first = input[..start].chars().count();
        Some(first..first + value.chars().count())
    }

    pub(super) fn detail(&self, row: usize) -> (Vec<(String, String)>, Option<String>) {
        let Some(name) = self.names.get(row) else {
            return Default::default();
        };
        let Some((_, answer)) = self.answer(row) else {
            return (
                vec![
                    ("parser".to_owned(), name.clone()),
                    (
                        "answer".to_owned(),
                        "not yet: it runs in the background".to_owned(),
                    ),
                ],
                None,
            );
        };
        let quoted = |v: Option<&str>| {
            v.map_or("null".to_owned(), |v| {
                show(&serde_json::to_string(v).unwrap_or_default())
            })
        };
        let mut fields = vec![
            ("parser".to_owned(), name.clone()),
            (
                "version".to_owned(),
                show(answer.version.as_deref().unwrap_or("unknown")),
            ),
        ];
        if !answer.available {
            fields.push((
                "unavailable".to_owned(),
                show(answer.error.as_deref().unwrap_or("")),
            ));
            return (fields, None);
        }
        if answer.failure {
            fields.push((
                "failure".to_owned(),
                show(answer.error.as_deref().unwrap_or("")),
            ));
        }
        let comparison = self.comparison.as_ref();
        for part in Self::COLUMNS {
            if answer.failure {
                break;
            }
            let crate::diff::Value::Text(value) = answer.get(part) else {
                continue;
            };
            let mut text = quoted(value);
            if comparison.is_some_and(|c| c.differs_from_reference(name, part)) {
                text.push_str(&format!(" ≠ whatwg{}", class_note(comparison, part)));
            }
            fields.push((part.name().to_owned(), text));
        }
        let copy = match answer.get(self.component()) {
            crate::diff::Value::Text(v) => v.map(str::to_owned),
            crate::diff::Value::Failure(_) => None,
        };
        (fields, copy)
    }
}

/// ", class" for the disagreement on `part`, when a known class explains it.
pub fn class_note(comparison: Option<&Comparison>, part: Part) -> String {
    comparison
        .and_then(|c| c.disagreements.iter().find(|d| d.component == part))
        .and_then(|d| d.class)
        .map_or(String::new(), |class| format!(" ({})", class.name()))
}

/// The longest input and base whose command the help shows; `y` copies any.
const HANDOUT_SHOWN_MAX: usize = 2048;

/// What the help and `y` say for a value holding U+0000, which no command's argument carries.
pub(super) const NO_COMMAND_FOR_NUL: &str =
    "no command: U+0000 is in the input, base or pattern, and no argument can carry it";

pub use crate::display::shell_word;

/// The URL record as the standard names its fields, with null distinct from the empty string.
pub fn record_rows(record: &UrlRecord) -> Vec<Row> {
    use super::theme::Part;
    let quoted = |s: &str| serde_json::to_string(s).unwrap_or_default();
    let nullable = |s: Option<&str>| s.map_or("null".to_owned(), quoted);
    let path = match &record.path {
        Path::Opaque(s) => format!("{} (opaque)", quoted(s)),
        Path::List(segments) => format!(
            "[{}]",
            segments
                .iter()
                .map(|s| quoted(s))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let host = record.host.as_ref().map(|h| match h {
        Host::Empty => "\"\" (the empty host)".to_owned(),
        other => quoted(&other.to_string()),
    });
    let fields: [(&str, String, Option<Part>); 8] = [
        ("scheme", quoted(&record.scheme), Some(Part::Scheme)),
        ("username", quoted(&record.username), Some(Part::Userinfo)),
        ("password", quoted(&record.password), Some(Part::Userinfo)),
        (
            "host",
            host.unwrap_or_else(|| "null".to_owned()),
            Some(Part::Host),
        ),
        (
            "port",
            record.port.map_or("null".to_owned(), |p| p.to_string()),
            Some(Part::Port),
        ),
        ("path", path, Some(Part::Path)),
        (
            "query",
            nullable(record.query.as_deref()),
            Some(Part::Query),
        ),
        (
            "fragment",
            nullable(record.fragment.as_deref()),
            Some(Part::Fragment),
        ),
    ];
    fields
        .into_iter()
        .map(|(key, value, part)| Row {
            kind: RowKind::Component(part),
            key: key.to_owned(),
            copy: value.clone(),
            value: show(&value),
            note: None,
        })
        .collect()
}

/// The Pattern view's state: the pattern line and what the URL Pattern Standard makes of it
/// with the Input as the input to match.
#[derive(Debug, Default)]
pub struct PatternState {
    pub editor: LineEditor,
    /// Keys go to the pattern line.
    pub editing: bool,
    /// The pattern's ignoreCase option (`i` toggles it).
    pub ignore_case: bool,
    /// Built whenever the pattern, the input or the base changes; `None` while the pattern
    /// line is empty.
    pub report: Option<PatternReport>,
    /// Node's reading, asked in the background (the inspector starts it; tests leave it out,
    /// so that their screens do not depend on the machine's Node).
    pub node: Option<crate::urlpattern::node_reading::Background>,
}

impl PatternState {
    /// The view's rows: the components (or the constructor's error), a heading, then the
    /// constructor string parser's steps.
    pub fn rows(&self) -> usize {
        let Some(report) = &self.report else {
            return 0;
        };
        component_rows(report) + report.hints.len() + 1 + report.steps.len()
    }

    /// What row `row` of the view is.
    pub fn row(&self, row: usize) -> Option<PatternRow<'_>> {
        let report = self.report.as_ref()?;
        let components = component_rows(report);
        let hints = report.hints.len();
        Some(if row < components {
            match &report.compiled {
                Ok(c) => PatternRow::Component(&c.components[row], component_match(report, row)),
                Err(e) => PatternRow::Error(e),
            }
        } else if row < components + hints {
            PatternRow::Hint(&report.hints[row - components])
        } else if row == components + hints {
            PatternRow::Heading
        } else {
            PatternRow::Step(
                row - components - hints - 1,
                report.steps.get(row - components - hints - 1)?,
            )
        })
    }
}

/// The rows before the steps' heading: one per component, or the constructor's error.
fn component_rows(report: &PatternReport) -> usize {
    match &report.compiled {
        Ok(c) => c.components.len(),
        Err(_) => 1,
    }
}

/// The input's match of component `index`, when the input reached matching.
fn component_match(
    report: &PatternReport,
    index: usize,
) -> Option<&crate::urlpattern::ComponentMatch> {
    match &report.input.as_ref()?.outcome {
        crate::urlpattern::InputOutcomeReport::Matched { components, .. } => components.get(index),
        _ => None,
    }
}

/// A row of the Pattern view.
#[derive(Clone, Copy, Debug)]
pub enum PatternRow<'a> {
    /// A component: its compiled pattern, and the input's value and groups when there is an
    /// input that reached matching.
    Component(
        &'a crate::urlpattern::ComponentReport,
        Option<&'a crate::urlpattern::ComponentMatch>,
    ),
    /// The constructor threw.
    Error(&'a str),
    /// A usual mistake the pattern shows, and its remedy.
    Hint(&'a str),
    /// The constructor string parser's heading.
    Heading,
    /// A step of the constructor string parser (its index, the step).
    Step(usize, &'a crate::urlpattern::ConstructorStep),
}
