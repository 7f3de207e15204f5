//! One file per pane. Each renders from the App's finished report; none of them parses.

pub mod components;
pub mod errors;
pub mod grammar;
pub mod host;
pub mod input;
pub mod resolution;
pub mod trace;
