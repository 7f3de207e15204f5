//! The one place that changes the inspector's state: [`App::apply`], and what it calls.
//!
//! The state itself, and what the views read of it, is [`super::model`]; the views are
//! [`super::panes`], each drawing itself and describing its selected row.

use std::cell::{Cell, RefCell};

use encoding_rs::{Encoding, UTF_8};

use crate::diff::{Component as Part, Lab};
use crate::report::Report;
use crate::trace::{Recorder, Trace};
use crate::url::explain::{Setter, SetterStep};
use crate::url::Component;

use super::action::Action;
use super::derived::{show, Derived};
use super::editor::{Edited, LineEditor};
use super::history::{History, Pushed};
pub use super::list::ListState;
pub use super::model::*;
pub use super::pane::Pane;
use super::rows::TraceRows;
use crate::gallery::gallery;

impl App {
    pub fn new(input: &str, base: &str) -> Self {
        Self::with_history(input, base, History::default())
    }

    pub fn with_history(input: &str, base: &str, history: History) -> Self {
        let mut app = App {
            gate: None,
            lookups: None,
            input: LineEditor::new(input),
            base: LineEditor::new(base),
            focus: Pane::Input,
            view: Pane::Components,
            report: Report::new("", None),
            encoding: UTF_8,
            derived: Derived::default(),
            trace_key: 0,
            trace_rows: TraceRows::default(),
            links: RefCell::new(Vec::new()),
            generation: 0,
            overlays: Vec::new(),
            help_scroll: Cell::new(0),
            help_filter: String::new(),
            help_filtering: false,
            detail_scroll: Cell::new(0),
            strip_scroll: Cell::new(0),
            strip_of: Cell::new((0, 0)),
            strip_area: Cell::new(None),
            edit: None,
            setter_run: None,
            zoom: false,
            step_mode: false,
            expand_all: false,
            lists: Default::default(),
            parsers: Parsers::new(Parsers::builtin_lab()),
            pattern: PatternState::default(),
            message: None,
            history,
            history_pos: None,
            draft: None,
            gallery: None,
            pending_copy: None,
            quit: false,
            mouse: true,
            page: Cell::new(10),
            input_start: Cell::new(0),
        };
        app.reparse();
        app
    }

    /// Rebuilds the report after the input or the base changed.
    fn reparse(&mut self) {
        let base = self.base.text();
        let base = (!base.is_empty()).then_some(base);
        self.report = report_for(self.input.text(), base, self.encoding);
        self.derived = Derived::of(&self.report);
        self.generation += 1;
        self.setter_run = None;
        self.trace_key += 1;
        self.trace_rows.reset();
        self.parsers.start(self.input.text(), base);
        self.derived
            .with_parsers(&self.report, self.parsers.comparison.as_ref());
        self.judge_gate();
        self.rebuild_pattern();
        for pane in Pane::VIEWS {
            let len = super::panes::rows(self, pane);
            let state = &mut self.lists[pane.index()];
            state.selected = state.selected.min(len.saturating_sub(1));
        }
        self.settle_trace_selection();
    }

    /// Sets the Pattern view's pattern line (undoable) and matches it.
    pub fn set_pattern(&mut self, pattern: &str) {
        if self.pattern.editor.set(pattern) == Edited::Text {
            self.rebuild_pattern();
        }
    }

    /// Builds the Pattern view's report again: the pattern line against the Input, both with
    /// the Base line as their base URL (a string pattern's `baseURL` and the input's); a
    /// URLPatternInit (typed as JSON) takes none, as the constructor and `exec` throw on one.
    fn rebuild_pattern(&mut self) {
        self.pattern.report = crate::urlpattern::PatternReport::of_lines(
            self.pattern.editor.text(),
            self.base.text(),
            self.pattern.ignore_case,
            self.input.text(),
            PATTERN_MATCH_TIME_LIMIT,
        );
        if self.pattern.report.is_none() {
            if let Some(node) = &mut self.pattern.node {
                node.ask(None);
            }
            return;
        }
        if let Some(node) = &mut self.pattern.node {
            node.ask(self.pattern.report.as_ref());
        }
        let rows = self.pattern.rows();
        let state = &mut self.lists[Pane::Pattern.index()];
        state.selected = state.selected.min(rows.saturating_sub(1));
    }

    /// The trace shown changed: its row index is built again when drawn, and no run is
    /// expanded.
    fn new_trace(&mut self) {
        self.trace_key += 1;
        self.trace_rows.reset();
        self.settle_trace_selection();
    }

    /// A new trace starts with its runs collapsed, and the selected step (kept from the last
    /// trace) may fall inside one. In step mode the step keeps its own line: its run expands.
    /// Otherwise the run's line is selected, which stands for the run's last step, so that the
    /// strip, the detail view and `f` speak of the step the selected line shows.
    fn settle_trace_selection(&mut self) {
        if !self.trace_rows.collapse {
            return;
        }
        let step = self.step();
        let Some(index) = self.row_index() else {
            return;
        };
        if self.step_mode {
            self.trace_rows.reveal(step, &index, true);
        } else if let Some(run) = index.run_of(step) {
            self.lists[Pane::Trace.index()].selected = run.steps.end - 1;
        }
    }

    /// Parses the input with `encoding` as the query encoding from now on.
    pub fn set_encoding(&mut self, encoding: &'static Encoding) {
        if self.encoding != encoding {
            self.encoding = encoding;
            self.reparse();
        }
    }

