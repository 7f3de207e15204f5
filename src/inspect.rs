//! Host analysis: where a URL really goes and how it could fool someone, rule by rule. Library
//! code, no terminal: the report carries the result to the CLI, the JSON and the Host pane.
//!
//! - [`label`]: the label table, computed once per label for every rule.
//! - [`policy`]: the display policies (Chromium, Firefox, UTS 39), each a named list of rules.
//! - [`lookalike`] and [`known`]: what a name imitates, against the known domains.
//! - [`host`]: the analysis of one host, one function per finding.

pub mod finding;
pub mod gate;
pub mod host;
pub mod internal;
pub mod known;
pub mod label;
pub mod lookalike;
pub mod policy;
pub mod resolve;
pub mod rfc3986;

pub use finding::{describe, CodePointRef, Finding, FindingId, Severity};
pub use host::{analyse, credential_finding, HostAnalysis, Imitation, IpAnalysis, Subject};
pub use label::LabelAnalysis;
pub use policy::{LabelDecision, PolicyDecision};
