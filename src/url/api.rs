//! The URL API (URL Standard: 6.1 URL class).

use crate::url::record::UrlRecord;
use crate::validation::ValidationError;

/// A parsed URL.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Url {
    pub(crate) record: UrlRecord,
}

/// The basic URL parser returned failure; `cause` is the validation error that made it fail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub cause: ValidationError,
}
