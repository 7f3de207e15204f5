//! The Windows calls urlscope makes that the standard library does not: a job object, so that
//! stopping an adapter process stops everything it started, and a console close handler, so that
//! the inspector saves its history before Windows ends the process. On every other system the
//! crate is empty (urlscope depends on it only on Windows).
//!
//! The README follows.
#![doc = include_str!("../README.md")]

#[cfg(windows)]
mod console;
#[cfg(windows)]
mod job;

#[cfg(windows)]
pub use console::on_console_close;
#[cfg(windows)]
pub use job::{spawn_in_job, Job};