    /// Selects `step` of the trace, expanding the run it is in so that it has its own line.
    fn select_step(&mut self, step: usize) {
        self.lists[Pane::Trace.index()].selected = step;
        if let Some(index) = self.row_index() {
            self.trace_rows.reveal(step, &index, true);
        }
    }

    /// Replaces the parsers of the Parsers pane (the inspector adds the external runtimes) and
    /// asks them about the current input.
    pub fn set_lab(&mut self, lab: Lab) {
        self.parsers = Parsers::new(lab);
        let base = self.base.text();
        self.parsers
            .start(self.input.text(), (!base.is_empty()).then_some(base));
        self.derived
            .with_parsers(&self.report, self.parsers.comparison.as_ref());
        self.judge_gate();
    }

    /// Sets the gate (`--allow-host`, `--deny-internal`) and judges the current input.
    pub fn set_gate(&mut self, gate: Option<crate::inspect::gate::Gate>) {
        self.gate = gate.filter(crate::inspect::gate::Gate::is_active);
        self.judge_gate();
    }

    /// Looks up the names of every reading from now on (`--resolve`), on a thread of its own;
    /// without a gate, the lookups alone are judged (as `check --resolve` judges them).
    pub fn set_lookups(&mut self, lookups: crate::inspect::resolve::system::Background) {
        self.lookups = Some(lookups);
        if self.gate.is_none() {
            self.gate = Some(crate::inspect::gate::Gate::default());
        }
        self.judge_gate();
    }

    /// Takes the lookups that have arrived, never waiting; true when the verdict changed.
    pub fn poll_lookups(&mut self) -> bool {
        let changed = self.lookups.as_mut().is_some_and(|l| l.poll());
        if changed {
            self.judge_gate();
        }
        changed
    }

    /// The gate's verdict on the readings the Parsers pane has so far (the library's
    /// `Gate::judge_looked_up`, as `check` asks it, with the lookups that have arrived), shown
    /// on the verdict line and in the Host pane.
    fn judge_gate(&mut self) {
        let Some(gate) = self.gate.as_ref() else {
            self.derived.set_gate_off();
            return;
        };
        let readings = self
            .parsers
            .comparison
            .as_ref()
            .map_or(&[][..], |c| &c.parsers[..]);
        let mut pending = self.parsers.pending();
        let lookups = match self.lookups.as_mut() {
            None => None,
            Some(background) => {
                background.ask(crate::inspect::resolve::names(readings));
                if background.lookups().is_none() {
                    pending.push("lookups");
                }
                Some(background.lookups().unwrap_or(&[]))
            }
        };
        let findings = gate.judge_looked_up(readings, lookups.unwrap_or(&[]));
        let lookups_only = !gate.is_active();
        self.derived
            .set_gate(&findings, &pending, lookups, lookups_only);
    }

    /// Asks Node's reading of every pattern from now on, in the background.
    pub fn set_node_reading(&mut self, node: crate::urlpattern::node_reading::Background) {
        self.pattern.node = Some(node);
        self.rebuild_pattern();
    }

    /// Takes Node's reading of the pattern if it has arrived, never waiting; true when the
    /// Pattern view changed.
    pub fn poll_pattern(&mut self) -> bool {
        self.pattern.node.as_mut().is_some_and(|n| n.poll())
    }

    /// Takes the external parsers' answers that have arrived, never waiting; true when the
    /// Parsers pane changed.
    pub fn poll_parsers(&mut self) -> bool {
        let changed = self.parsers.poll();
        if changed {
            self.derived
                .with_parsers(&self.report, self.parsers.comparison.as_ref());
            self.judge_gate();
            let len = super::panes::rows(self, Pane::Parsers);
            let state = &mut self.lists[Pane::Parsers.index()];
            state.selected = state.selected.min(len.saturating_sub(1));
        }
        changed
    }

    pub fn say(&mut self, text: impl Into<String>) {
        self.message = Some(Message {
            text: text.into(),
            generation: self.generation,
            focus: self.focus,
        });
    }

    fn editor(&mut self) -> Option<&mut LineEditor> {
        if let Some(edit) = &mut self.edit {
            return Some(&mut edit.editor);
        }
        match self.focus {
            Pane::Input => Some(&mut self.input),
            Pane::Base => Some(&mut self.base),
            Pane::Pattern if self.pattern.editing => Some(&mut self.pattern.editor),
            _ => None,
        }
    }

    /// Whether inserting `text` would take the edited line past [`crate::MAX_INPUT`].
    fn too_long_with(&mut self, text: &str) -> bool {
        self.editor()
            .is_some_and(|e| e.text().len() + text.len() > crate::MAX_INPUT)
    }

    fn edit_line(&mut self, f: impl FnOnce(&mut LineEditor) -> Edited) {
        if self.edit.is_none() && self.focus == Pane::Pattern && self.pattern.editing {
            if f(&mut self.pattern.editor) == Edited::Text {
                self.rebuild_pattern();
            }
            return;
        }
        let in_component = self.edit.is_some();
        let was_traced = self.input.text().len() <= crate::MAX_TRACED_INPUT;
        let Some(editor) = self.editor() else {
            return;
        };
        if f(editor) == Edited::Text && !in_component {
            self.history_pos = None;
            self.reparse();
            let length = self.input.text().len();
            if self.gallery.is_some() && length == 0 {
                // An empty Input is not about the lesson any more.
                let kept = self.leave_gallery();
                self.say(if kept {
                    "Left the gallery: ↑ brings back your own URL from before it."
                } else {
                    "Left the gallery (ctrl-n opens it again)."
                });
            } else if was_traced && length > crate::MAX_TRACED_INPUT {
                self.say(format!(
                    "Not traced: the input is {length} bytes, over the {} (1 MiB) the trace is \
                     recorded for, so that typing stays quick. The other panes are complete.",
                    crate::MAX_TRACED_INPUT
                ));
            }
        }
    }

