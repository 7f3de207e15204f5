//! Host analysis: where a URL really goes and how it could fool someone, rule by rule. Library
//! code, no terminal: the report carries the result to the CLI, the JSON and the Host pane.

pub mod finding;
pub mod host;
pub mod known;
pub mod rfc3986;

pub use finding::{describe, CodePointRef, Finding, Severity};
pub use host::{analyse, DisplayDecision, HostAnalysis, IpAnalysis, LabelAnalysis, RuleHit};
