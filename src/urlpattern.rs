//! The URL Pattern Standard (<https://urlpattern.spec.whatwg.org/>) on urlscope's URL engine:
//! the tokenizer, the pattern parser, the constructor string parser (a state machine whose
//! steps a [`ConstructorTracer`] can record), component compilation to ECMAScript regular
//! expressions (matched by `regress`), and the URLPattern class's `test`, `exec` and
//! `hasRegExpGroups`. The URL engine never uses this module.
//!
//! Around the standard: [`report`] builds the finished account of a pattern and an input that
//! `urlscope pattern` and the inspector read; [`second_reading`] (the `urlpattern` crate) and
// Node's reading exists with the `native` feature only: linked where it does.
#![cfg_attr(feature = "native", doc = "[`node_reading`]")]
#![cfg_attr(not(feature = "native"), doc = "`node_reading`")]
//! (Node's URLPattern or urlpattern-polyfill, with the `native` feature) are the other readings
//! it is compared with; [`proposals`] has `compareComponent` and `generate`, proposed outside the
//! standard; [`json`] reads and writes the web-platform-tests' shape of a case.

pub mod canonicalize;
pub mod component;
pub mod constructor;
pub mod json;
#[cfg(feature = "native")]
pub mod node_reading;
pub mod parser;
pub mod proposals;
pub mod report;
pub mod second_reading;
pub mod tokenizer;

use std::fmt;
use std::time::Duration;

use serde::Serialize;

pub use canonicalize::Callback;

/// How an answer cut at the match time limit ends ([`Error::MatchTimeLimit`]): not an answer the
/// standard gives, so a batch says so (see [`json::cut_at_time_limit`]).
pub const CUT_AT_TIME_LIMIT: &str =
    "the regular expression backtracks catastrophically on this input";
pub use component::{Component, DEFAULT_MATCH_TIME_LIMIT};
pub use constructor::{
    parse_constructor_string, Action, ConstructorRecorder, ConstructorStep, ConstructorTracer,
    NoConstructorTrace, ParserState,
};
pub use parser::{Modifier, Options, Part, PartType};
pub use report::{
    Compiled, ComponentMatch, ComponentReport, InputOutcomeReport, InputReport, PatternReport,
    SecondReading,
};
pub use tokenizer::{Token, TokenType};

use crate::url::record::{default_port, is_special_scheme};
use crate::url::Url;
use parser::escape_pattern_string;

/// The eight components of a URL pattern, in the standard's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ComponentName {
    Protocol,
    Username,
    Password,
    Hostname,
    Port,
    Pathname,
    Search,
    Hash,
}

impl ComponentName {
    pub const ALL: [ComponentName; 8] = [
        ComponentName::Protocol,
        ComponentName::Username,
        ComponentName::Password,
        ComponentName::Hostname,
        ComponentName::Port,
        ComponentName::Pathname,
        ComponentName::Search,
        ComponentName::Hash,
    ];

    /// The member's name in URLPatternInit, e.g. `"pathname"`.
    pub const fn name(self) -> &'static str {
        match self {
            ComponentName::Protocol => "protocol",
            ComponentName::Username => "username",
            ComponentName::Password => "password",
            ComponentName::Hostname => "hostname",
            ComponentName::Port => "port",
            ComponentName::Pathname => "pathname",
            ComponentName::Search => "search",
            ComponentName::Hash => "hash",
        }
    }

    pub fn from_name(name: &str) -> Option<ComponentName> {
        ComponentName::ALL.into_iter().find(|c| c.name() == name)
    }

    const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for ComponentName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which step of the tokenizer (URL Pattern Standard: tokenize, step 4) processed a
/// tokenizing error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TokenizingCause {
    /// Step 4.4: a "\\" is the last code point.
    EscapeAtEnd,
    /// Step 4.7: a ":" is not followed by a valid name code point.
    EmptyName,
    /// Step 4.8: a code point of the regexp group is not ASCII.
    RegexpNotAscii,
    /// Step 4.8: the regexp group starts with "?".
    RegexpStartsWithQuestionMark,
    /// Step 4.8: a "\\" is the last code point, inside a regexp group.
    RegexpEscapeAtEnd,
    /// Step 4.8: a "(" inside the group is not followed by "?" (a capturing group).
    RegexpCapturingGroup,
    /// Step 4.8: the group's "(" has no ")".
    RegexpUnbalanced,
    /// Step 4.8: "()".
    RegexpEmpty,
}