    fn move_in(&mut self, pane: Pane, delta: isize) {
        if pane == Pane::Grammar {
            let offset = &self.lists[pane.index()].offset;
            offset.set((offset.get() as isize + delta).max(0) as usize);
            return;
        }
        if pane == Pane::Trace {
            // j/k move by the lines shown: a collapsed run is one line.
            let (Some(trace), Some(index)) = (self.trace(), self.row_index()) else {
                return;
            };
            let rows = &self.trace_rows;
            let last = rows.total(trace, &index).saturating_sub(1) as isize;
            let line = rows.line_of(self.step(), &index) as isize;
            let line = (line + delta).clamp(0, last.max(0)) as usize;
            self.lists[pane.index()].selected = rows.step_of(line, &index);
            return;
        }
        let len = super::panes::rows(self, pane);
        let state = &mut self.lists[pane.index()];
        let last = len.saturating_sub(1) as isize;
        state.selected = (state.selected as isize + delta).clamp(0, last.max(0)) as usize;
        if pane == Pane::Errors {
            self.jump_to_selected_error();
        }
    }

    fn move_selection(&mut self, delta: isize) {
        match self.overlays.last() {
            Some(Overlay::Help) => scroll(&self.help_scroll, delta),
            Some(Overlay::Detail) => scroll(&self.detail_scroll, delta),
            None => self.move_in(self.focus, delta),
        }
    }

    /// Selecting an error jumps the trace to the step that raised it.
    fn jump_to_selected_error(&mut self) {
        // Looked up when an error is selected, not for every report: it walks the trace.
        let row = self.selected(Pane::Errors);
        let (Some(error), Some(trace), None) = (
            self.report.errors.get(row),
            &self.report.trace,
            &self.setter_run,
        ) else {
            return;
        };
        if let Some(step) = (0..trace.len()).find(|&i| trace.view(i).errors.contains(&error)) {
            self.select_step(step);
        }
    }

    /// Sets the input and base (each undoable); true when either changed (and was parsed).
    fn set_pair(&mut self, input: &str, base: &str) -> bool {
        let a = self.input.set(input);
        let b = self.base.set(base);
        let changed = a == Edited::Text || b == Edited::Text;
        if changed {
            self.reparse();
        }
        changed
    }

    fn history_move(&mut self, back: bool) {
        if back && self.history_pos.is_none() && self.gallery.is_some() {
            // A pair from the history is not the lesson's: the gallery ends, and the person's
            // own pair from before it becomes the newest entry, the first ↑ brings back.
            self.leave_gallery();
        }
        if self.history.entries.is_empty() {
            self.say("The history is empty: Enter remembers the input and base.");
            return;
        }
        let last = self.history.entries.len() - 1;
        let pos = match (self.history_pos, back) {
            (None, true) => {
                self.draft = Some((self.input.text().to_owned(), self.base.text().to_owned()));
                last
            }
            (None, false) => return,
            (Some(p), true) => p.saturating_sub(1),
            (Some(p), false) if p >= last => {
                // Past the newest entry: the draft comes back.
                self.history_pos = None;
                if let Some((input, base)) = self.draft.take() {
                    self.set_pair(&input, &base);
                }
                return;
            }
            (Some(p), false) => p + 1,
        };
        let entry = self.history.entries[pos].clone();
        self.set_pair(&entry.input, &entry.base);
        self.history_pos = Some(pos);
    }

    /// Remembers the current pair in history (and on disk at exit).
    pub fn remember(&mut self) -> Pushed {
        let (input, base) = (self.input.text().to_owned(), self.base.text().to_owned());
        self.history_pos = None;
        self.history.push(&input, &base)
    }

    /// Enter: remembers the pair and writes the history at once (a killed inspector keeps
    /// it), saying whether and where it was kept.
    fn remember_now(&mut self) {
        match self.remember() {
            Pushed::Empty => self.say("Nothing to remember: the Input is empty."),
            Pushed::TooLong(length) => self.say(format!(
                "Not remembered: the history keeps pairs up to {} KiB; this one is {} KiB.",
                super::history::MAX_ENTRY / 1024,
                length.div_ceil(1024)
            )),
            Pushed::Added if self.history.file().is_none() => self
                .say("Remembered for this session only: no history file is kept (--no-history)."),
            Pushed::Added => match self.history.save() {
                Ok(()) => {
                    self.say("Remembered with its base (↑/↓ bring it back, also after a restart).")
                }
                Err(e) => self.say(format!("Remembered for this session only: {e}")),
            },
        }
    }

