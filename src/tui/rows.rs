//! The Trace pane's rows: the collapsed trace ([`Trace::rows`]), where a run of steps that
//! only append is one row until it is expanded, or every step on its own.
//!
//! The selection stays a step index everywhere else (step mode, the error jump, the detail
//! view); this module maps steps to the rows shown and back. A collapsed run stands for its
//! last step: the state after it holds everything the run appended. The row starts are found
//! once per trace (one pass of the lazy iterator) and kept until the trace changes; only the
//! runs that are expanded are walked per lookup.

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::ops::Range;
use std::rc::Rc;

use crate::trace::{Row, Trace};
use crate::url::State;

/// The longest run text kept for display (the row is cut long before it).
const RUN_TEXT: usize = 512;

/// A run of the collapsed trace, as the pane shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunInfo {
    pub steps: Range<usize>,
    pub state: State,
    pub target: &'static str,
    /// What the run appends (its start, at most `RUN_TEXT` bytes).
    pub text: String,
    /// Whether `text` is all of it.
    pub whole: bool,
}

/// The rows of one trace: where each starts, and the runs among them.
#[derive(Debug, Default)]
pub struct RowIndex {
    starts: Vec<usize>,
    /// The runs, by their first step.
    runs: Vec<RunInfo>,
}

impl RowIndex {
    pub fn of(trace: &Trace) -> Self {
        let mut index = RowIndex::default();
        for row in trace.rows() {
            index.starts.push(row.steps().start);
            if let Row::Run(run) = row {
                let mut cut = run.text.len().min(RUN_TEXT);
                while !run.text.is_char_boundary(cut) {
                    cut -= 1;
                }
                index.runs.push(RunInfo {
                    steps: run.steps.clone(),
                    state: run.state,
                    target: run.target,
                    text: run.text[..cut].to_owned(),
                    whole: cut == run.text.len(),
                });
            }
        }
        index
    }

    pub fn len(&self) -> usize {
        self.starts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// The row holding `step`.
    fn row_of(&self, step: usize) -> usize {
        self.starts
            .partition_point(|&s| s <= step)
            .saturating_sub(1)
    }

    /// The run that holds `step`, if any.
    pub fn run_of(&self, step: usize) -> Option<&RunInfo> {
        let i = self.runs.partition_point(|r| r.steps.start <= step);
        self.runs
            .get(i.checked_sub(1)?)
            .filter(|r| r.steps.contains(&step))
    }

    /// The run that starts at `step`.
    fn run_at(&self, step: usize) -> Option<&RunInfo> {
        self.run_of(step).filter(|r| r.steps.start == step)
    }
}

/// What one line of the pane shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shown<'a> {
    /// A step; `run` when it belongs to an expanded run (its first step, or a later one).
    Step { index: usize, run: Option<RunPart> },
    /// A collapsed run.
    Run(&'a RunInfo),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunPart {
    First,
    Inner,
    Last,
}

impl Shown<'_> {
    /// The step the line selects.
    pub fn step(&self) -> usize {
        match self {
            Shown::Step { index, .. } => *index,
            Shown::Run(run) => run.steps.end - 1,
        }
    }
}

/// What the pane shows of one step, kept once built: moving the trace's replay from one end
/// of a long run to the other costs the run's length, so a frame that shows steps on both
/// sides of it would pay that on every frame.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StepCells {
    pub pointer: String,
    pub c: String,
    /// The end of the buffer after the step (what a column that keeps the end shows).
    pub buffer: String,
    pub errors: Vec<String>,
    pub changes: Vec<String>,
    pub host_events: Vec<String>,
}

/// The most steps whose cells are kept; past it they are built again.
const STEP_CACHE: usize = 20_000;

/// Which runs are expanded, and the row index of the trace shown.
#[derive(Debug)]
pub struct TraceRows {
    /// Runs are one row each (else every step is a row).
    pub collapse: bool,
    /// The expanded runs, by their first step.
    pub expanded: BTreeSet<usize>,
    cache: RefCell<Option<(u64, Rc<RowIndex>)>>,
    steps: RefCell<HashMap<usize, Rc<StepCells>>>,
}

impl Default for TraceRows {
    fn default() -> Self {
        TraceRows {
            collapse: true,
            expanded: BTreeSet::new(),
            cache: RefCell::new(None),
            steps: RefCell::new(HashMap::new()),
        }
    }
}

impl TraceRows {
    /// The row index of `trace`, built once for `key` (which changes with the trace).
    pub fn index(&self, key: u64, trace: &Trace) -> Rc<RowIndex> {
        let mut cache = self.cache.borrow_mut();
        match &*cache {
            Some((k, index)) if *k == key => Rc::clone(index),
            _ => {
                let index = Rc::new(RowIndex::of(trace));
                *cache = Some((key, Rc::clone(&index)));
                self.steps.borrow_mut().clear();
                index
            }
        }
    }