impl TokenizingCause {
    pub const fn explanation(self) -> &'static str {
        match self {
            TokenizingCause::EscapeAtEnd => {
                "the pattern ends with \"\\\": an escape needs a code point after it"
            }
            TokenizingCause::EmptyName => {
                "\":\" is not followed by a name (a name starts with a letter, \"$\" or \"_\")"
            }
            TokenizingCause::RegexpNotAscii => {
                "a regexp group holds a code point that is not ASCII"
            }
            TokenizingCause::RegexpStartsWithQuestionMark => {
                "a regexp group starts with \"?\" (a group of the pattern cannot be a lookaround \
                 or a non-capturing group: write the group without \"?\")"
            }
            TokenizingCause::RegexpEscapeAtEnd => {
                "the pattern ends with \"\\\" inside a regexp group"
            }
            TokenizingCause::RegexpCapturingGroup => {
                "a regexp group holds a capturing group: write \"(?:…)\" inside it"
            }
            TokenizingCause::RegexpUnbalanced => "a regexp group's \"(\" has no \")\"",
            TokenizingCause::RegexpEmpty => "a regexp group is empty: \"()\"",
        }
    }
}

/// A string in double quotes as it is, backslashes and all: a pattern's `\\d` reads as typed,
/// not doubled as `{:?}` would write it. (Display escapes controls where it shows text.)
#[derive(Debug)]
pub struct Quoted<'a>(pub &'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\"{}\"", self.0)
    }
}

/// Why a URL pattern or its input could not be used: the standard throws a TypeError in each
/// case, and the variants say which step threw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// Tokenize: "process a tokenizing error" under the strict policy. `index` counts code
    /// points of the string tokenized (a component's pattern string when `component` is
    /// given); `pattern_index` counts them in the constructor string as typed, when the
    /// component's string is a part of it.
    Tokenizing {
        index: usize,
        at: String,
        cause: TokenizingCause,
        component: Option<ComponentName>,
        pattern_index: Option<usize>,
    },
    /// Parse a pattern string: "consume a required token" found another token.
    RequiredToken {
        expected: TokenType,
        found: TokenType,
        index: usize,
    },
    /// Add a part: two groups with one name.
    DuplicateName(String),
    /// An encoding callback's URL parse returned failure.
    Canonicalize { callback: Callback, value: String },
    /// Compile a component: RegExpCreate threw.
    RegExpCreate {
        component: ComponentName,
        regexp: String,
        message: String,
    },
    /// Process a URLPatternInit: the baseURL is not a URL.
    BaseUrl(String),
    /// Create: a relative constructor string with no base URL.
    RelativeWithoutBase,
    /// Create or match: a base URL string was given beside a URLPatternInit.
    BaseUrlWithInit,
    /// A match was stopped at the time limit: it had not ended (catastrophic backtracking).
    MatchTimeLimit {
        component: ComponentName,
        limit: Duration,
    },
    /// generate() (a proposal outside the standard) cannot reverse this component.
    Generate {
        component: ComponentName,
        why: String,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Tokenizing {
                index,
                at,
                cause,
                component,
                pattern_index,
            } => {
                match (pattern_index, component) {
                    (Some(i), _) => write!(f, "tokenizing error at code point {i} of the pattern")?,
                    (None, Some(c)) => write!(
                        f,
                        "tokenizing error at code point {index} of the {c} pattern"
                    )?,
                    (None, None) => write!(f, "tokenizing error at code point {index}")?,
                }
                write!(f, " (\"{at}\"): {}", cause.explanation())
            }
            Error::RequiredToken {
                expected,
                found,
                index,
            } => write!(
                f,
                "expected a {expected} token at code point {index}, found {found} (parse a \
                 pattern string: consume a required token)"
            ),
            Error::DuplicateName(name) => {
                write!(
                    f,
                    "the group name {} is used twice in one component",
                    Quoted(name)
                )
            }
            Error::Canonicalize { callback, value } => write!(
                f,
                "{}: the URL parser returned failure for {}",
                callback.name(),
                Quoted(value)
            ),
            Error::RegExpCreate {
                component,
                regexp,
                message,
            } => write!(
                f,
                "the {component} component's regular expression /{regexp}/v is invalid: \
                 {message}"
            ),
            Error::BaseUrl(base) => write!(f, "the base URL {} is not a valid URL", Quoted(base)),
            Error::RelativeWithoutBase => {
                f.write_str("a relative constructor string (no protocol) needs a base URL")
            }
            Error::BaseUrlWithInit => {
                f.write_str("a base URL string cannot be given with a URLPatternInit object")
            }
            Error::MatchTimeLimit { component, limit } => write!(
                f,
                "matching the {component} component took longer than {} ms: {CUT_AT_TIME_LIMIT}",
                limit.as_millis()
            ),
            Error::Generate { component, why } => {
                write!(f, "cannot generate the {component}: {why}")
            }
        }
    }
}