    /// Ends the gallery where it is: the input and base on screen stay, and the person's own
    /// pair from before the gallery goes into the history. True when there was one to keep.
    fn leave_gallery(&mut self) -> bool {
        let Some(g) = self.gallery.take() else {
            return false;
        };
        let (input, base) = g.draft;
        let current = (self.input.text(), self.base.text());
        if input.is_empty() || current == (input.as_str(), base.as_str()) {
            return false;
        }
        self.history_pos = None;
        self.history.push(&input, &base) == Pushed::Added
    }

    /// Called once when the inspector ends: the current pair joins the history on disk.
    pub fn finish(&mut self) -> std::io::Result<()> {
        self.remember();
        self.history.save()
    }

    /// Opens on `view` and, with `step`, on that step of the trace in step mode (the
    /// command line's `--view` and `--step`). An error says why the step cannot be shown.
    pub fn open_at(&mut self, view: Option<Pane>, step: Option<usize>) -> Result<(), String> {
        if let Some(step) = step {
            if view.is_some_and(|v| v != Pane::Trace) {
                return Err(
                    "--step selects a step of the trace: it goes with --view trace (or no --view)"
                        .to_owned(),
                );
            }
            let steps = self.trace().map_or(0, Trace::len);
            if steps == 0 {
                let why = match &self.report.outcome {
                    crate::report::Outcome::BaseFailure { .. } => {
                        "the base fails to parse, so the input is never parsed"
                    }
                    _ if self.input.text().len() > crate::MAX_TRACED_INPUT => {
                        "the input is over 1 MiB, the trace's limit"
                    }
                    _ => "there is no input to parse",
                };
                return Err(format!("--step {step}: this input has no trace ({why})"));
            }
            if step >= steps {
                return Err(format!(
                    "--step {step}: the trace of this input has {steps} steps, 0 to {}",
                    steps - 1
                ));
            }
            self.focus_on(Pane::Trace);
            self.step_mode = true;
            self.select_step(step);
            return Ok(());
        }
        if let Some(view) = view {
            self.focus_on(view);
        }
        Ok(())
    }

    fn gallery_move(&mut self, forward: bool) {
        let n = gallery().len();
        if n == 0 {
            return;
        }
        // Positions 0..n are the examples; n is the person's own pair.
        let current = self.gallery.as_ref().map_or(n, |g| g.position);
        let next = if forward {
            (current + 1) % (n + 1)
        } else {
            (current + n) % (n + 1)
        };
        // What the person typed over an example is not dropped: it joins the history.
        let edit = self
            .gallery
            .as_ref()
            .filter(|g| g.edited(self.input.text(), self.base.text()))
            .map(|g| {
                let pair = (self.input.text().to_owned(), self.base.text().to_owned());
                (g.position + 1, pair)
            });
        let kept = edit.and_then(|(number, (input, base))| {
            (self.history.push(&input, &base) == Pushed::Added).then_some(number)
        });
        let kept_words = kept.map_or(String::new(), |number| {
            format!(" Your edit of example {number} is in the history (↑ in the Input).")
        });
        if next == n {
            self.step_mode = false;
            if let Some(g) = self.gallery.take() {
                let encoding_changed = self.encoding != g.draft_encoding;
                self.encoding = g.draft_encoding;
                self.pattern.ignore_case = g.draft_pattern.1;
                self.set_pattern(&g.draft_pattern.0);
                self.rebuild_pattern();
                if !self.set_pair(&g.draft.0, &g.draft.1) && encoding_changed {
                    self.reparse();
                }
            }
            self.say(format!("Back to your own input and base.{kept_words}"));
            return;
        }
        self.open_example(next);
        if kept.is_some() {
            self.say(format!("Example {}/{n}.{kept_words}", next + 1));
        }
    }

    /// Shows example `position` of the gallery: its input and base, parsed with its encoding
    /// (UTF-8 unless it names one), then its setter, whose trace the Trace pane shows.
    pub fn open_example(&mut self, position: usize) {
        let Some(example) = gallery().get(position) else {
            return;
        };
        let (draft, draft_encoding, draft_pattern) = match self.gallery.take() {
            Some(g) => (g.draft, g.draft_encoding, g.draft_pattern),
            None => (
                (self.input.text().to_owned(), self.base.text().to_owned()),
                self.encoding,
                (
                    self.pattern.editor.text().to_owned(),
                    self.pattern.ignore_case,
                ),
            ),
        };
        self.step_mode = false;
        self.edit = None;
        let encoding = example.encoding().unwrap_or(UTF_8);
        let encoding_changed = self.encoding != encoding;
        self.encoding = encoding;
        if !self.set_pair(&example.input, example.base.as_deref().unwrap_or(""))
            && (encoding_changed || self.setter_run.is_some())
        {
            self.reparse();
        }
        self.lists[Pane::Trace.index()].selected = 0;
        if let Some((component, value)) = example
            .set
            .as_ref()
            .and_then(|s| Some((s.component()?, s.value.clone())))
        {
            self.run_setter_with(component, &value);
            // The lesson is the setter's trace: it is the pane shown on a small screen.
            self.view = Pane::Trace;
        }
        if let Some(pattern) = &example.pattern {
            // The lesson is the pattern's match: the Pattern view is shown.
            self.pattern.editing = false;
            self.pattern.ignore_case = example.ignore_case;
            self.set_pattern(pattern);
            self.rebuild_pattern();
            self.lists[Pane::Pattern.index()].selected = 0;
            self.view = Pane::Pattern;
            if !self.focus.is_text() {
                self.focus_on(Pane::Pattern);
            }
        }
        self.gallery = Some(GalleryState {
            position,
            draft,
            draft_encoding,
            draft_pattern,
            shown: (self.input.text().to_owned(), self.base.text().to_owned()),
        });
    }

