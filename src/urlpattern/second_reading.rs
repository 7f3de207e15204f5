//! The second reading of a URL pattern: the `urlpattern` crate (Deno's implementation, on
//! rust-url and the `regex` crate), answering in the shape of [`super::json::answer`] so the
//! two can be compared member by member. Nothing else in this module calls it.

use serde_json::{json, Map, Value};

use super::json::{InputArguments, PatternArguments};
use super::tokenizer::{tokenize, Policy, TokenType};
use super::{
    parse_constructor_string, Action, ComponentName, ConstructorRecorder, ParserState, UrlPattern,
    UrlPatternInit, UrlPatternInput,
};

/// The crate's version, part of every reading.
pub const VERSION: &str = "urlpattern 0.3.0";

fn init_to_crate(init: &UrlPatternInit) -> Result<urlpattern::UrlPatternInit, String> {
    let base_url = init
        .base_url
        .as_deref()
        .map(|b| url::Url::parse(b).map_err(|e| format!("base URL {b:?}: {e}")))
        .transpose()?;
    Ok(urlpattern::UrlPatternInit {
        protocol: init.protocol.clone(),
        username: init.username.clone(),
        password: init.password.clone(),
        hostname: init.hostname.clone(),
        port: init.port.clone(),
        pathname: init.pathname.clone(),
        search: init.search.clone(),
        hash: init.hash.clone(),
        base_url,
    })
}

fn construct(arguments: &PatternArguments) -> Result<urlpattern::UrlPattern, String> {
    let init = match &arguments.input {
        UrlPatternInput::String(s) => {
            let base = arguments
                .base_url
                .as_deref()
                .map(|b| url::Url::parse(b).map_err(|e| format!("base URL {b:?}: {e}")))
                .transpose()?;
            urlpattern::UrlPatternInit::parse_constructor_string::<regex::Regex>(s, base)
                .map_err(|e| e.to_string())?
        }
        UrlPatternInput::Init(init) => {
            if arguments.base_url.is_some() {
                return Err("a base URL string cannot be given with an init".to_owned());
            }
            init_to_crate(init)?
        }
    };
    let options = urlpattern::UrlPatternOptions {
        ignore_case: arguments.options.ignore_case,
    };
    urlpattern::UrlPattern::parse(init, options).map_err(|e| e.to_string())
}

/// Why the crate must not be asked about this constructor string, if it must not: it keeps
/// the hostname's IPv6 bracket depth (parse a constructor string, hostname state) in an
/// unsigned integer, so a `]` before any `[` takes it below zero, which panics in a build
/// with overflow checks (and wraps in one without). The standard's depth is a plain number;
/// our constructor string parser's steps show where the crate's would go below zero.
pub fn would_panic(constructor_string: &str) -> Option<String> {
    let mut recorder = ConstructorRecorder::default();
    // A constructor string that throws throws before or after the hostname state alike.
    let _ = parse_constructor_string(constructor_string, &mut recorder);
    let mut depth = 0i64;
    for step in &recorder.steps {
        if step.state == ParserState::Hostname && step.action == Action::Ipv6Bracket {
            depth += if step.token.value == "[" { 1 } else { -1 };
            if depth < 0 {
                return Some(format!(
                    "not asked: {VERSION} keeps the hostname's IPv6 bracket depth unsigned, and \
                     the \"]\" at code point {} comes before any \"[\" (it would panic)",
                    step.token.index
                ));
            }
        }
    }
    None
}

/// The most groups a component may have for the crate to be asked. The crate matches with
/// the `regex` crate, whose PikeVM keeps a slot for each group in each state of the regular
/// expression, twice over: memory in the groups times the expression's length, so quadratic
/// in a pattern of many groups. `https://e.com/:a0/:a1/…/:a1599` took 1 GB to match, 6,400
/// groups more than 6 GB; up to 256 groups the `regex` crate matched such a pattern with
/// another of its engines, in under 40 MB. A pattern of the web-platform-tests has a few
/// groups in a component at most.
///
/// Under the limit, memory in the groups times the length remains: 64 groups, each
/// `([a-z]{1,1000})`, took 340 MB. The `regex` crate refuses an expression past its size
/// limit (10 MB compiled), which bounds it.
pub const MOST_GROUPS: usize = 64;

/// Why the crate must not be asked about this pattern for its groups, if it must not: a
/// component has more than [`MOST_GROUPS`]. The groups are counted as our constructor
/// compiles them; where it throws, the pattern's names, regular expressions and asterisks
/// (wildcards, or modifiers) are counted as typed, as many as it could have.
pub fn too_many_groups(pattern: &[Value]) -> Option<String> {
    let arguments = PatternArguments::from_json(pattern).ok()?;
    let compiled = UrlPattern::new(
        &arguments.input,
        arguments.base_url.as_deref(),
        arguments.options,
    );
    let (place, groups) = match compiled {
        Ok(url_pattern) => {
            let (most, groups) = ComponentName::ALL
                .into_iter()
                .map(|c| (c, url_pattern.component(c).group_name_list.len()))
                .max_by_key(|&(_, groups)| groups)?;
            (format!("its {most} has"), groups)
        }
        Err(_) => {
            let typed = match &arguments.input {
                UrlPatternInput::String(s) => vec![s.as_str()],
                UrlPatternInput::Init(init) => ComponentName::ALL
                    .into_iter()
                    .filter_map(|c| init.get(c))
                    .collect(),
            };
            let groups = typed
                .into_iter()
                .map(|text| {
                    tokenize(text, Policy::Lenient).map_or(0, |tokens| {
                        tokens
                            .iter()
                            .filter(|t| {
                                matches!(
                                    t.kind,
                                    TokenType::Name | TokenType::Regexp | TokenType::Asterisk
                                )
                            })
                            .count()
                    })
                })
                .sum();
            ("it could have".to_owned(), groups)
        }
    };
    (groups > MOST_GROUPS).then(|| {
        format!(
            "not asked: {VERSION} matches with the regex crate, whose memory grows with the \
             groups times the regular expression's length, and {place} {groups} groups \
             (more than {MOST_GROUPS})"
        )
    })
}