impl std::error::Error for Error {}

/// The URLPatternInit dictionary: each member present or not.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct UrlPatternInit {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub protocol: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub username: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub password: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hostname: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub port: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pathname: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hash: Option<String>,
    #[serde(rename = "baseURL", skip_serializing_if = "Option::is_none")]
    pub base_url: Option<String>,
}

impl UrlPatternInit {
    pub fn get(&self, component: ComponentName) -> Option<&str> {
        match component {
            ComponentName::Protocol => self.protocol.as_deref(),
            ComponentName::Username => self.username.as_deref(),
            ComponentName::Password => self.password.as_deref(),
            ComponentName::Hostname => self.hostname.as_deref(),
            ComponentName::Port => self.port.as_deref(),
            ComponentName::Pathname => self.pathname.as_deref(),
            ComponentName::Search => self.search.as_deref(),
            ComponentName::Hash => self.hash.as_deref(),
        }
    }

    pub fn set(&mut self, component: ComponentName, value: String) {
        let slot = match component {
            ComponentName::Protocol => &mut self.protocol,
            ComponentName::Username => &mut self.username,
            ComponentName::Password => &mut self.password,
            ComponentName::Hostname => &mut self.hostname,
            ComponentName::Port => &mut self.port,
            ComponentName::Pathname => &mut self.pathname,
            ComponentName::Search => &mut self.search,
            ComponentName::Hash => &mut self.hash,
        };
        *slot = Some(value);
    }

    fn contains(&self, component: ComponentName) -> bool {
        self.get(component).is_some()
    }
}

/// A URLPatternInput: a string or a URLPatternInit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum UrlPatternInput {
    String(String),
    Init(UrlPatternInit),
}

/// URLPatternOptions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UrlPatternOptions {
    pub ignore_case: bool,
}

/// Process a URLPatternInit's type: a pattern's components stay patterns (escaped where they
/// come from a base URL); a URL's are canonicalized.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InitType {
    Pattern,
    Url,
}

/// A URL pattern: one compiled component for each of the eight.
#[derive(Clone, Debug)]
pub struct UrlPattern {
    components: Vec<Component>,
    /// The URLPatternInit the components were compiled from (after processing and defaults).
    pub processed_init: UrlPatternInit,
    match_time_limit: Duration,
}

/// A URLPatternComponentResult: the component's input and its groups (`None` for undefined).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ComponentResult {
    pub input: String,
    pub groups: Groups,
}

/// A URLPatternResult.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UrlPatternResult {
    pub inputs: Vec<UrlPatternInput>,
    components: Vec<ComponentResult>,
}

impl UrlPatternResult {
    pub fn get(&self, component: ComponentName) -> &ComponentResult {
        &self.components[component.index()]
    }
}

/// A component's groups by name, in order: `None` for a group that did not participate
/// (undefined).
pub type Groups = Vec<(String, Option<String>)>;

/// How each component of an input fared, whether or not the whole matched: what `pattern`
/// shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchDetail {
    pub inputs: Vec<UrlPatternInput>,
    /// Each component's input value and its groups, `None` where its regexp did not match.
    pub components: Vec<(String, Option<Groups>)>,
}

impl MatchDetail {
    /// The first component (in the standard's order) whose regular expression did not match.
    pub fn first_failure(&self) -> Option<ComponentName> {
        ComponentName::ALL
            .into_iter()
            .find(|c| self.components[c.index()].1.is_none())
    }

    pub fn matched(&self) -> bool {
        self.first_failure().is_none()
    }

