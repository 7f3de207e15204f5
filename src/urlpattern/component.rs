//! URL Pattern Standard: compile a component, and match it within a time limit (the guard
//! against catastrophic backtracking).

use std::sync::Arc;
use std::time::Duration;
// std's Instant on native targets; `performance.now()` on the web, where std's panics.
use web_time::Instant;

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
    let part_list = parse_pattern_string(input, &options, &encode).map_err(|e| match e {
        Error::Tokenizing {
            index,
            at,
            cause,
            pattern_index,
            ..
        } => Error::Tokenizing {
            index,
            at,
            cause,
            component: Some(name),
            pattern_index,
        },
        e => e,
    })?;
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
/// length; a match that runs past this is stopped with [`Error::MatchTimeLimit`].
pub const DEFAULT_MATCH_TIME_LIMIT: Duration = Duration::from_secs(1);

/// One search for [`exec_within`]: a component's regular expression against a value.
#[derive(Clone, Debug)]
pub struct Job {
    pub component: ComponentName,
    pub regexp: Arc<regress::Regex>,
    pub input: String,
}

impl Job {
    /// A search of `component`'s regular expression.
    pub fn new(component: &Component, input: String) -> Job {
        Job {
            component: component.name,
            regexp: component.regular_expression.clone(),
            input,
        }
    }
}

/// RegExpBuiltinExec of each job in order, all within `limit`. The searches run on the
/// calling thread under a deadline (`regress::with_deadline`, from our fork of regress in
/// crates/regress-deadline: upstream cannot stop a search, regress#140). A search still running at
/// the deadline stops within 65,536 of its steps and the call fails with
/// [`Error::MatchTimeLimit`]; the jobs after it are not run. Nothing runs on after the call
/// returns.
pub fn exec_within(jobs: Vec<Job>, limit: Duration) -> Result<Vec<ExecResult>, Error> {
    let deadline = deadline_after(limit);
    jobs.iter()
        .map(|job| exec_before(job, deadline, limit))
        .collect()
}

/// The deadline `limit` from now; `None` for a limit too far in the future for the clock to
/// hold, which is no limit.
pub fn deadline_after(limit: Duration) -> Option<Instant> {
    Instant::now().checked_add(limit)
}

/// RegExpBuiltinExec of one job, stopped at `deadline` (set `limit` ago, which the error
/// names): the searches of [`exec_within`], and a sequence of searches where each depends on
/// the one before and all share one time limit.
pub fn exec_before(
    job: &Job,
    deadline: Option<Instant>,
    limit: Duration,
) -> Result<ExecResult, Error> {
    let Some(deadline) = deadline else {
        return Ok(regexp_builtin_exec(&job.regexp, &job.input));
    };
    let (result, cut) =
        regress::with_deadline(deadline, || regexp_builtin_exec(&job.regexp, &job.input));
    // A search cut at the deadline did not finish: its "no match" is not the answer.
    if cut {
        return Err(Error::MatchTimeLimit {
            component: job.component,
            limit,
        });
    }
    Ok(result)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catastrophic_backtracking_is_an_error_not_a_hang() {
        let regexp = Arc::new(regress::Regex::with_flags("^(a+)+$", "v").expect("compiles"));
        // 2^64 ways to split the a's: the search would not end in a lifetime.
        let catastrophic = Job {
            component: ComponentName::Pathname,
            regexp: regexp.clone(),
            input: format!("{}!", "a".repeat(64)),
        };
        let after = Job {
            component: ComponentName::Search,
            regexp,
            input: "aa".into(),
        };
        let limit = Duration::from_millis(20);
        let start = Instant::now();
        let result = exec_within(vec![catastrophic, after.clone()], limit);
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
        // A bound on the stop, not a measure of speed: the search is cut, not finished.
        assert!(start.elapsed() < limit + Duration::from_secs(2));
        // The next call has a deadline of its own.
        assert_eq!(
            exec_within(vec![after], limit),
            Ok(vec![Some(vec![Some("aa".into())])])
        );
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
