//! The inspector's state, and the one place that changes it: [`App::apply`].
//!
//! The report is rebuilt whenever the input or the base changes; panes only read it.

use crate::report::Report;
use crate::trace::{Recorder, Trace};
use crate::url::{Component, Host, Url, UrlRecord};

use super::action::Action;
use super::editor::{Edited, LineEditor};
use super::gallery::{gallery, Example};

/// The panes, in focus order; the number keys 1–7 reach them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pane {
    Input,
    Base,
    Trace,
    Components,
    Errors,
    Host,
    Resolution,
    Grammar,
}

impl Pane {
    pub const ALL: [Pane; 8] = [
        Pane::Input,
        Pane::Base,
        Pane::Trace,
        Pane::Components,
        Pane::Errors,
        Pane::Host,
        Pane::Resolution,
        Pane::Grammar,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Pane::Input => "Input",
            Pane::Base => "Base",
            Pane::Trace => "Trace",
            Pane::Components => "Components",
            Pane::Errors => "Validation errors",
            Pane::Host => "Host",
            Pane::Resolution => "Base resolution",
            Pane::Grammar => "Grammar",
        }
    }

    pub fn number(self) -> usize {
        Pane::ALL.iter().position(|&p| p == self).unwrap_or(0) + 1
    }
}

/// The components the Components pane lists, in order: the URL API's getters.
pub const COMPONENT_ROWS: [Component; 10] = Component::ALL;

/// A setter run through the URL API from the Components pane.
#[derive(Clone, Debug)]
pub struct SetterRun {
    pub component: Component,
    pub value: String,
    pub before: String,
    pub after: String,
    pub failed: bool,
    pub trace: Trace,
}

/// Something to put on the clipboard; the runner does it (and reports how).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CopyRequest {
    pub what: &'static str,
    pub text: String,
}

#[derive(Debug)]
pub struct App {
    pub input: LineEditor,
    pub base: LineEditor,
    pub focus: Pane,
    pub report: Report,
    /// The selected trace step (an index into the shown trace).
    pub step: usize,
    /// Step mode: the input marks the selected step's pointer and the components show the
    /// record as it was after that step.
    pub step_mode: bool,
    pub component_row: usize,
    pub error_row: usize,
    pub resolution_row: usize,
    /// The selected finding of the host analysis.
    pub finding_row: usize,
    /// A component being edited: Enter runs its setter.
    pub editing: Option<(Component, LineEditor)>,
    pub setter_run: Option<SetterRun>,
    pub zoom: bool,
    pub help: bool,
    /// Host parsing sub-steps shown under every step (otherwise under the selected one).
    pub expand_all: bool,
    pub status: String,
    pub history: Vec<String>,
    history_pos: Option<usize>,
    gallery_pos: Option<usize>,
    pub pending_copy: Option<CopyRequest>,
    pub quit: bool,
    /// Rows the list panes show at once (set by the renderer), for paging.
    pub page: usize,
}

impl App {
    pub fn new(input: &str, base: &str) -> Self {
        let mut app = App {
            input: LineEditor::new(input),
            base: LineEditor::new(base),
            focus: Pane::Input,
            report: Report::new("", None),
            step: 0,
            step_mode: false,
            component_row: 0,
            error_row: 0,
            resolution_row: 0,
            finding_row: 0,
            editing: None,
            setter_run: None,
            zoom: false,
            help: false,
            expand_all: false,
            status: "Type a URL. Tab moves between panes, ? shows every key.".to_owned(),
            history: Vec::new(),
            history_pos: None,
            gallery_pos: None,
            pending_copy: None,
            quit: false,
            page: 10,
        };
        app.reparse();
        app
    }

    /// Rebuilds the report after the input or the base changed.
    fn reparse(&mut self) {
        let base = self.base.text();
        let base = (!base.trim().is_empty()).then_some(base);
        self.report = Report::for_inspector(self.input.text(), base);
        self.setter_run = None;
        let steps = self.trace().map_or(0, Trace::len);
        self.step = self.step.min(steps.saturating_sub(1));
        self.error_row = self
            .error_row
            .min(self.report.errors.len().saturating_sub(1));
    }

    /// The trace the Trace pane shows: a setter's run, or the input's parse.
    pub fn trace(&self) -> Option<&Trace> {
        match &self.setter_run {
            Some(run) => Some(&run.trace),
            None => self.report.trace.as_ref(),
        }
    }