    /// The URLPatternResult, when every component matched.
    pub fn result(&self) -> Option<UrlPatternResult> {
        let components = self
            .components
            .iter()
            .map(|(input, groups)| {
                groups.as_ref().map(|g| ComponentResult {
                    input: input.clone(),
                    groups: g.clone(),
                })
            })
            .collect::<Option<Vec<_>>>()?;
        Some(UrlPatternResult {
            inputs: self.inputs.clone(),
            components,
        })
    }
}

/// Whether an input could be matched at all: the standard's match returns null (no match)
/// when the input is not a URL, and throws for a base URL beside an init.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputOutcome {
    /// The input was read; each component was matched.
    Matched(MatchDetail),
    /// The input (or its base URL) is not a URL, or its init could not be processed: match
    /// returns null.
    NotAUrl(String),
}

/// A tokenizing error in a component whose pattern string is the part of the constructor
/// string the constructor string parser made it from ("make a component string": from the
/// component's first token to the token that ended it) says where it is in the string as
/// typed.
fn in_the_typed_pattern(e: Error, input: &UrlPatternInput, value: &str) -> Error {
    let (
        Error::Tokenizing {
            index,
            at,
            cause,
            component: Some(component),
            pattern_index: None,
        },
        UrlPatternInput::String(typed),
    ) = (&e, input)
    else {
        return e;
    };
    let mut recorder = ConstructorRecorder::default();
    let _ = parse_constructor_string(typed, &mut recorder);
    let start = recorder.steps.iter().find_map(|step| {
        step.set
            .iter()
            .any(|(c, v)| c == component && v == value)
            .then(|| step.token.index.checked_sub(value.chars().count()))
            .flatten()
            .filter(|&start| {
                typed
                    .chars()
                    .skip(start)
                    .take(value.chars().count())
                    .eq(value.chars())
            })
    });
    match start {
        Some(start) => Error::Tokenizing {
            index: *index,
            at: at.clone(),
            cause: *cause,
            component: Some(*component),
            pattern_index: Some(start + index),
        },
        None => e,
    }
}

impl UrlPattern {
    /// URL Pattern Standard: the URLPattern constructor (create a URL pattern).
    pub fn new(
        input: &UrlPatternInput,
        base_url: Option<&str>,
        options: UrlPatternOptions,
    ) -> Result<UrlPattern, Error> {
        UrlPattern::new_traced(input, base_url, options, &mut NoConstructorTrace)
    }

    /// [`UrlPattern::new`], recording the constructor string parser's steps.
    pub fn new_traced<T: ConstructorTracer>(
        input: &UrlPatternInput,
        base_url: Option<&str>,
        options: UrlPatternOptions,
        tracer: &mut T,
    ) -> Result<UrlPattern, Error> {
        // Create, steps 1-3.
        let init = match input {
            UrlPatternInput::String(s) => {
                let mut init = parse_constructor_string(s, tracer)?;
                if base_url.is_none() && init.protocol.is_none() {
                    return Err(Error::RelativeWithoutBase);
                }
                if let Some(base) = base_url {
                    init.base_url = Some(base.to_owned());
                }
                init
            }
            UrlPatternInput::Init(init) => {
                if base_url.is_some() {
                    return Err(Error::BaseUrlWithInit);
                }
                init.clone()
            }
        };
        // Step 4.
        let mut processed_init = process_a_url_pattern_init(&init, InitType::Pattern, None)?;
        // Step 5: a missing component matches anything.
        for c in ComponentName::ALL {
            if !processed_init.contains(c) {
                processed_init.set(c, "*".to_owned());
            }
        }
        // Step 6: a special scheme's default port is no port.
        if let (Some(protocol), Some(port)) = (&processed_init.protocol, &processed_init.port) {
            if is_special_scheme(protocol)
                && default_port(protocol).map(|p| p.to_string()).as_deref() == Some(port)
            {
                processed_init.port = Some(String::new());
            }
        }
        let value = |c: ComponentName| processed_init.get(c).unwrap_or("*").to_owned();
        let compile = |c: ComponentName, callback: Callback, options: Options| {
            component::compile_component(c, &value(c), callback, options)
                .map_err(|e| in_the_typed_pattern(e, input, &value(c)))
        };
        // Steps 7-17.
        let protocol = compile(
            ComponentName::Protocol,
            Callback::Protocol,
            Options::DEFAULT,
        )?;
        let username = compile(
            ComponentName::Username,
            Callback::Username,
            Options::DEFAULT,
        )?;
        let password = compile(
            ComponentName::Password,
            Callback::Password,
            Options::DEFAULT,
        )?;
        let hostname_callback =
            if hostname_pattern_is_an_ipv6_address(&value(ComponentName::Hostname)) {
                Callback::Ipv6Hostname
            } else {
                Callback::Hostname
            };
        let hostname = compile(
            ComponentName::Hostname,
            hostname_callback,
            Options::HOSTNAME,
        )?;
        let port = compile(ComponentName::Port, Callback::Port, Options::DEFAULT)?;
        let compile_options = Options {
            ignore_case: options.ignore_case,
            ..Options::DEFAULT
        };
        let pathname = if protocol_component_matches_a_special_scheme(&protocol)? {
            let path_compile_options = Options {
                ignore_case: options.ignore_case,
                ..Options::PATHNAME
            };
            compile(
                ComponentName::Pathname,
                Callback::Pathname,
                path_compile_options,
            )?
        } else {
            compile(
                ComponentName::Pathname,
                Callback::OpaquePathname,
                compile_options,
            )?
        };
        let search = compile(ComponentName::Search, Callback::Search, compile_options)?;
        let hash = compile(ComponentName::Hash, Callback::Hash, compile_options)?;
        Ok(UrlPattern {
            components: vec![
                protocol, username, password, hostname, port, pathname, search, hash,
            ],
            processed_init,
            match_time_limit: DEFAULT_MATCH_TIME_LIMIT,
        })
    }

