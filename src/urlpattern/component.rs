//! URL Pattern Standard: compile a component, and the matcher's guard against catastrophic
//! backtracking.

use std::sync::mpsc;
use std::sync::Arc;
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

/// RegExpBuiltinExec of each `(regexp, input)` in order, all within `limit`. The search runs
/// on its own thread: regress has no step limit, so the only way to stop waiting for a
/// catastrophic search is to stop waiting. The abandoned thread runs to its end on its own
/// and its answer is dropped; the caller gets the error at the limit.
pub fn exec_within(
    jobs: Vec<(ComponentName, Arc<regress::Regex>, String)>,
    limit: Duration,
) -> Result<Vec<ExecResult>, Error> {
    let count = jobs.len();
    let (send, receive) = mpsc::channel();
    let names: Vec<ComponentName> = jobs.iter().map(|(n, _, _)| *n).collect();
    let spawned = std::thread::Builder::new()
        .name("urlpattern-exec".into())
        .spawn(move || {
            for (_, regexp, input) in jobs {
                let result = regexp_builtin_exec(&regexp, &input);
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
    for name in names {
        let left = deadline.saturating_duration_since(Instant::now());
        match receive.recv_timeout(left) {
            Ok(result) => results.push(result),
            Err(_) => {
                return Err(Error::MatchTimeLimit {
                    component: name,
                    limit,
                })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catastrophic_backtracking_is_an_error_not_a_hang() {
        let regexp = Arc::new(regress::Regex::with_flags("^(a+)+$", "v").expect("compiles"));
        let input = format!("{}!", "a".repeat(64));
        let start = Instant::now();
        let result = exec_within(
            vec![(ComponentName::Pathname, regexp, input)],
            Duration::from_millis(200),
        );
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