    /// The cells of `steps` (ascending) of the trace [`TraceRows::index`] was last called
    /// with: those not kept yet are built by `build`, one replay pass per stretch of
    /// consecutive steps.
    pub fn cells(
        &self,
        trace: &Trace,
        steps: &[usize],
        build: impl Fn(crate::trace::StepView<'_>, &str) -> StepCells,
    ) -> Vec<Rc<StepCells>> {
        let mut kept = self.steps.borrow_mut();
        if kept.len() > STEP_CACHE {
            kept.clear();
        }
        let missing: Vec<usize> = steps
            .iter()
            .copied()
            .filter(|s| !kept.contains_key(s))
            .collect();
        let mut i = 0;
        while i < missing.len() {
            let mut j = i + 1;
            while j < missing.len() && missing[j] == missing[j - 1] + 1 {
                j += 1;
            }
            trace.for_each_in(missing[i]..missing[j - 1] + 1, |view, buffer| {
                let index = view.index;
                kept.insert(index, Rc::new(build(view, buffer)));
            });
            i = j;
        }
        steps
            .iter()
            .map(|s| kept.get(s).cloned().unwrap_or_default())
            .collect()
    }

    /// The expanded runs, in order, with the row each is.
    fn expanded_runs<'a>(
        &'a self,
        index: &'a RowIndex,
    ) -> impl Iterator<Item = (usize, &'a RunInfo)> + 'a {
        self.expanded
            .iter()
            .filter_map(|&s| index.run_at(s).map(|run| (index.row_of(s), run)))
    }

    /// How many lines the pane has.
    pub fn total(&self, trace: &Trace, index: &RowIndex) -> usize {
        if !self.collapse {
            return trace.len();
        }
        index.len()
            + self
                .expanded_runs(index)
                .map(|(_, r)| r.steps.len() - 1)
                .sum::<usize>()
    }

    /// The line that shows `step`.
    pub fn line_of(&self, step: usize, index: &RowIndex) -> usize {
        if !self.collapse {
            return step;
        }
        let row = index.row_of(step);
        let start = index.starts.get(row).copied().unwrap_or(0);
        let mut line = row;
        for (r, run) in self.expanded_runs(index) {
            if r < row {
                line += run.steps.len() - 1;
            } else if r == row {
                line += step - start;
            }
        }
        line
    }

    /// What line `line` shows.
    pub fn shown<'a>(&self, line: usize, index: &'a RowIndex) -> Shown<'a> {
        if !self.collapse {
            return Shown::Step {
                index: line,
                run: None,
            };
        }
        let mut extra = 0;
        for (r, run) in self.expanded_runs(index) {
            let first = r + extra;
            if line < first {
                break;
            }
            if line < first + run.steps.len() {
                let at = line - first;
                let part = match at {
                    0 => RunPart::First,
                    _ if at + 1 == run.steps.len() => RunPart::Last,
                    _ => RunPart::Inner,
                };
                return Shown::Step {
                    index: run.steps.start + at,
                    run: Some(part),
                };
            }
            extra += run.steps.len() - 1;
        }
        let row = (line - extra).min(index.len().saturating_sub(1));
        let start = index.starts.get(row).copied().unwrap_or(0);
        match index.run_at(start) {
            Some(run) => Shown::Run(run),
            None => Shown::Step {
                index: start,
                run: None,
            },
        }
    }

    /// The step `line` selects.
    pub fn step_of(&self, line: usize, index: &RowIndex) -> usize {
        self.shown(line, index).step()
    }

    /// Expands the collapsed run that hides `step` (a step inside it other than the one the
    /// row stands for, or any of its steps when `all` is set).
    pub fn reveal(&mut self, step: usize, index: &RowIndex, all: bool) -> bool {
        match index.run_of(step) {
            Some(run) if all || step + 1 != run.steps.end => self.expanded.insert(run.steps.start),
            _ => false,
        }
    }

    /// Forgets what was expanded (a new trace).
    pub fn reset(&mut self) {
        self.expanded.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trace(input: &str) -> Trace {
        crate::Report::new(input, None).trace.expect("traced")
    }

    /// Every line maps to a step and back, collapsed, with a run expanded, and flat; the
    /// lines are in step order and cover every step a collapsed run does not hide.
    #[test]
    fn lines_and_steps_map_both_ways() {
        let trace = trace("https://ex%41mple.com:443/a/b?q=1#frag");
        let index = RowIndex::of(&trace);
        assert!(index.runs.len() >= 3, "{:?}", index.runs);
        let mut rows = TraceRows::default();
        let check = |rows: &TraceRows| {
            let total = rows.total(&trace, &index);
            let mut previous = None;
            for line in 0..total {
                let step = rows.step_of(line, &index);
                assert_eq!(rows.line_of(step, &index), line, "line {line} step {step}");
                assert!(previous.is_none_or(|p| p < step));
                previous = Some(step);
            }
            assert_eq!(previous, Some(trace.len() - 1));
            total
        };
        let collapsed = check(&rows);
        assert!(
            collapsed < trace.len() / 2,
            "{collapsed} of {}",
            trace.len()
        );
        let run = index.runs[1].clone();
        assert!(rows.reveal(run.steps.start + 1, &index, false));
        let one = check(&rows);
        assert_eq!(one, collapsed + run.steps.len() - 1);
        assert_eq!(
            rows.shown(rows.line_of(run.steps.start, &index), &index),
            Shown::Step {
                index: run.steps.start,
                run: Some(RunPart::First)
            }
        );
        // The step a collapsed run stands for does not expand it.
        let other = index.runs[0].clone();
        assert!(!rows.reveal(other.steps.end - 1, &index, false));
        rows.collapse = false;
        assert_eq!(check(&rows), trace.len());
    }

    /// A 70-step trace of an ordinary URL collapses to a screen's worth of rows: a row per
    /// state the parser passes through, and one per delimiter.
    #[test]
    fn an_ordinary_url_collapses_to_a_screen() {
        let trace = trace("https://example.com:8080/path/to/page?query=1#top");
        let index = RowIndex::of(&trace);
        assert_eq!((trace.len(), index.len()), (70, 24));
        let trace = super::tests::trace("https://example.com/path?q=1#top");
        assert_eq!(RowIndex::of(&trace).len(), 18, "{} steps", trace.len());
    }
}
