//! The web-platform-tests' shape of a URL pattern case, `{"pattern": [...], "inputs": [...]}`,
//! read as the URLPattern constructor and `exec` read their JavaScript arguments, and the
//! answer object `pattern --jsonl-in` writes for it.

use serde_json::{json, Map, Value};
use std::time::Duration;

use super::{
    ComponentName, Error, InputOutcome, UrlPattern, UrlPatternInit, UrlPatternInput,
    UrlPatternOptions, DEFAULT_MATCH_TIME_LIMIT,
};

/// The constructor's arguments: `(input, baseURL?, options?)` or `(input, options?)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternArguments {
    pub input: UrlPatternInput,
    pub base_url: Option<String>,
    pub options: UrlPatternOptions,
}

/// exec's and test's arguments: `(input, baseURL?)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputArguments {
    pub input: UrlPatternInput,
    pub base_url: Option<String>,
}

/// Reads JSON text as WebIDL reads USVStrings: a `\uXXXX` escape of a lone surrogate becomes
/// U+FFFD (JSON allows such escapes; Rust strings cannot hold them).
pub fn from_str_usv(text: &str) -> Result<Value, serde_json::Error> {
    serde_json::from_str(&replace_lone_surrogate_escapes(text))
}

fn replace_lone_surrogate_escapes(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains("\\u") && !text.contains("\\U") {
        return text.into();
    }
    let bytes = text.as_bytes();
    let hex_at = |i: usize| -> Option<u16> {
        let h = text.get(i..i + 4)?;
        u16::from_str_radix(h, 16).ok()
    };
    let escape_at = |i: usize| -> Option<u16> {
        (bytes.get(i) == Some(&b'\\') && bytes.get(i + 1) == Some(&b'u'))
            .then(|| hex_at(i + 2))
            .flatten()
    };
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut last = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            i += 1;
            continue;
        }
        match escape_at(i) {
            Some(unit @ 0xD800..=0xDBFF) => {
                if matches!(escape_at(i + 6), Some(0xDC00..=0xDFFF)) {
                    i += 12;
                } else {
                    let _ = unit;
                    out.push_str(&text[last..i]);
                    out.push_str("\\uFFFD");
                    i += 6;
                    last = i;
                }
            }
            Some(0xDC00..=0xDFFF) => {
                out.push_str(&text[last..i]);
                out.push_str("\\uFFFD");
                i += 6;
                last = i;
            }
            Some(_) => i += 6,
            // Any other escape is two bytes: skipping both keeps `\\u` from reading as `\u`.
            None => i += 2,
        }
    }
    out.push_str(&text[last.min(text.len())..]);
    out.into()
}

/// A URLPatternInit from a JSON object: every member a string (WebIDL would convert other
/// values to strings; the test data has none).
pub fn init_from_json(object: &Map<String, Value>) -> Result<UrlPatternInit, String> {
    let mut init = UrlPatternInit::default();
    for (key, value) in object {
        let is_member = key == "baseURL" || ComponentName::from_name(key).is_some();
        let Some(text) = value.as_str() else {
            if is_member {
                return Err(format!("the URLPatternInit member {key:?} is not a string"));
            }
            continue;
        };
        if key == "baseURL" {
            init.base_url = Some(text.to_owned());
        } else if let Some(c) = ComponentName::from_name(key) {
            init.set(c, text.to_owned());
        }
        // WebIDL's dictionary conversion ignores members the dictionary does not have.
    }
    Ok(init)
}

fn input_from_json(value: &Value) -> Result<UrlPatternInput, String> {
    match value {
        Value::String(s) => Ok(UrlPatternInput::String(s.clone())),
        Value::Object(o) => Ok(UrlPatternInput::Init(init_from_json(o)?)),
        other => Err(format!("an input is a string or an object, not {other}")),
    }
}

fn options_from_json(value: &Value) -> Result<UrlPatternOptions, String> {
    let object = value
        .as_object()
        .ok_or_else(|| format!("URLPatternOptions is an object, not {value}"))?;
    let mut options = UrlPatternOptions::default();
    for (key, v) in object {
        match (key.as_str(), v) {
            ("ignoreCase", Value::Bool(b)) => options.ignore_case = *b,
            _ => return Err(format!("{key:?}: {v} is not a URLPatternOptions member")),
        }
    }
    Ok(options)
}

impl PatternArguments {
    /// The `pattern` array of a case.
    pub fn from_json(arguments: &[Value]) -> Result<PatternArguments, String> {
        let (first, rest) = match arguments.split_first() {
            Some(split) => split,
            None => (&Value::Object(Map::new()), &[][..]),
        };
        let input = input_from_json(first)?;
        let (base_url, options) = match rest {
            [] => (None, UrlPatternOptions::default()),
            [Value::String(base)] => (Some(base.clone()), UrlPatternOptions::default()),
            [options] => (None, options_from_json(options)?),
            [Value::String(base), options] => (Some(base.clone()), options_from_json(options)?),
            // With three arguments the second is the baseURL USVString, which an object
            // converts to as JavaScript's ToString does.
            [Value::Object(_), options] => (
                Some("[object Object]".to_owned()),
                options_from_json(options)?,
            ),
            _ => return Err("the pattern has at most three arguments".to_owned()),
        };
        Ok(PatternArguments {
            input,
            base_url,
            options,
        })
    }

    pub fn construct(&self) -> Result<UrlPattern, Error> {
        UrlPattern::new(&self.input, self.base_url.as_deref(), self.options)
    }
}