    /// ctrl-t: selects the step the lesson names, in step mode.
    fn jump_to_lesson_step(&mut self) {
        if self.edit.is_some() {
            self.say("The edit is still open: Enter runs the setter, Esc drops the edit.");
            return;
        }
        let Some(watch) = self.example().and_then(|e| e.watch.as_ref()) else {
            self.say("No lesson step here: ctrl-n opens the gallery, whose lessons name a step to watch.");
            return;
        };
        let Some(step) = self.trace().and_then(|t| watch.find(t)) else {
            self.say(format!(
                "The {}'s step {} is not in this trace (the input was edited?).",
                watch.state, watch.step
            ));
            return;
        };
        self.focus_on(Pane::Trace);
        self.step_mode = true;
        self.select_step(step);
        self.say(format!(
            "Step {step}: the {}, step {} of the standard (h/l step around it, Esc leaves step mode).",
            watch.state, watch.step
        ));
    }

    /// Expands or collapses the run the selected step is in. Expanding selects the run's first
    /// step; collapsing selects the run's line (its last step). In step mode, collapsing skips
    /// the run: step mode goes on from its last step, and the next `l` leaves it.
    fn toggle_run(&mut self) {
        let Some(index) = self.row_index() else {
            return;
        };
        if !self.trace_rows.collapse {
            self.say("Every step has its own line: O collapses the runs again.");
            return;
        }
        let Some(run) = index.run_of(self.step()).cloned() else {
            self.say("Not a run: o expands and collapses a line of steps that only append (×n).");
            return;
        };
        let selected = &mut self.lists[Pane::Trace.index()].selected;
        if self.trace_rows.expanded.remove(&run.steps.start) {
            *selected = run.steps.end - 1;
        } else {
            self.trace_rows.expanded.insert(run.steps.start);
            *selected = run.steps.start;
        }
    }

    /// Collapses every run, or shows every step on its own line.
    fn toggle_runs(&mut self) {
        self.trace_rows.collapse = !self.trace_rows.collapse;
        self.trace_rows.reset();
        if self.trace_rows.collapse {
            // The selected step keeps its line.
            let step = self.step();
            if let Some(index) = self.row_index() {
                self.trace_rows.reveal(step, &index, self.step_mode);
            }
            self.say("Runs collapsed: a line ×n stands for steps that only append (o opens one).");
        } else {
            self.say("Every step on its own line (O collapses the runs again).");
        }
    }

