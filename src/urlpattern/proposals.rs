//! Two proposals outside the URL Pattern Standard, as the web-platform-tests'
//! `urlpattern-compare-test-data.json` and `urlpattern-generate-test-data.json` and Chromium
//! (which ships both behind a flag) describe them:
//!
//! - `URLPattern.compareComponent(component, left, right)`: orders two patterns by how
//!   specific one component is, so that a router can try the more specific route first
//!   (whatwg/urlpattern issue 61).
//! - `URLPattern.prototype.generate(component, groups)`: the reverse of a match, the
//!   component's value with each named group replaced by the given value.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use super::parser::{Modifier, Part, PartType};
use super::{ComponentName, Error, UrlPattern};

/// How specific a part type is: fixed text most, then a regular expression (it most likely
/// constrains), a segment wildcard, and a full wildcard least.
fn type_rank(kind: PartType) -> u8 {
    match kind {
        PartType::FullWildcard => 0,
        PartType::SegmentWildcard => 1,
        PartType::Regexp => 2,
        PartType::FixedText => 3,
    }
}

/// How specific a modifier is: none (exactly once) most, then `+` (at least once), `?`,
/// and `*` least.
fn modifier_rank(modifier: Modifier) -> u8 {
    match modifier {
        Modifier::ZeroOrMore => 0,
        Modifier::Optional => 1,
        Modifier::OneOrMore => 2,
        Modifier::None => 3,
    }
}

/// Compare two parts: by type, then modifier, then prefix, value and suffix as strings
/// (code unit order; the values are canonicalized, so equal text compares equal). Group
/// names take no part: `/:a` and `/:b` match the same.
fn compare_part(left: &Part, right: &Part) -> Ordering {
    (
        type_rank(left.kind),
        modifier_rank(left.modifier),
        &left.prefix,
        &left.value,
        &left.suffix,
    )
        .cmp(&(
            type_rank(right.kind),
            modifier_rank(right.modifier),
            &right.prefix,
            &right.value,
            &right.suffix,
        ))
}

/// The part a shorter part list is compared with past its end: empty fixed text, so that
/// `/foo/` (which ends) is more specific than `/foo/*` (which goes on).
fn empty_fixed_text() -> Part {
    Part {
        kind: PartType::FixedText,
        value: String::new(),
        modifier: Modifier::None,
        name: String::new(),
        prefix: String::new(),
        suffix: String::new(),
    }
}

impl UrlPattern {
    /// `URLPattern.compareComponent(component, left, right)`: `Less` when `left`'s component
    /// is less specific than `right`'s, `Greater` when more, `Equal` when they are the same
    /// parts. Parts are compared in order; the first difference decides.
    pub fn compare_component(
        component: ComponentName,
        left: &UrlPattern,
        right: &UrlPattern,
    ) -> Ordering {
        let left = &left.component(component).part_list;
        let right = &right.component(component).part_list;
        for (l, r) in left.iter().zip(right) {
            let order = compare_part(l, r);
            if order != Ordering::Equal {
                return order;
            }
        }
        let common = left.len().min(right.len());
        match (left.get(common), right.get(common)) {
            (None, Some(r)) => compare_part(&empty_fixed_text(), r),
            (Some(l), None) => compare_part(l, &empty_fixed_text()),
            _ => Ordering::Equal,
        }
    }

    /// `URLPattern.prototype.generate(component, groups)`: the component's fixed text with
    /// each named segment wildcard (`:name`) replaced by `groups[name]`, canonicalized by the
    /// component's encoding callback. Only patterns that name every group and nothing else
    /// can be reversed: a modifier, a wildcard, a regular expression, an unnamed group, a
    /// missing value, or a value holding the component's delimiter (`/` in a pathname, `.` in
    /// a hostname) is an error.
    pub fn generate(
        &self,
        component: ComponentName,
        groups: &BTreeMap<String, String>,
    ) -> Result<String, Error> {
        let compiled = self.component(component);
        let refuse = |why: String| Error::Generate { component, why };
        let mut result = String::new();
        for part in &compiled.part_list {
            if part.modifier != Modifier::None {
                return Err(refuse(format!(
                    "the part {part} has the modifier {:?}: how many times to repeat it is \
                     not known",
                    part.modifier.as_str()
                )));
            }
            match part.kind {
                PartType::FixedText => result.push_str(&part.value),
                PartType::SegmentWildcard => {
                    // An unnamed group whose regular expression is the segment wildcard's.
                    if part.name.starts_with(|c: char| c.is_ascii_digit()) {
                        return Err(refuse(format!(
                            "the group {} has no name to look its value up by",
                            part.name
                        )));
                    }
                    let Some(value) = groups.get(&part.name) else {
                        return Err(refuse(format!("no value for the group :{}", part.name)));
                    };
                    let encoded = compiled.callback.run(value)?;
                    if let Some(delimiter) = compiled
                        .options
                        .delimiter_code_point
                        .filter(|d| encoded.contains(*d))
                    {
                        return Err(refuse(format!(
                            "the value {value:?} of :{} holds the delimiter {delimiter:?}, \
                             which would end the segment",
                            part.name
                        )));
                    }
                    result.push_str(&part.prefix);
                    result.push_str(&encoded);
                    result.push_str(&part.suffix);
                }
                PartType::FullWildcard | PartType::Regexp => {
                    return Err(refuse(format!(
                        "the part {part} is a {}: no value can be checked against it",
                        part.kind.name()
                    )))
                }
            }
        }
        Ok(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::urlpattern::{UrlPatternInit, UrlPatternInput, UrlPatternOptions};

    fn pathname(p: &str) -> UrlPattern {
        let init = UrlPatternInit {
            pathname: Some(p.to_owned()),
            ..UrlPatternInit::default()
        };
        UrlPattern::new(
            &UrlPatternInput::Init(init),
            None,
            UrlPatternOptions::default(),
        )
        .expect("compiles")
    }

    #[test]
    fn a_route_sorts_before_the_routes_it_is_more_specific_than() {
        let mut routes =
            ["/books/*", "/books/:id", "/books/new", "/*", "/books/:id?"].map(|p| (p, pathname(p)));
        routes.sort_by(|a, b| UrlPattern::compare_component(ComponentName::Pathname, &b.1, &a.1));
        let order: Vec<&str> = routes.iter().map(|r| r.0).collect();
        assert_eq!(
            order,
            ["/books/new", "/books/:id", "/books/:id?", "/books/*", "/*"]
        );
    }

    #[test]
    fn generate_names_why_it_refuses() {
        let groups = BTreeMap::from([("id".to_owned(), "a/b".to_owned())]);
        let error = pathname("/books/:id")
            .generate(ComponentName::Pathname, &groups)
            .expect_err("a slash would end the segment");
        assert!(error.to_string().contains("delimiter '/'"), "{error}");
        let error = pathname("/books/*")
            .generate(ComponentName::Pathname, &BTreeMap::new())
            .expect_err("a wildcard");
        assert!(error.to_string().contains("full-wildcard"), "{error}");
    }
}
