//! The report: one parse, with everything the front ends show.
#[derive(Debug)]
pub struct Report;
