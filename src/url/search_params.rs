//! URLSearchParams (URL Standard: 6.2).

use std::cmp::Ordering;
use std::fmt;

use crate::url::form;
use crate::url::record::UrlRecord;

/// A query as a list of name-value pairs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UrlSearchParams {
    list: Vec<(String, String)>,
}

impl UrlSearchParams {
    pub fn new() -> Self {
        Self::default()
    }

    /// URL Standard: `new URLSearchParams(init)` with a string: a single leading "?" is
    /// removed, then the rest is parsed as application/x-www-form-urlencoded.
    pub fn parse(init: &str) -> Self {
        let init = init.strip_prefix('?').unwrap_or(init);
        UrlSearchParams {
            list: form::parse_str(init),
        }
    }

    /// `new URLSearchParams(init)` with a sequence of pairs or a record.
    pub fn from_pairs<N: Into<String>, V: Into<String>>(
        pairs: impl IntoIterator<Item = (N, V)>,
    ) -> Self {
        UrlSearchParams {
            list: pairs
                .into_iter()
                .map(|(n, v)| (n.into(), v.into()))
                .collect(),
        }
    }

    pub fn size(&self) -> usize {
        self.list.len()
    }

    pub fn pairs(&self) -> &[(String, String)] {
        &self.list
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.list.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    pub fn append(&mut self, name: &str, value: &str) {
        self.list.push((name.to_owned(), value.to_owned()));
    }

    /// `delete(name, value)`: with a value, only the pairs with that value go.
    pub fn delete(&mut self, name: &str, value: Option<&str>) {
        self.list
            .retain(|(n, v)| !(n == name && value.is_none_or(|value| v == value)));
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.list
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn get_all(&self, name: &str) -> Vec<&str> {
        self.list
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .collect()
    }

    pub fn has(&self, name: &str, value: Option<&str>) -> bool {
        self.list
            .iter()
            .any(|(n, v)| n == name && value.is_none_or(|value| v == value))
    }

    /// `set(name, value)`: the first pair with that name takes the value, the others go.
    pub fn set(&mut self, name: &str, value: &str) {
        let mut found = false;
        self.list.retain_mut(|(n, v)| {
            if n != name {
                return true;
            }
            if found {
                return false;
            }
            found = true;
            *v = value.to_owned();
            true
        });
        if !found {
            self.append(name, value);
        }
    }

    /// `sort()`: a stable sort by name, comparing UTF-16 code units as JavaScript does.
    pub fn sort(&mut self) {
        self.list.sort_by(|(a, _), (b, _)| compare_code_units(a, b));
    }

    /// The application/x-www-form-urlencoded serialization (UTF-8).
    pub fn serialize(&self) -> String {
        form::serialize_utf8(self.iter())
    }
}

/// Orders two strings by their UTF-16 code units.
fn compare_code_units(a: &str, b: &str) -> Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

impl fmt::Display for UrlSearchParams {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.serialize())
    }
}

/// A URL's query object: each edit runs the standard's "update" steps, so the URL's query
/// follows the list.
#[derive(Debug)]
pub struct UrlSearchParamsMut<'a> {
    url: &'a mut UrlRecord,
    params: UrlSearchParams,
}

impl<'a> UrlSearchParamsMut<'a> {
    /// URL Standard: initialize a URL object: the list is the parse of the URL's query.
    pub(crate) fn new(url: &'a mut UrlRecord) -> Self {
        let params = UrlSearchParams {
            list: form::parse_str(url.query.as_deref().unwrap_or("")),
        };
        UrlSearchParamsMut { url, params }
    }

    /// URL Standard: update a URLSearchParams object.
    fn update(&mut self) {
        let serialized = self.params.serialize();
        self.url.query = (!serialized.is_empty()).then_some(serialized);
    }

    pub fn append(&mut self, name: &str, value: &str) {
        self.params.append(name, value);
        self.update();
    }

    pub fn delete(&mut self, name: &str, value: Option<&str>) {
        self.params.delete(name, value);
        self.update();
    }

    pub fn set(&mut self, name: &str, value: &str) {
        self.params.set(name, value);
        self.update();
    }

    pub fn sort(&mut self) {
        self.params.sort();
        self.update();
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.params.get(name)
    }

    pub fn get_all(&self, name: &str) -> Vec<&str> {
        self.params.get_all(name)
    }

    pub fn has(&self, name: &str, value: Option<&str>) -> bool {
        self.params.has(name, value)
    }

    pub fn size(&self) -> usize {
        self.params.size()
    }

    pub fn params(&self) -> &UrlSearchParams {
        &self.params
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::url::Url;

    fn url(s: &str) -> Url {
        Url::parse(s, None).expect("parses")
    }

    #[test]
    fn spec_note_examples() {
        // URL Standard: the note at the start of "URLSearchParams class".
        let mut u = url("https://example.com/?a=b ~");
        assert_eq!(u.href(), "https://example.com/?a=b%20~");
        u.search_params_mut().sort();
        assert_eq!(u.href(), "https://example.com/?a=b+%7E");
        let u = url("https://example.com/?a=~&b=%7E");
        assert_eq!(u.search(), "?a=~&b=%7E");
        assert_eq!(u.search_params().get("a"), Some("~"));
        assert_eq!(u.search_params().get("b"), Some("~"));
        assert_eq!(
            UrlSearchParams::from_pairs([("key", "730d67")]).to_string(),
            "key=730d67"
        );
    }

    #[test]
    fn sort_example_and_code_unit_order() {
        let mut u = url("https://example.org/?q=🏳️‍🌈&key=e1f7bc78");
        u.search_params_mut().sort();
        assert_eq!(
            u.search(),
            "?key=e1f7bc78&q=%F0%9F%8F%B3%EF%B8%8F%E2%80%8D%F0%9F%8C%88"
        );
        // U+1F308 is the surrogate pair D83C DF08, which sorts before U+FB03 in UTF-16 although
        // it is the larger code point.
        let mut p =
            UrlSearchParams::from_pairs([("\u{FB03}", "1"), ("\u{1F308}", "2"), ("a", "3")]);
        p.sort();
        let names: Vec<_> = p.iter().map(|(n, _)| n).collect();
        assert_eq!(names, vec!["a", "\u{1F308}", "\u{FB03}"]);
        // Stable: equal names keep their order.
        let mut p = UrlSearchParams::parse("b=1&a=2&b=3&a=4");
        p.sort();
        assert_eq!(p.to_string(), "a=2&a=4&b=1&b=3");
    }

    #[test]
    fn delete_has_set() {
        let mut p = UrlSearchParams::parse("?a=1&b=2&a=3");
        assert!(p.has("a", None));
        assert!(p.has("a", Some("3")));
        assert!(!p.has("a", Some("2")));
        p.delete("a", Some("1"));
        assert_eq!(p.to_string(), "b=2&a=3");
        p.append("b", "4");
        p.set("b", "5");
        assert_eq!(p.to_string(), "b=5&a=3");
        p.set("c", "6");
        assert_eq!(p.get_all("c"), vec!["6"]);
        p.delete("b", None);
        assert_eq!(p.to_string(), "a=3&c=6");
        assert_eq!(p.size(), 2);
    }

    #[test]
    fn update_sets_the_query_to_null_when_empty() {
        let mut u = url("https://x/?a=1#f");
        u.search_params_mut().delete("a", None);
        assert_eq!(u.record().query, None);
        assert_eq!(u.href(), "https://x/#f");
        u.search_params_mut().append("a b", "c");
        assert_eq!(u.href(), "https://x/?a+b=c#f");
    }
}