    /// The host analysis's findings (none when there is no analysis).
    pub fn findings(&self) -> &[crate::inspect::Finding] {
        self.report
            .host_analysis
            .as_ref()
            .map_or(&[], |a| a.findings.as_slice())
    }

    /// The URL record to show: as it was after the selected step in step mode, else the
    /// parsed URL's.
    pub fn shown_record(&self) -> Option<UrlRecord> {
        if self.step_mode {
            let trace = self.trace()?;
            if trace.is_empty() {
                return None;
            }
            return Some(trace.state_after(self.step.min(trace.len() - 1)).1);
        }
        self.report.url.as_ref().map(|u| u.record().clone())
    }

    /// The value the component row shows, from [`App::shown_record`].
    pub fn component_value(&self, component: Component) -> Option<String> {
        if !self.step_mode {
            return Some(self.report.url.as_ref()?.get(component));
        }
        let record = self.shown_record()?;
        Some(Url::from_record(record).get(component))
    }

    /// Whether there is a record to show (cheaper than building it).
    pub fn has_shown_record(&self) -> bool {
        if self.step_mode {
            self.trace().is_some_and(|t| !t.is_empty())
        } else {
            self.report.url.is_some()
        }
    }

    fn editor(&mut self) -> Option<&mut LineEditor> {
        if let Some((_, editor)) = &mut self.editing {
            return Some(editor);
        }
        match self.focus {
            Pane::Input => Some(&mut self.input),
            Pane::Base => Some(&mut self.base),
            _ => None,
        }
    }

    /// Whether inserting `text` would take the edited line past [`crate::MAX_INPUT`].
    fn too_long_with(&mut self, text: &str) -> bool {
        self.editor()
            .is_some_and(|e| e.text().len() + text.len() > crate::MAX_INPUT)
    }

    fn edit(&mut self, f: impl FnOnce(&mut LineEditor) -> Edited) {
        let in_component = self.editing.is_some();
        let Some(editor) = self.editor() else {
            return;
        };
        if f(editor) == Edited::Text && !in_component {
            self.history_pos = None;
            self.reparse();
        }
    }

    fn list_len(&self) -> usize {
        match self.focus {
            Pane::Trace => self.trace().map_or(0, Trace::len),
            Pane::Components => COMPONENT_ROWS.len(),
            Pane::Errors => self.report.errors.len(),
            Pane::Resolution => self.report.resolutions.len(),
            Pane::Host => self.findings().len(),
            _ => 0,
        }
    }

    fn selection(&mut self) -> Option<&mut usize> {
        match self.focus {
            Pane::Trace => Some(&mut self.step),
            Pane::Components => Some(&mut self.component_row),
            Pane::Errors => Some(&mut self.error_row),
            Pane::Resolution => Some(&mut self.resolution_row),
            Pane::Host => Some(&mut self.finding_row),
            _ => None,
        }
    }

    fn move_selection(&mut self, delta: isize) {
        let len = self.list_len();
        if let Some(row) = self.selection() {
            let last = len.saturating_sub(1) as isize;
            *row = (*row as isize + delta).clamp(0, last.max(0)) as usize;
        }
        if self.focus == Pane::Errors {
            self.jump_to_selected_error();
        }
    }

    /// Selecting an error jumps the trace to the step that raised it.
    fn jump_to_selected_error(&mut self) {
        let Some(error) = self.report.errors.get(self.error_row) else {
            return;
        };
        let Some(trace) = self.report.trace.as_ref() else {
            return;
        };
        if let Some(index) = (0..trace.len()).find(|&i| trace.view(i).errors.contains(&error)) {
            self.step = index;
        }
    }

    fn history_move(&mut self, back: bool) {
        if self.history.is_empty() {
            return;
        }
        let last = self.history.len() - 1;
        let pos = match (self.history_pos, back) {
            (None, true) => last,
            (None, false) => return,
            (Some(p), true) => p.saturating_sub(1),
            (Some(p), false) if p >= last => {
                self.history_pos = None;
                return;
            }
            (Some(p), false) => p + 1,
        };
        self.history_pos = Some(pos);
        let entry = self.history[pos].clone();
        if self.input.set(&entry) == Edited::Text {
            self.reparse();
        }
    }

    fn remember(&mut self) {
        let text = self.input.text().to_owned();
        if !text.is_empty() && self.history.last() != Some(&text) {
            self.history.push(text);
        }
        self.history_pos = None;
    }