    /// Sets the time a match may take before it fails with [`Error::MatchTimeLimit`].
    pub fn with_match_time_limit(mut self, limit: Duration) -> UrlPattern {
        self.match_time_limit = limit;
        self
    }

    pub fn component(&self, name: ComponentName) -> &Component {
        &self.components[name.index()]
    }

    /// The component's normalized pattern string (the `protocol`, … getters).
    pub fn pattern_string(&self, name: ComponentName) -> &str {
        &self.component(name).pattern_string
    }

    /// URL Pattern Standard: has regexp groups.
    pub fn has_reg_exp_groups(&self) -> bool {
        self.components.iter().any(|c| c.has_regexp_groups)
    }

    /// URL Pattern Standard: test(): whether exec would return a result.
    pub fn test(&self, input: &UrlPatternInput, base_url: Option<&str>) -> Result<bool, Error> {
        Ok(self.exec(input, base_url)?.is_some())
    }

    /// URL Pattern Standard: exec() (match): the result, or `None` for null.
    pub fn exec(
        &self,
        input: &UrlPatternInput,
        base_url: Option<&str>,
    ) -> Result<Option<UrlPatternResult>, Error> {
        Ok(match self.match_detail(input, base_url)? {
            InputOutcome::Matched(detail) => detail.result(),
            InputOutcome::NotAUrl(_) => None,
        })
    }

    /// URL Pattern Standard: match, keeping every component's outcome.
    pub fn match_detail(
        &self,
        input: &UrlPatternInput,
        base_url: Option<&str>,
    ) -> Result<InputOutcome, Error> {
        let mut inputs = vec![input.clone()];
        let values: Vec<String> = match input {
            // Match, step 11.
            UrlPatternInput::Init(init) => {
                if base_url.is_some() {
                    return Err(Error::BaseUrlWithInit);
                }
                let empty = Some(String::new());
                let apply_result =
                    match process_a_url_pattern_init(init, InitType::Url, empty.as_deref()) {
                        Ok(result) => result,
                        Err(e) => return Ok(InputOutcome::NotAUrl(e.to_string())),
                    };
                ComponentName::ALL
                    .iter()
                    .map(|&c| apply_result.get(c).unwrap_or("").to_owned())
                    .collect()
            }
            // Match, step 12.
            UrlPatternInput::String(s) => {
                let base = match base_url {
                    Some(b) => match Url::parse(b, None) {
                        Ok(base) => {
                            inputs.push(UrlPatternInput::String(b.to_owned()));
                            Some(base)
                        }
                        Err(_) => {
                            return Ok(InputOutcome::NotAUrl(format!(
                                "the base URL {b:?} is not a valid URL"
                            )))
                        }
                    },
                    None => None,
                };
                let url = match Url::parse(s, base.as_ref()) {
                    Ok(url) => url,
                    Err(_) => {
                        return Ok(InputOutcome::NotAUrl(format!("{s:?} is not a valid URL")))
                    }
                };
                url_components(&url)
            }
        };
        let jobs = self
            .components
            .iter()
            .zip(&values)
            .map(|(c, v)| component::Job::new(c, v.clone()))
            .collect();
        let results = component::exec_within(jobs, self.match_time_limit)?;
        let components = self
            .components
            .iter()
            .zip(values)
            .zip(results)
            .map(|((component, value), result)| {
                // Create a component match result.
                let groups = result.map(|groups| {
                    groups
                        .into_iter()
                        .enumerate()
                        .filter_map(|(i, g)| Some((component.group_name_list.get(i)?.clone(), g)))
                        .collect()
                });
                (value, groups)
            })
            .collect();
        Ok(InputOutcome::Matched(MatchDetail { inputs, components }))
    }
}