impl InputArguments {
    /// The `inputs` array of a case.
    pub fn from_json(arguments: &[Value]) -> Result<InputArguments, String> {
        let input = match arguments.first() {
            Some(first) => input_from_json(first)?,
            // exec() with no argument reads an empty URLPatternInit.
            None => UrlPatternInput::Init(UrlPatternInit::default()),
        };
        let base_url = match arguments.get(1) {
            None => None,
            Some(Value::String(base)) => Some(base.clone()),
            Some(other) => return Err(format!("a base URL is a string, not {other}")),
        };
        if arguments.len() > 2 {
            return Err("the inputs have at most two arguments".to_owned());
        }
        Ok(InputArguments { input, base_url })
    }
}

/// Whether `answer` (from [`answer_within`]) was cut at the match time limit, and the message:
/// the standard gives no such answer, unlike a constructor or an input that throws.
pub fn cut_at_time_limit(answer: &Value) -> Option<&str> {
    ["error", "input_error"]
        .into_iter()
        .filter_map(|key| answer.get(key)?.as_str())
        .find(|message| message.ends_with(super::CUT_AT_TIME_LIMIT))
}

/// The answer for one case: the pattern's components and regular expressions, `test`, and
/// the match (the shape `pattern --jsonl-in` writes).
pub fn answer(case: &Value) -> Result<Value, String> {
    answer_within(case, DEFAULT_MATCH_TIME_LIMIT)
}

/// [`answer`], with the time a match may take before it fails.
pub fn answer_within(case: &Value, limit: Duration) -> Result<Value, String> {
    let object = case.as_object().ok_or("a case is a JSON object")?;
    let pattern = object
        .get("pattern")
        .and_then(Value::as_array)
        .ok_or("a case has a \"pattern\" array")?;
    let inputs = object
        .get("inputs")
        .map(|v| v.as_array().ok_or("\"inputs\" is an array"))
        .transpose()?
        .cloned()
        .unwrap_or_default();
    // The arguments' WebIDL conversion throws a TypeError as the constructor does.
    let arguments = PatternArguments::from_json(pattern);
    let input_arguments = InputArguments::from_json(&inputs)?;
    // exec() with no argument reads an empty URLPatternInit, which its result's inputs show.
    let echoed_inputs = if inputs.is_empty() {
        vec![json!({})]
    } else {
        inputs.clone()
    };
    let mut out = Map::new();
    out.insert("pattern".into(), Value::Array(pattern.clone()));
    out.insert("inputs".into(), Value::Array(inputs.clone()));
    let url_pattern = match arguments.and_then(|a| a.construct().map_err(|e| e.to_string())) {
        Ok(p) => p.with_match_time_limit(limit),
        Err(e) => {
            out.insert("error".into(), Value::String(e));
            for key in [
                "components",
                "regexps",
                "has_regexp_groups",
                "test",
                "match",
            ] {
                out.insert(key.into(), Value::Null);
            }
            return Ok(Value::Object(out));
        }
    };
    out.insert("error".into(), Value::Null);
    out.insert("components".into(), components_json(&url_pattern));
    out.insert("regexps".into(), regexps_json(&url_pattern));
    out.insert(
        "has_regexp_groups".into(),
        Value::Bool(url_pattern.has_reg_exp_groups()),
    );
    let outcome =
        url_pattern.match_detail(&input_arguments.input, input_arguments.base_url.as_deref());
    let (test, matched) = match outcome {
        // The input threw: neither test nor exec has an answer.
        Err(e) => {
            out.insert("input_error".into(), Value::String(e.to_string()));
            (Value::Null, Value::Null)
        }
        Ok(InputOutcome::NotAUrl(_)) => (Value::Bool(false), Value::Null),
        Ok(InputOutcome::Matched(detail)) => match detail.result() {
            None => (Value::Bool(false), Value::Null),
            Some(result) => {
                let mut m = Map::new();
                // Match, steps 10 and 12.2.3: the input, and the base URL string if given.
                m.insert("inputs".into(), Value::Array(echoed_inputs));
                for c in ComponentName::ALL {
                    let r = result.get(c);
                    let groups: Map<String, Value> = r
                        .groups
                        .iter()
                        .map(|(name, value)| {
                            (
                                name.clone(),
                                value.clone().map_or(Value::Null, Value::String),
                            )
                        })
                        .collect();
                    m.insert(c.name().into(), json!({"input": r.input, "groups": groups}));
                }
                (Value::Bool(true), Value::Object(m))
            }
        },
    };
    out.insert("test".into(), test);
    out.insert("match".into(), matched);
    Ok(Value::Object(out))
}

/// Each component's normalized pattern string.
pub fn components_json(url_pattern: &UrlPattern) -> Value {
    Value::Object(
        ComponentName::ALL
            .iter()
            .map(|&c| {
                (
                    c.name().to_owned(),
                    Value::String(url_pattern.pattern_string(c).to_owned()),
                )
            })
            .collect(),
    )
}

/// Each component's regular expression source.
pub fn regexps_json(url_pattern: &UrlPattern) -> Value {
    Value::Object(
        ComponentName::ALL
            .iter()
            .map(|&c| {
                (
                    c.name().to_owned(),
                    Value::String(url_pattern.component(c).regular_expression_string.clone()),
                )
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_surrogate_escapes_read_as_u_fffd() {
        let v = from_str_usv(r#"["\ud83d", "\ud83d\ude00", "\\ud800", "\udc00x"]"#)
            .expect("valid JSON");
        assert_eq!(v, json!(["\u{FFFD}", "😀", "\\ud800", "\u{FFFD}x"]));
    }
}