    fn show_example(&mut self, example: &Example) {
        self.input.set(&example.input);
        self.base.set(example.base.as_deref().unwrap_or(""));
        self.step_mode = false;
        self.reparse();
    }

    fn gallery_move(&mut self, forward: bool) {
        let examples = gallery();
        let n = examples.len();
        if n == 0 {
            return;
        }
        let pos = match (self.gallery_pos, forward) {
            (None, true) => 0,
            (None, false) => n - 1,
            (Some(p), true) => (p + 1) % n,
            (Some(p), false) => (p + n - 1) % n,
        };
        self.gallery_pos = Some(pos);
        self.show_example(&examples[pos]);
        self.status = format!("Example {}/{n}: {}", pos + 1, examples[pos].lesson);
    }

    /// Enter on the Components pane: edit the component; Enter again runs its setter.
    fn submit_component(&mut self) {
        match self.editing.take() {
            None => {
                let component = COMPONENT_ROWS[self.component_row.min(COMPONENT_ROWS.len() - 1)];
                let Some(url) = &self.report.url else {
                    self.status = "Nothing to edit: the input is not a URL.".to_owned();
                    return;
                };
                let editor = LineEditor::new(&url.get(component));
                self.editing = Some((component, editor));
                self.status = format!(
                    "Editing {component}: Enter runs the URL API's {component} setter, Esc cancels."
                );
            }
            Some((component, editor)) => {
                let Some(url) = &self.report.url else {
                    return;
                };
                let before = url.href().to_owned();
                let mut edited = url.clone();
                let mut recorder = Recorder::new();
                let initial = edited.record().clone();
                let failed = edited.set(component, editor.text(), &mut recorder).is_err();
                let after = edited.href().to_owned();
                let trace = recorder.finish(editor.text(), initial);
                self.input.set(&after);
                self.reparse();
                self.status = if failed {
                    format!("The {component} setter returned failure; the URL is {after}")
                } else if before == after {
                    format!("The {component} setter changed nothing")
                } else {
                    format!("{component} set: {after}")
                };
                self.setter_run = Some(SetterRun {
                    component,
                    value: editor.text().to_owned(),
                    before,
                    after,
                    failed,
                    trace,
                });
                self.step = 0;
            }
        }
    }

    fn copy(&mut self, what: &'static str, text: Option<String>) {
        match text {
            Some(text) => self.pending_copy = Some(CopyRequest { what, text }),
            None => self.status = format!("Nothing to copy: no {what}."),
        }
    }

    /// The Unicode form of the host, when it is a domain.
    pub fn unicode_host(&self) -> Option<String> {
        match self.report.url.as_ref()?.record().host.as_ref()? {
            Host::Domain(domain) => Some(crate::url::host::domain_to_unicode(domain)),
            _ => None,
        }
    }

    fn selected_value(&self) -> Option<String> {
        match self.focus {
            Pane::Components => self.component_value(COMPONENT_ROWS[self.component_row]),
            Pane::Resolution => self
                .report
                .resolutions
                .get(self.resolution_row)
                .and_then(|r| r.href.clone()),
            Pane::Errors => self
                .report
                .errors
                .get(self.error_row)
                .map(|e| e.kind.name().to_owned()),
            Pane::Trace => self
                .trace()
                .map(|t| t.view(self.step).phase.name().to_owned()),
            _ => Some(self.input.text().to_owned()),
        }
    }