/// A URL's eight values as match reads them (match, steps 12.3-12.10).
fn url_components(url: &Url) -> Vec<String> {
    let record = url.record();
    let mut pathname = String::new();
    record.path.serialize_into(&mut pathname);
    vec![
        record.scheme.clone(),
        record.username.clone(),
        record.password.clone(),
        record
            .host
            .as_ref()
            .map(|h| h.to_string())
            .unwrap_or_default(),
        record.port.map(|p| p.to_string()).unwrap_or_default(),
        pathname,
        record.query.clone().unwrap_or_default(),
        record.fragment.clone().unwrap_or_default(),
    ]
}

/// URL Pattern Standard: protocol component matches a special scheme.
pub fn protocol_component_matches_a_special_scheme(
    protocol_component: &Component,
) -> Result<bool, Error> {
    let jobs = ["ftp", "file", "http", "https", "ws", "wss"]
        .iter()
        .map(|s| component::Job::new(protocol_component, (*s).to_owned()))
        .collect();
    let results = component::exec_within(jobs, DEFAULT_MATCH_TIME_LIMIT)?;
    Ok(results.iter().any(Option::is_some))
}

/// URL Pattern Standard: hostname pattern is an IPv6 address.
pub fn hostname_pattern_is_an_ipv6_address(input: &str) -> bool {
    let mut chars = input.chars();
    matches!(
        (chars.next(), chars.next()),
        (Some('['), Some(_)) | (Some('{' | '\\'), Some('['))
    )
}

