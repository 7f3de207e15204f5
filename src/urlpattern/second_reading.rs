//! The second reading of a URL pattern: the `urlpattern` crate (Deno's implementation, on
//! rust-url and the `regex` crate), answering in the shape of [`super::json::answer`] so the
//! two can be compared member by member. Nothing else in this module calls it.

use serde_json::{json, Map, Value};

use super::json::{InputArguments, PatternArguments};
use super::{ComponentName, UrlPatternInit, UrlPatternInput};

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

/// The crate's answer for a case in the web-platform-tests' shape: `error`, `components`,
/// `has_regexp_groups`, `test` and `match` as [`super::json::answer`] writes them (groups
/// in name order: the crate keeps them in a hash map).
pub fn answer(pattern: &[Value], inputs: &[Value]) -> Value {
    let mut out = Map::new();
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