    /// The validation error `f` fixes: the selected one in the Errors pane, or the first one
    /// the selected step raised in the Trace pane.
    fn error_to_fix(&self) -> Result<&crate::validation::ValidationError, &'static str> {
        match self.focus {
            Pane::Errors => self
                .report
                .errors
                .get(self.selected(Pane::Errors))
                .ok_or("No validation error to fix: the input raises none."),
            Pane::Trace if self.setter_run.is_some() => {
                Err("This is a setter's trace: fixes rewrite the Input, whose errors are in the Errors pane (5).")
            }
            Pane::Trace => {
                let trace = self.report.trace.as_ref().ok_or("No trace.")?;
                let step = self.step().min(trace.len().saturating_sub(1));
                // The view's errors borrow the trace, not the view.
                trace
                    .view(step)
                    .errors
                    .first()
                    .copied()
                    .ok_or("This step raised no validation error.")
            }
            _ => Err("f fixes the selected validation error (Errors pane, 5) or the selected step's."),
        }
    }

    /// `f`: rewrites the Input so that the selected error goes away, as one undoable edit.
    fn apply_fix(&mut self) {
        // An input that is not a URL: the failure's fix, whatever error is selected (no error's
        // own fix applies to a URL that does not parse).
        if let Some(why) = self.report.not_a_url() {
            if let (Some(fix), Some(fixed)) = (&why.fix, &why.fixed) {
                let input = self.input.text().to_owned();
                let edits = super::panes::errors::edits_in_words(&input, fix);
                let moved = crate::validation::fix::moved_destination(
                    &input,
                    fixed,
                    self.report.base.as_deref(),
                );
                if self.input.set(fixed) == Edited::Text {
                    self.history_pos = None;
                    self.reparse();
                }
                self.say(format!(
                    "Fixed the failure ({}): {edits}{} (ctrl-z undoes)",
                    why.step,
                    moved.map_or(String::new(), |m| format!("; {m}"))
                ));
                return;
            }
        }
        let error = match self.error_to_fix() {
            Ok(error) => error.clone(),
            Err(why) => {
                self.say(why);
                return;
            }
        };
        let input = self.input.text().to_owned();
        let fixer = crate::validation::fix::Fixer::new(
            &input,
            self.report.url.as_ref().map(crate::Url::record),
            self.report.host_span,
        )
        .with_base(self.report.base_url.as_ref());
        let Some(fix) = fixer.fix(&error) else {
            self.say(format!(
                "No fix for {}: {}",
                error.kind,
                match self.report.not_a_url() {
                    Some(why) => format!(
                        "the input is not a URL ({}), and no rewrite is known that makes it parse.",
                        why.step
                    ),
                    None => "only a change of the URL's meaning would remove it.".to_owned(),
                }
            ));
            return;
        };
        let fixed = crate::validation::fix::apply(&input, std::slice::from_ref(&fix));
        let edits = super::panes::errors::edits_in_words(&input, &fix);
        if self.input.set(&fixed) == Edited::Text {
            self.history_pos = None;
            self.reparse();
        }
        self.say(format!(
            "Fixed {}: {edits}{} (ctrl-z undoes)",
            error.kind,
            if fix.same_href {
                ""
            } else {
                "; the href changes"
            }
        ));
    }

    /// Enter on the Components pane: edit the component.
    fn start_edit(&mut self) {
        if self.step_mode {
            self.say("Leave step mode (Esc) to edit: setters run on the finished URL.");
            return;
        }
        let Some(row) = self.component_row(self.selected(Pane::Components)) else {
            self.say("Nothing to edit: the input is not a URL.");
            return;
        };
        let Some(component) = Component::ALL.iter().copied().find(|c| c.name() == row.key) else {
            self.say("Only the URL API's components have setters.");
            return;
        };
        let Some(url) = &self.report.url else {
            return;
        };
        if component == Component::Href {
            self.say("The href is the Input line: edit it there (1).");
            return;
        }
        self.edit = Some(ComponentEdit {
            component,
            editor: LineEditor::new(&url.get(component)),
        });
    }

    fn run_setter(&mut self) {
        let Some(ComponentEdit { component, editor }) = self.edit.take() else {
            return;
        };
        self.run_setter_with(component, editor.text());
    }

    /// Runs `component`'s setter with `value` on the URL the input parses to; the Input gets
    /// the href after it and the Trace pane the setter's trace.
    fn run_setter_with(&mut self, component: Component, value: &str) {
        let Some(url) = &self.report.url else {
            return;
        };
        let before = url.href().to_owned();
        let mut edited = url.clone();
        let mut recorder = Recorder::new();
        let initial = edited.record().clone();
        let decided =
            Setter::of(component).and_then(|setter| SetterStep::deciding(setter, value, &initial));
        let failed = edited.set(component, value, &mut recorder).is_err();
        let after = edited.href().to_owned();
        let trace = recorder.finish(value, initial);
        self.input.set(&after);
        self.reparse();
        self.say(if failed {
            format!("The {component} setter returned failure; the URL is {after}")
        } else if before == after {
            match decided {
                Some(step) => format!(
                    "The {component} setter changed nothing: its step {} decided, without the parser (3 Trace says why)",
                    step.number
                ),
                None => format!("The {component} setter changed nothing"),
            }
        } else {
            format!("{component} set: {after}")
        });
        self.setter_run = Some(SetterRun {
            component,
            value: value.to_owned(),
            before,
            after,
            failed,
            trace,
            decided,
        });
        self.lists[Pane::Trace.index()].selected = 0;
        self.new_trace();
    }

    fn copy(&mut self, what: &'static str, text: Option<String>) {
        match text {
            Some(text) => self.pending_copy = Some(CopyRequest { what, text }),
            None => self.say(format!("Nothing to copy: no {what}.")),
        }
    }

    fn selected_value(&self) -> Option<String> {
        if self.focus.is_text() {
            return Some(if self.focus == Pane::Input {
                self.input.text().to_owned()
            } else {
                self.base.text().to_owned()
            });
        }
        self.detail().2.filter(|v| !v.is_empty())
    }

    fn focus_on(&mut self, pane: Pane) {
        self.focus = pane;
        if !pane.is_text() {
            self.view = pane;
        }
        if pane == Pane::Errors {
            self.jump_to_selected_error();
        }
    }

    /// Esc: the innermost thing open closes; with nothing open, it says how to quit.
    fn back(&mut self) {
        if self.overlays.last() == Some(&Overlay::Help)
            && (self.help_filtering || !self.help_filter.is_empty())
        {
            self.help_filtering = false;
            self.help_filter.clear();
            self.help_scroll.set(0);
            return;
        }
        if self.overlays.pop().is_some() {
            return;
        }
        if self.edit.take().is_some() {
            self.say("Edit dropped: the URL is unchanged.");
        } else if self.pattern.editing {
            self.pattern.editing = false;
        } else if self.step_mode {
            self.step_mode = false;
        } else if self.zoom {
            self.zoom = false;
        } else if self.gallery.is_some() {
            let kept = self.leave_gallery();
            self.say(if kept {
                "Lesson closed. ↑ brings back your own URL from before the gallery."
            } else {
                "Lesson closed (ctrl-n opens the gallery again)."
            });
        } else {
            self.say(if self.focus.is_text() {
                "Nothing to close. ctrl-c or ctrl-q quits (q quits from a pane that is not a text line)."
            } else {
                "Nothing to close. q, ctrl-c or ctrl-q quits."
            });
        }
    }

    pub fn apply(&mut self, action: Action) {
        use Action as A;
        if self.help_filtering && self.overlays.last() == Some(&Overlay::Help) {
            match &action {
                A::Insert(text) | A::Paste(text) => {
                    // A filter is a word or two: a long paste is not one.
                    self.help_filter.extend(text.chars().take(HELP_FILTER_MAX));
                    self.help_scroll.set(0);
                    return;
                }
                A::Backspace => {
                    self.help_filter.pop();
                    self.help_scroll.set(0);
                    return;
                }
                _ => {}
            }
        }
        match action {
            A::Quit => self.quit = true,
            A::FocusNext | A::FocusPrev => {
                let i = self.focus.index();
                let n = Pane::ALL.len();
                let next = if action == A::FocusNext {
                    (i + 1) % n
                } else {
                    (i + n - 1) % n
                };
                self.focus_on(Pane::ALL[next]);
            }
            A::Focus(pane) => self.focus_on(pane),
            A::NotWhileEditing if self.pattern.editing && self.edit.is_none() => {
                self.say("The pattern line is open: Enter or Esc leaves it (the pattern stays).")
            }
            A::NotWhileEditing => {
                self.say("The edit is still open: Enter runs the setter, Esc drops the edit.")
            }
            A::EditPattern => {
                self.focus_on(Pane::Pattern);
                self.pattern.editing = true;
            }
            A::EndPatternEdit => self.pattern.editing = false,
            A::ToggleIgnoreCase => {
                self.pattern.ignore_case = !self.pattern.ignore_case;
                self.rebuild_pattern();
                self.say(if self.pattern.ignore_case {
                    "ignoreCase on: the pathname, search and hash match ignoring case (i: off)."
                } else {
                    "ignoreCase off: every component matches case as written (i: on)."
                });
            }
            A::Insert(s) | A::Paste(s) if self.too_long_with(&s) => {
                self.say(format!(
                    "Not inserted: {} bytes would make the line longer than the {}-byte limit.",
                    s.len(),
                    crate::MAX_INPUT
                ));
            }
            A::Insert(s) => self.edit_line(|e| e.insert(&s)),
            // URL Standard: a pasted URL keeps its tabs and newlines; the parser removes them
            // (and says so), as it would for any input.
            A::Paste(s) => {
                if self.editor().is_none() {
                    self.focus_on(Pane::Input);
                }
                let said = self.message.as_ref().map(|m| m.text.clone());
                self.edit_line(|e| e.insert(&s));
                // Several URLs pasted at once read as one: say so (unless the edit said more).
                let lines = s.lines().filter(|l| !l.trim().is_empty()).count();
                let line = match self.focus {
                    Pane::Input => Some("Input"),
                    Pane::Base => Some("Base"),
                    _ => None,
                };
                if let (true, None, Some(line)) = (lines > 1, &self.edit, line) {
                    if self.message.as_ref().map(|m| m.text.clone()) == said {
                        self.say(format!(
                            "Pasted {lines} lines into the {line} as one URL: the basic URL parser \
                             removes every tab and newline (step 3). One URL a line: \
                             urlscope check, or urlscope parse -."
                        ));
                    }
                }
            }
            A::Backspace => self.edit_line(LineEditor::backspace),
            A::Delete => self.edit_line(LineEditor::delete),
            A::Left => self.edit_line(LineEditor::left),
            A::Right => self.edit_line(LineEditor::right),
            A::Home => self.edit_line(LineEditor::home),
            A::End => self.edit_line(LineEditor::end),
            A::WordLeft => self.edit_line(LineEditor::word_left),
            A::WordRight => self.edit_line(LineEditor::word_right),
            A::DeleteWordBack => self.edit_line(LineEditor::delete_word_back),
            A::KillToStart => self.edit_line(LineEditor::kill_to_start),
            A::KillToEnd => self.edit_line(LineEditor::kill_to_end),
            // From a pane, undo and redo act on the Input (a fix applied there, say).
            A::Undo | A::Redo if self.editor().is_none() => {
                let f = if action == A::Undo {
                    LineEditor::undo
                } else {
                    LineEditor::redo
                };
                if f(&mut self.input) == Edited::Text {
                    self.history_pos = None;
                    self.reparse();
                    self.say(format!(
                        "{} in the Input: {}",
                        if action == A::Undo {
                            "Undone"
                        } else {
                            "Redone"
                        },
                        show(self.input.text())
                    ));
                } else {
                    self.say(if action == A::Undo {
                        "Nothing to undo in the Input."
                    } else {
                        "Nothing to redo in the Input."
                    });
                }
            }
            A::Undo => self.edit_line(LineEditor::undo),
            A::Redo => self.edit_line(LineEditor::redo),
            A::HistoryPrev if self.edit.is_none() => self.history_move(true),
            A::HistoryNext if self.edit.is_none() => self.history_move(false),
            A::HistoryPrev | A::HistoryNext => {}
            A::Remember => self.remember_now(),
            A::EditComponent => self.start_edit(),
            A::RunSetter => self.run_setter(),
            A::Back => self.back(),
            A::Up => self.move_selection(-1),
            A::Down => self.move_selection(1),
            A::PageUp => self.move_selection(-(self.page.get().max(1) as isize)),
            A::PageDown => self.move_selection(self.page.get().max(1) as isize),
            A::Top => self.move_selection(isize::MIN / 2),
            A::Bottom => self.move_selection(isize::MAX / 2),
            A::StepPrev | A::StepNext => {
                if let Some(len) = self.trace().map(Trace::len).filter(|&n| n > 0) {
                    if self.focus != Pane::Trace {
                        return;
                    }
                    let entering = !self.step_mode;
                    self.step_mode = true;
                    // Entering step mode shows the selected step; then h/l move one step
                    // at a time. A step in a collapsed run gets its own line: the run
                    // expands.
                    let mut step = self.step();
                    if !entering || step == 0 {
                        step = if action == A::StepNext {
                            (step + 1).min(len - 1)
                        } else {
                            step.saturating_sub(1)
                        };
                    }
                    self.select_step(step);
                }
            }
            A::ToggleRun => self.toggle_run(),
            A::ToggleRuns => self.toggle_runs(),
            A::ApplyFix => self.apply_fix(),
            A::LessonStep => self.jump_to_lesson_step(),
            A::ColumnPrev | A::ColumnNext if self.focus == Pane::Parsers => {
                let n = Part::ALL.len() - 1;
                let column = self.parsers.column;
                self.parsers.column = if action == A::ColumnNext {
                    (column + 1).min(n - 1)
                } else {
                    column.saturating_sub(1)
                };
            }
            A::ColumnPrev | A::ColumnNext => {}
            A::ToggleZoom => self.zoom = !self.zoom,
            A::ToggleExpand => self.expand_all = !self.expand_all,
            A::ToggleHelp => {
                if self.overlays.last() == Some(&Overlay::Help) {
                    self.overlays.pop();
                } else {
                    self.help_scroll.set(0);
                    self.help_filter.clear();
                    self.help_filtering = false;
                    self.overlays.push(Overlay::Help);
                }
            }
            A::FilterHelp => {
                self.help_filtering = self.overlays.last() == Some(&Overlay::Help);
            }
            A::EndHelpFilter => self.help_filtering = false,
            A::CopyHandout => match self.handout() {
                Some(command) => self.copy("command", Some(command)),
                None => self.say(super::model::NO_COMMAND_FOR_NUL),
            },
            A::ToggleDetail => {
                if self.overlays.last() == Some(&Overlay::Detail) {
                    self.overlays.pop();
                } else if !self.focus.is_text() {
                    self.detail_scroll.set(0);
                    self.overlays.push(Overlay::Detail);
                }
            }
            A::ToggleMouse => {
                self.mouse = !self.mouse;
                self.say(if self.mouse {
                    "Mouse on: the wheel scrolls, a click selects (F2: off, for the terminal's own selection)."
                } else {
                    "Mouse off: the terminal selects text again (F2: on)."
                });
            }
            A::CopyHref => {
                let href = self.report.url.as_ref().map(|u| u.href().to_owned());
                self.copy("href", href);
            }
            A::CopySelected => {
                let value = self.selected_value();
                self.copy("selected value", value);
            }
            A::CopyUnicodeHost => {
                let host = self.unicode_host();
                self.copy("Unicode host", host);
            }
            A::StripUp => scroll(&self.strip_scroll, -1),
            A::StripDown => scroll(&self.strip_scroll, 1),
            A::Click { pane, row, column } => self.click(pane, row, column),
            A::Scroll { pane, down } => {
                let delta = if down { 1 } else { -1 };
                if self.overlays.is_empty() {
                    self.move_in(pane, delta);
                } else {
                    self.move_selection(delta);
                }
            }
            A::GalleryNext => self.gallery_move(true),
            A::GalleryPrev => self.gallery_move(false),
        }
    }

    fn click(&mut self, pane: Pane, row: usize, column: usize) {
        if !self.overlays.is_empty() || self.edit.is_some() {
            return;
        }
        self.focus_on(pane);
        match pane {
            Pane::Input if row == 0 => {
                let target = self.input_start.get() + column;
                let columns = crate::display::columns(
                    self.input.text(),
                    crate::display::EscapeStyle::Symbols,
                );
                let index = columns
                    .windows(2)
                    .position(|w| target < w[1])
                    .unwrap_or(columns.len() - 1);
                self.input.set_cursor(index);
            }
            Pane::Input | Pane::Base | Pane::Grammar => {}
            // The pattern line: a click there edits it.
            Pane::Pattern if row == 0 => self.pattern.editing = true,
            _ => {
                let item = self.lists[pane.index()].lines.borrow().get(row).copied();
                if let Some(Some(item)) = item {
                    // The Trace pane's lines are rows of the collapsed trace.
                    let item = match (pane, self.row_index()) {
                        (Pane::Trace, Some(index)) => self.trace_rows.step_of(item, &index),
                        _ => item,
                    };
                    self.lists[pane.index()].selected = item;
                    if pane == Pane::Errors {
                        self.jump_to_selected_error();
                    }
                }
            }
        }
    }
}

/// How long the Pattern view lets one component's regular expression run on the input before
/// it says the match took too long: matching runs on every keystroke.
const PATTERN_MATCH_TIME_LIMIT: std::time::Duration = std::time::Duration::from_millis(250);

/// The longest filter the help takes from one paste, in characters.
const HELP_FILTER_MAX: usize = 100;

/// What the inspector shows of `input`: [`Report::for_inspector`], with `encoding` as the
/// query encoding.
fn report_for(input: &str, base: Option<&str>, encoding: &'static Encoding) -> Report {
    if input.len() <= crate::MAX_TRACED_INPUT {
        return Report::with_encoding(input, base, encoding);
    }
    if encoding != UTF_8 {
        match base.map(|b| crate::Url::parse(b, None)) {
            None => return Report::untraced(input, None, encoding),
            Some(Ok(base_url)) => return Report::untraced(input, Some(base_url), encoding),
            // The report of a failing base does not depend on the encoding.
            Some(Err(_)) => {}
        }
    }
    Report::for_inspector(input, base)
}

fn scroll(at: &Cell<usize>, delta: isize) {
    at.set((at.get() as isize + delta).max(0) as usize);
}
