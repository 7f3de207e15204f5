//! URL Pattern Standard: compile a component, and the matcher's guard against catastrophic
//! backtracking.

use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use super::canonicalize::Callback;
use super::parser::{
    generate_pattern_string, generate_regular_expression_and_name_list, parse_pattern_string,
    Options, Part, PartType,
};
use super::{ComponentName, Error};

/// A component: the normalized pattern string, the regular expression it compiled to, the
/// names of its groups, and the part list both came from.
#[derive(Clone, Debug)]
pub struct Component {
    pub name: ComponentName,
    pub pattern_string: String,
    /// The regular expression's source, as RegExpCreate was given it.
    pub regular_expression_string: String,
    /// `v`, or `vi` with ignore case.
    pub flags: &'static str,
    pub regular_expression: Arc<regress::Regex>,
    pub group_name_list: Vec<String>,
    pub has_regexp_groups: bool,
    pub part_list: Vec<Part>,
    /// The encoding callback its fixed text was canonicalized with.
    pub callback: Callback,
    pub options: Options,
}

/// URL Pattern Standard: compile a component.
pub fn compile_component(
    name: ComponentName,
    input: &str,
    callback: Callback,
    options: Options,
) -> Result<Component, Error> {
    let encode = |value: &str| callback.run(value);
    let part_list = parse_pattern_string(input, &options, &encode)?;
    let (regular_expression_string, group_name_list) =
        generate_regular_expression_and_name_list(&part_list, &options);
    let flags = if options.ignore_case { "vi" } else { "v" };
    // regress applies the unicode (`u`) flag's stricter syntax (no identity escapes of
    // letters) only with `unicode` set; the `v` flag's syntax is a superset of it.
    let regress_flags = regress::Flags {
        icase: options.ignore_case,
        unicode: true,
        unicode_sets: true,
        ..regress::Flags::default()
    };
    let regular_expression = regress::Regex::with_flags(&regular_expression_string, regress_flags)
        .map_err(|e| Error::RegExpCreate {
            component: name,
            regexp: regular_expression_string.clone(),
            message: e.text,
        })?;
    let pattern_string = generate_pattern_string(&part_list, &options);
    let has_regexp_groups = part_list.iter().any(|p| p.kind == PartType::Regexp);
    Ok(Component {
        name,
        pattern_string,
        regular_expression_string,
        flags,
        regular_expression: Arc::new(regular_expression),
        group_name_list,
        has_regexp_groups,
        part_list,
        callback,
        options,
    })
}

/// What RegExpBuiltinExec gives a component: `None` for null, else each group's value
/// (`None` for undefined), in order.
pub type ExecResult = Option<Vec<Option<String>>>;

/// The longest a match of one URL pattern may take by default. ECMAScript regular
/// expressions backtrack, and a pattern such as `(a+)+$` takes time exponential in the input's
/// length; a match that runs past this is abandoned with [`Error::MatchTimeLimit`].
pub const DEFAULT_MATCH_TIME_LIMIT: Duration = Duration::from_secs(1);

/// One search for [`exec_within`]: a component's regular expression against a value.
#[derive(Clone, Debug)]
pub struct Job {
    pub component: ComponentName,
    pub regexp: Arc<regress::Regex>,
    /// The regular expression's source and flags, `/source/flags`: what identifies it among
    /// the searches still running past their limit.
    pub key: Arc<str>,
    pub input: String,
}

impl Job {
    /// A search of `component`'s regular expression.
    pub fn new(component: &Component, input: String) -> Job {
        Job {
            component: component.name,
            regexp: component.regular_expression.clone(),
            key: format!(
                "/{}/{}",
                component.regular_expression_string, component.flags
            )
            .into(),
            input,
        }
    }
}

/// The most searches that may run on past their time limit at once. regress has no step
/// limit and no way to stop a search (its issue 140 asks for one), and safe Rust cannot stop
/// a thread, so a search past its limit runs to its end on its own thread. This bounds how
/// many such threads there are: when the bound is reached, no new search starts
/// ([`Error::MatcherBusy`]) until one of them ends. The bound is checked when a search starts,
/// so it holds for searches started one at a time (the command line, the inspector); callers
/// matching on several threads at once may each pass the check before any is abandoned.
pub const MAX_ABANDONED: usize = 2;

/// The keys of the searches running on past their limit, one entry per thread.
static ABANDONED: Mutex<Vec<Arc<str>>> = Mutex::new(Vec::new());

fn abandoned() -> std::sync::MutexGuard<'static, Vec<Arc<str>>> {
    // A panic while the list was held leaves it whole (pushes and removes only).
    ABANDONED.lock().unwrap_or_else(|e| e.into_inner())
}

/// How many searches are running on past their time limit now.
pub fn abandoned_searches() -> usize {
    abandoned().len()
}

/// Whether one call's thread has ended, and the key it was abandoned with if it was. The
/// thread and the caller each decide under this lock, so exactly one of them accounts for
/// an abandoned thread's end.
#[derive(Default)]
struct Call {
    finished: bool,
    abandoned_key: Option<Arc<str>>,
}

/// Marks the call finished when the thread ends, however it ends, and takes its entry off
/// the abandoned list if the caller had stopped waiting for it.
struct Finished(Arc<Mutex<Call>>);

