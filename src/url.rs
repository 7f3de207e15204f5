//! The URL Standard: URL records, the basic URL parser, hosts, percent-encoding, the
//! application/x-www-form-urlencoded format and the URL API.

pub mod api;
pub mod code_points;
pub mod explain;
pub mod fast;
pub mod form;
pub mod host;
pub mod input;
pub mod parser;
pub mod percent;
pub mod record;
pub mod search_params;
pub mod sink;
pub mod state;
pub mod writing;

pub use api::Component;
pub use api::{ParseError, Url};
pub use record::{Host, Origin, Path, UrlRecord};
pub use search_params::{UrlSearchParams, UrlSearchParamsMut};
pub use state::{Phase, State};