/// The crate's answer for a case in the web-platform-tests' shape: `error`, `components`,
/// `has_regexp_groups`, `test` and `match` as [`super::json::answer`] writes them (groups
/// in name order: the crate keeps them in a hash map). When the crate must not be asked
/// ([`would_panic`], [`too_many_groups`]), every member is null and `unread` says why.
pub fn answer(pattern: &[Value], inputs: &[Value]) -> Value {
    let mut out = Map::new();
    if let Some(why) = pattern
        .first()
        .and_then(Value::as_str)
        .and_then(would_panic)
        .or_else(|| too_many_groups(pattern))
    {
        out.insert("unread".into(), Value::String(why));
        for key in ["error", "components", "has_regexp_groups", "test", "match"] {
            out.insert(key.into(), Value::Null);
        }
        return Value::Object(out);
    }
    let pattern_arguments = PatternArguments::from_json(pattern);
    let url_pattern = match pattern_arguments.and_then(|a| construct(&a)) {
        Ok(p) => p,
        Err(e) => {
            out.insert("error".into(), Value::String(e));
            for key in ["components", "has_regexp_groups", "test", "match"] {
                out.insert(key.into(), Value::Null);
            }
            return Value::Object(out);
        }
    };
    out.insert("error".into(), Value::Null);
    let getters: [(ComponentName, &str); 8] = [
        (ComponentName::Protocol, url_pattern.protocol()),
        (ComponentName::Username, url_pattern.username()),
        (ComponentName::Password, url_pattern.password()),
        (ComponentName::Hostname, url_pattern.hostname()),
        (ComponentName::Port, url_pattern.port()),
        (ComponentName::Pathname, url_pattern.pathname()),
        (ComponentName::Search, url_pattern.search()),
        (ComponentName::Hash, url_pattern.hash()),
    ];
    out.insert(
        "components".into(),
        Value::Object(
            getters
                .iter()
                .map(|(c, v)| (c.name().to_owned(), Value::String((*v).to_owned())))
                .collect(),
        ),
    );
    out.insert(
        "has_regexp_groups".into(),
        Value::Bool(url_pattern.has_regexp_groups()),
    );
    let (test, matched) = match exec(&url_pattern, inputs) {
        Err(_) => (Value::Null, Value::Null),
        Ok(None) => (Value::Bool(false), Value::Null),
        Ok(Some(result)) => {
            let mut m = Map::new();
            for (c, r) in [
                (ComponentName::Protocol, &result.protocol),
                (ComponentName::Username, &result.username),
                (ComponentName::Password, &result.password),
                (ComponentName::Hostname, &result.hostname),
                (ComponentName::Port, &result.port),
                (ComponentName::Pathname, &result.pathname),
                (ComponentName::Search, &result.search),
                (ComponentName::Hash, &result.hash),
            ] {
                let mut groups: Vec<_> = r.groups.iter().collect();
                groups.sort();
                let groups: Map<String, Value> = groups
                    .into_iter()
                    .map(|(k, v)| (k.clone(), v.clone().map_or(Value::Null, Value::String)))
                    .collect();
                m.insert(c.name().into(), json!({"input": r.input, "groups": groups}));
            }
            (Value::Bool(true), Value::Object(m))
        }
    };
    out.insert("test".into(), test);
    out.insert("match".into(), matched);
    Value::Object(out)
}

fn exec(
    url_pattern: &urlpattern::UrlPattern,
    inputs: &[Value],
) -> Result<Option<urlpattern::UrlPatternResult>, String> {
    let arguments = InputArguments::from_json(inputs)?;
    let input = match &arguments.input {
        UrlPatternInput::String(s) => {
            let base = match arguments.base_url.as_deref().map(url::Url::parse) {
                None => None,
                Some(Ok(base)) => Some(base),
                Some(Err(_)) => return Ok(None),
            };
            match url::Url::options().base_url(base.as_ref()).parse(s) {
                Ok(url) => urlpattern::UrlPatternMatchInput::Url(url),
                Err(_) => return Ok(None),
            }
        }
        UrlPatternInput::Init(init) => {
            if arguments.base_url.is_some() {
                return Err("a base URL string cannot be given with an init".to_owned());
            }
            match init_to_crate(init) {
                Ok(init) => urlpattern::UrlPatternMatchInput::Init(init),
                Err(_) => return Ok(None),
            }
        }
    };
    url_pattern.exec(input).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closing_bracket_before_an_opening_one_is_not_asked() {
        for pattern in ["https://].example.com/", "foo://a]b", "http://[::1]]/"] {
            let why = would_panic(pattern).unwrap_or_else(|| panic!("{pattern}"));
            assert!(why.contains("IPv6 bracket depth"), "{why}");
            let answer = answer(&[json!(pattern)], &[json!("https://example.com/")]);
            assert!(answer["unread"].is_string(), "{answer}");
        }
        for pattern in [
            "http://[::1]:8080/",
            "https://example.com/a]b",
            "https://*.example.com/",
        ] {
            assert_eq!(would_panic(pattern), None, "{pattern}");
        }
    }
}