impl Drop for Finished {
    fn drop(&mut self) {
        let mut call = self.0.lock().unwrap_or_else(|e| e.into_inner());
        call.finished = true;
        if let Some(key) = call.abandoned_key.take() {
            let mut list = abandoned();
            if let Some(i) = list.iter().position(|k| Arc::ptr_eq(k, &key)) {
                list.swap_remove(i);
            }
        }
    }
}

/// RegExpBuiltinExec of each job in order, all within `limit`. The searches run on a thread
/// of their own, and the caller stops waiting at the limit ([`Error::MatchTimeLimit`]). That
/// thread drops the jobs after the one in flight, but the one in flight runs to its end:
/// until it ends, a search with the same regular expression fails at once
/// ([`Error::MatchStillRunning`]: it would most likely run as long), and when
/// [`MAX_ABANDONED`] searches are running on, every search does ([`Error::MatcherBusy`]).
pub fn exec_within(jobs: Vec<Job>, limit: Duration) -> Result<Vec<ExecResult>, Error> {
    run_within(jobs, limit, true)
}

/// [`exec_within`] for the constructor's own searches (protocol component matches a special
/// scheme: six fixed words of at most five code points), which are timed but never refused:
/// whether a pattern constructs must not depend on the searches of earlier matches.
pub fn exec_fixed_within(jobs: Vec<Job>, limit: Duration) -> Result<Vec<ExecResult>, Error> {
    run_within(jobs, limit, false)
}

fn run_within(jobs: Vec<Job>, limit: Duration, refuse: bool) -> Result<Vec<ExecResult>, Error> {
    if refuse {
        let list = abandoned();
        if list.len() >= MAX_ABANDONED {
            return Err(Error::MatcherBusy {
                running: list.len(),
            });
        }
        if let Some(job) = jobs.iter().find(|j| list.iter().any(|k| **k == *j.key)) {
            return Err(Error::MatchStillRunning {
                component: job.component,
                regexp: job.key.to_string(),
            });
        }
    }
    let count = jobs.len();
    let (send, receive) = mpsc::channel();
    let names: Vec<(ComponentName, Arc<str>)> =
        jobs.iter().map(|j| (j.component, j.key.clone())).collect();
    let call = Arc::new(Mutex::new(Call::default()));
    let finished = Finished(call.clone());
    let spawned = std::thread::Builder::new()
        .name("urlpattern-exec".into())
        .spawn(move || {
            let _finished = finished;
            for job in jobs {
                let result = regexp_builtin_exec(&job.regexp, &job.input);
                // The caller stopped waiting: the remaining jobs are not run.
                if send.send(result).is_err() {
                    return;
                }
            }
        });
    if let Err(e) = spawned {
        return Err(Error::Thread(e.to_string()));
    }
    let deadline = Instant::now() + limit;
    let mut results = Vec::with_capacity(count);
    for (component, key) in names {
        let left = deadline.saturating_duration_since(Instant::now());
        match receive.recv_timeout(left) {
            Ok(result) => results.push(result),
            Err(_) => {
                let mut call = call.lock().unwrap_or_else(|e| e.into_inner());
                if !call.finished {
                    call.abandoned_key = Some(key.clone());
                    abandoned().push(key);
                }
                return Err(Error::MatchTimeLimit { component, limit });
            }
        }
    }
    Ok(results)
}

/// ECMAScript RegExpBuiltinExec for a regexp that is neither global nor sticky: the first
/// match from index 0 with its groups.
pub fn regexp_builtin_exec(regexp: &regress::Regex, input: &str) -> ExecResult {
    let found = regexp.find(input)?;
    Some(
        found
            .groups()
            .skip(1)
            .map(|g| g.map(|range| input[range].to_owned()))
            .collect(),
    )
}

/// Runs a test that abandons searches, one such test at a time, and waits for its abandoned
/// searches to end: the unit tests share one process and so one [`MAX_ABANDONED`], and a
/// test that filled it would make the tests running beside it fail with
/// [`Error::MatcherBusy`].
#[cfg(test)]
pub(crate) fn one_catastrophe_at_a_time<T>(test: impl FnOnce() -> T) -> T {
    static ONE: Mutex<()> = Mutex::new(());
    let _one = ONE.lock().unwrap_or_else(|e| e.into_inner());
    let result = test();
    let start = Instant::now();
    while abandoned_searches() > 0 && start.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(10));
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catastrophic_backtracking_is_an_error_not_a_hang() {
        let regexp = Arc::new(regress::Regex::with_flags("^(a+)+$", "v").expect("compiles"));
        // Long enough to pass the limit, short enough that the abandoned search ends within
        // seconds and does not hold one of the test binary's MAX_ABANDONED places.
        let input = format!("{}!", "a".repeat(16));
        let start = Instant::now();
        let job = Job {
            component: ComponentName::Pathname,
            regexp,
            key: "/^(a+)+$/v (component.rs)".into(),
            input,
        };
        let result =
            one_catastrophe_at_a_time(|| exec_within(vec![job], Duration::from_millis(20)));
        assert!(
            matches!(
                result,
                Err(Error::MatchTimeLimit {
                    component: ComponentName::Pathname,
                    ..
                })
            ),
            "{result:?}"
        );
        assert!(start.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn groups_that_did_not_participate_are_undefined() {
        let regexp = regress::Regex::with_flags("^(a)?(b)$", "v").expect("compiles");
        assert_eq!(
            regexp_builtin_exec(&regexp, "b"),
            Some(vec![None, Some("b".to_owned())])
        );
        assert_eq!(regexp_builtin_exec(&regexp, "c"), None);
    }
}