    pub fn apply(&mut self, action: Action) {
        use Action as A;
        match action {
            A::Quit => self.quit = true,
            A::FocusNext | A::FocusPrev => {
                let i = self.focus.number() - 1;
                let n = Pane::ALL.len();
                let next = if action == A::FocusNext {
                    (i + 1) % n
                } else {
                    (i + n - 1) % n
                };
                self.focus = Pane::ALL[next];
                self.editing = None;
            }
            A::Focus(pane) => {
                self.focus = pane;
                self.editing = None;
                if pane == Pane::Errors {
                    self.jump_to_selected_error();
                }
            }
            A::Insert(s) | A::Paste(s) if self.too_long_with(&s) => {
                self.status = format!(
                    "not inserted: {} bytes would make the line longer than the {}-byte limit",
                    s.len(),
                    crate::MAX_INPUT
                );
            }
            A::Insert(s) => self.edit(|e| e.insert(&s)),
            // URL Standard: a pasted URL keeps its tabs and newlines; the parser removes them
            // (and says so), as it would for any input.
            A::Paste(s) => self.edit(|e| e.insert(&s)),
            A::Backspace => self.edit(LineEditor::backspace),
            A::Delete => self.edit(LineEditor::delete),
            A::Left => self.edit(LineEditor::left),
            A::Right => self.edit(LineEditor::right),
            A::Home => self.edit(LineEditor::home),
            A::End => self.edit(LineEditor::end),
            A::WordLeft => self.edit(LineEditor::word_left),
            A::WordRight => self.edit(LineEditor::word_right),
            A::DeleteWordBack => self.edit(LineEditor::delete_word_back),
            A::KillToStart => self.edit(LineEditor::kill_to_start),
            A::KillToEnd => self.edit(LineEditor::kill_to_end),
            A::Undo => self.edit(LineEditor::undo),
            A::Redo => self.edit(LineEditor::redo),
            A::HistoryPrev => self.history_move(true),
            A::HistoryNext => self.history_move(false),
            A::Submit => match self.focus {
                Pane::Components => self.submit_component(),
                Pane::Input | Pane::Base => {
                    self.remember();
                    self.status = "Remembered in history (↑/↓).".to_owned();
                }
                _ => {}
            },
            A::Cancel => {
                if self.help {
                    self.help = false;
                } else if self.editing.is_some() {
                    self.editing = None;
                    self.status = "Edit cancelled.".to_owned();
                } else if self.step_mode {
                    self.step_mode = false;
                } else if self.zoom {
                    self.zoom = false;
                } else {
                    self.quit = true;
                }
            }
            A::Up => self.move_selection(-1),
            A::Down => self.move_selection(1),
            A::PageUp => self.move_selection(-(self.page.max(1) as isize)),
            A::PageDown => self.move_selection(self.page.max(1) as isize),
            A::Top => self.move_selection(isize::MIN / 2),
            A::Bottom => self.move_selection(isize::MAX / 2),
            A::StepPrev | A::StepNext => {
                if self.focus == Pane::Trace {
                    self.step_mode = true;
                    self.move_selection(if action == A::StepNext { 1 } else { -1 });
                }
            }
            A::ToggleZoom => self.zoom = !self.zoom,
            A::ToggleExpand => self.expand_all = !self.expand_all,
            A::ToggleHelp => self.help = !self.help,
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
            A::Click { pane, row } => {
                self.apply(A::Focus(pane));
                match pane {
                    // The rows are href, origin (not settable), then the other getters; step
                    // mode shows no origin row.
                    Pane::Components => {
                        let index = match (self.step_mode, row) {
                            (true, r) => Some(r),
                            (false, 0) => Some(0),
                            (false, 1) => None,
                            (false, r) => Some(r - 1),
                        };
                        if let Some(i) = index.filter(|&i| i < COMPONENT_ROWS.len()) {
                            self.component_row = i;
                        }
                    }
                    // Two lines per error.
                    Pane::Errors if row / 2 < self.report.errors.len() => {
                        self.error_row = row / 2;
                        self.jump_to_selected_error();
                    }
                    _ => {}
                }
            }
            A::GalleryNext => self.gallery_move(true),
            A::GalleryPrev => self.gallery_move(false),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(app: &mut App, text: &str) {
        for c in text.chars() {
            app.apply(Action::Insert(c.to_string()));
        }
    }

    #[test]
    fn a_paste_past_the_input_limit_is_refused_with_a_message() {
        let mut app = App::new("https://example.com/", "");
        let huge = "a".repeat(crate::MAX_INPUT);
        app.apply(Action::Paste(huge));
        assert_eq!(app.input.text(), "https://example.com/");
        assert!(app.status.contains("limit"), "{}", app.status);
        // Up to the limit is fine.
        app.apply(Action::Paste("a".repeat(100)));
        assert_eq!(app.input.text().len(), 120);
    }

    #[test]
    fn typing_reparses_on_every_keystroke() {
        let mut app = App::new("", "");
        typed(&mut app, "https://EXAMPLE.com");
        assert_eq!(
            app.report.url.as_ref().map(Url::href),
            Some("https://example.com/")
        );
        app.apply(Action::Backspace);
        assert_eq!(app.input.text(), "https://EXAMPLE.co");
        app.apply(Action::Undo);
        assert_eq!(app.input.text(), "https://EXAMPLE.com");
        assert_eq!(app.report.input, "https://EXAMPLE.com");
    }

    #[test]
    fn base_resolves_the_input() {
        let mut app = App::new("../g", "");
        assert!(app.report.url.is_none());
        app.apply(Action::Focus(Pane::Base));
        typed(&mut app, "http://a/b/c/d;p?q");
        assert_eq!(app.report.url.as_ref().map(Url::href), Some("http://a/b/g"));
        assert!(app
            .report
            .resolutions
            .iter()
            .any(|r| r.reference == "../g" && r.href.as_deref() == Some("http://a/b/g")));
    }

    #[test]
    fn step_mode_shows_the_record_as_it_was() {
        let mut app = App::new("https://h/p?q", "");
        app.apply(Action::Focus(Pane::Trace));
        app.apply(Action::Top);
        app.apply(Action::StepNext);
        assert!(app.step_mode);
        assert_eq!(app.step, 1);
        // Early on, no host has been parsed yet.
        assert_eq!(
            app.component_value(Component::Hostname).as_deref(),
            Some("")
        );
        app.apply(Action::Bottom);
        assert_eq!(
            app.component_value(Component::Hostname).as_deref(),
            Some("h")
        );
        app.apply(Action::Cancel);
        assert!(!app.step_mode);
    }

    #[test]
    fn editing_a_component_runs_its_setter_with_a_trace() {
        let mut app = App::new("https://example.com/a", "");
        app.apply(Action::Focus(Pane::Components));
        app.component_row = COMPONENT_ROWS
            .iter()
            .position(|&c| c == Component::Host)
            .unwrap_or(0);
        app.apply(Action::Submit);
        assert!(app.editing.is_some());
        app.apply(Action::KillToStart);
        typed(&mut app, "EXAMPLE.net:8080");
        app.apply(Action::Submit);
        assert_eq!(app.input.text(), "https://example.net:8080/a");
        let run = app.setter_run.as_ref().expect("a setter run");
        assert_eq!(run.component, Component::Host);
        assert!(!run.failed);
        // A setter's run has no trimming step: tab and newline removal, then the override state.
        assert_eq!(
            run.trace.view(0).phase,
            crate::url::Phase::RemoveTabOrNewline
        );
        assert_eq!(
            run.trace.view(1).phase,
            crate::url::Phase::State(crate::url::State::Host)
        );
    }

    #[test]
    fn clicking_a_component_selects_it() {
        let mut app = App::new("https://h:1/p?q", "");
        app.apply(Action::Click {
            pane: Pane::Components,
            row: 5,
        });
        assert_eq!(app.focus, Pane::Components);
        assert_eq!(COMPONENT_ROWS[app.component_row], Component::Host);
        app.apply(Action::Click {
            pane: Pane::Components,
            row: 0,
        });
        assert_eq!(COMPONENT_ROWS[app.component_row], Component::Href);
    }

    #[test]
    fn history_and_gallery() {
        let mut app = App::new("", "");
        typed(&mut app, "a:b");
        app.apply(Action::Submit);
        app.apply(Action::KillToStart);
        typed(&mut app, "c:d");
        app.apply(Action::Submit);
        app.apply(Action::HistoryPrev);
        assert_eq!(app.input.text(), "c:d");
        app.apply(Action::HistoryPrev);
        assert_eq!(app.input.text(), "a:b");
        app.apply(Action::HistoryNext);
        assert_eq!(app.input.text(), "c:d");
        app.apply(Action::GalleryNext);
        assert_eq!(app.input.text(), gallery()[0].input);
        app.apply(Action::GalleryPrev);
        assert_eq!(app.input.text(), gallery()[gallery().len() - 1].input);
    }

    #[test]
    fn copy_requests_and_error_jumps() {
        let mut app = App::new("https://user@例え.jp:443/x y", "");
        app.apply(Action::Focus(Pane::Errors));
        app.apply(Action::CopyHref);
        assert_eq!(
            app.pending_copy,
            Some(CopyRequest {
                what: "href",
                text: "https://user@xn--r8jz45g.jp/x%20y".into()
            })
        );
        app.apply(Action::CopyUnicodeHost);
        assert_eq!(
            app.pending_copy.as_ref().map(|c| c.text.as_str()),
            Some("例え.jp")
        );
        app.apply(Action::Down);
        let error = &app.report.errors[app.error_row];
        assert_eq!(error.kind.name(), "invalid-URL-unit");
        let trace = app.report.trace.as_ref().expect("trace");
        assert!(trace.view(app.step).errors.contains(&error));
        app.apply(Action::Quit);
        assert!(app.quit);
    }
}
