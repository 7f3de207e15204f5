//! URLSearchParams (URL Standard: 6.2).

/// A URL's query as a list of name-value pairs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UrlSearchParams {
    list: Vec<(String, String)>,
}