/// URL Pattern Standard: process a URLPatternInit. `defaults` is the value every component
/// starts with (the empty string for a URL input, none for a pattern).
pub fn process_a_url_pattern_init(
    init: &UrlPatternInit,
    kind: InitType,
    defaults: Option<&str>,
) -> Result<UrlPatternInit, Error> {
    use ComponentName as C;
    // Steps 1-9.
    let mut result = UrlPatternInit::default();
    if let Some(d) = defaults {
        for c in C::ALL {
            result.set(c, d.to_owned());
        }
    }
    // Step 10-11: a base URL fills the components less specific than the first one given.
    let mut base_url = None;
    if let Some(base) = &init.base_url {
        let parsed = Url::parse(base, None).map_err(|_| Error::BaseUrl(base.clone()))?;
        let record = parsed.record().clone();
        let given = |cs: &[C]| cs.iter().any(|&c| init.contains(c));
        let base_string = |s: &str| process_a_base_url_string(s, kind);
        if !init.contains(C::Protocol) {
            result.protocol = Some(base_string(&record.scheme));
        }
        if kind != InitType::Pattern && !given(&[C::Protocol, C::Hostname, C::Port, C::Username]) {
            result.username = Some(base_string(&record.username));
        }
        if kind != InitType::Pattern
            && !given(&[C::Protocol, C::Hostname, C::Port, C::Username, C::Password])
        {
            result.password = Some(base_string(&record.password));
        }
        if !given(&[C::Protocol, C::Hostname]) {
            let base_host = record
                .host
                .as_ref()
                .map(|h| h.to_string())
                .unwrap_or_default();
            result.hostname = Some(base_string(&base_host));
        }
        if !given(&[C::Protocol, C::Hostname, C::Port]) {
            result.port = Some(record.port.map(|p| p.to_string()).unwrap_or_default());
        }
        if !given(&[C::Protocol, C::Hostname, C::Port, C::Pathname]) {
            let mut path = String::new();
            record.path.serialize_into(&mut path);
            result.pathname = Some(base_string(&path));
        }
        if !given(&[C::Protocol, C::Hostname, C::Port, C::Pathname, C::Search]) {
            result.search = Some(base_string(record.query.as_deref().unwrap_or("")));
        }
        if !given(&[
            C::Protocol,
            C::Hostname,
            C::Port,
            C::Pathname,
            C::Search,
            C::Hash,
        ]) {
            result.hash = Some(base_string(record.fragment.as_deref().unwrap_or("")));
        }
        base_url = Some(record);
    }
    // Steps 12-19.
    if let Some(protocol) = &init.protocol {
        result.protocol = Some(process_protocol_for_init(protocol, kind)?);
    }
    if let Some(username) = &init.username {
        result.username = Some(match kind {
            InitType::Pattern => username.clone(),
            InitType::Url => canonicalize::canonicalize_username(username),
        });
    }
    if let Some(password) = &init.password {
        result.password = Some(match kind {
            InitType::Pattern => password.clone(),
            InitType::Url => canonicalize::canonicalize_password(password),
        });
    }
    if let Some(hostname) = &init.hostname {
        result.hostname = Some(match kind {
            InitType::Pattern => hostname.clone(),
            InitType::Url => canonicalize::canonicalize_hostname(hostname)?,
        });
    }
    let result_protocol = result.protocol.clone().unwrap_or_default();
    if let Some(port) = &init.port {
        result.port = Some(match kind {
            InitType::Pattern => port.clone(),
            InitType::Url => canonicalize::canonicalize_port(port, Some(&result_protocol))?,
        });
    }
    if let Some(pathname) = &init.pathname {
        let mut pathname = pathname.clone();
        // Step 17.2: a relative pathname is resolved against the base URL's directory.
        if let Some(base) = &base_url {
            if !base.path.is_opaque() && !is_an_absolute_pathname(&pathname, kind) {
                let mut base_path = String::new();
                base.path.serialize_into(&mut base_path);
                let base_url_path = process_a_base_url_string(&base_path, kind);
                if let Some(slash_index) = base_url_path.rfind('/') {
                    pathname = format!("{}{pathname}", &base_url_path[..=slash_index]);
                }
            }
        }
        result.pathname = Some(process_pathname_for_init(
            &pathname,
            &result_protocol,
            kind,
        )?);
    }
    if let Some(search) = &init.search {
        let stripped = search.strip_prefix('?').unwrap_or(search);
        result.search = Some(match kind {
            InitType::Pattern => stripped.to_owned(),
            InitType::Url => canonicalize::canonicalize_search(stripped)?,
        });
    }
    if let Some(hash) = &init.hash {
        let stripped = hash.strip_prefix('#').unwrap_or(hash);
        result.hash = Some(match kind {
            InitType::Pattern => stripped.to_owned(),
            InitType::Url => canonicalize::canonicalize_hash(stripped)?,
        });
    }
    Ok(result)
}

/// URL Pattern Standard: process a base URL string: a pattern takes the base URL's value as
/// fixed text, so it is escaped.
fn process_a_base_url_string(input: &str, kind: InitType) -> String {
    match kind {
        InitType::Url => input.to_owned(),
        InitType::Pattern => escape_pattern_string(input),
    }
}

/// URL Pattern Standard: is an absolute pathname.
fn is_an_absolute_pathname(input: &str, kind: InitType) -> bool {
    let mut chars = input.chars();
    match (chars.next(), chars.next()) {
        (None, _) => false,
        (Some('/'), _) => true,
        _ if kind == InitType::Url => false,
        (Some('\\' | '{'), Some('/')) => true,
        _ => false,
    }
}

/// URL Pattern Standard: process protocol for init (one trailing `:` is dropped).
fn process_protocol_for_init(value: &str, kind: InitType) -> Result<String, Error> {
    let stripped = value.strip_suffix(':').unwrap_or(value);
    match kind {
        InitType::Pattern => Ok(stripped.to_owned()),
        InitType::Url => canonicalize::canonicalize_protocol(stripped),
    }
}

/// URL Pattern Standard: process pathname for init.
fn process_pathname_for_init(
    value: &str,
    protocol_value: &str,
    kind: InitType,
) -> Result<String, Error> {
    if kind == InitType::Pattern {
        return Ok(value.to_owned());
    }
    if protocol_value.is_empty() || is_special_scheme(protocol_value) {
        canonicalize::canonicalize_pathname(value)
    } else {
        canonicalize::canonicalize_opaque_pathname(value)
    }
}
