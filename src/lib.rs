//! urlscope: a WHATWG URL Standard parser that shows its work.
//!
//! The parser is our own implementation of the URL Standard's basic URL parser, generic over a
//! [`trace::Tracer`] so that every step of its state machine can be recorded, or compiled away.
//! This library has no terminal code; the `urlscope` binary is a front end on [`report::Report`].
//!
//! The README follows; its Rust example is compiled and run as a doctest, so it stays true.
#![doc = include_str!("../README.md")]

pub mod diff;
pub mod display;
pub mod inspect;
pub mod report;
pub mod trace;
#[cfg(feature = "tui")]
pub mod tui;
pub mod url;
pub mod validation;

pub use report::Report;

/// Inputs longer than this (16 MiB) are refused with a message by the command line and the
/// inspector rather than parsed: a trace costs tens of bytes per input byte.
pub const MAX_INPUT: usize = 16 << 20;

/// The inspector records the trace of inputs up to this length (1 MiB) and parses longer ones
/// without it: a trace takes 75 to 240 bytes per input byte, gigabytes at [`MAX_INPUT`].
pub const MAX_TRACED_INPUT: usize = 1 << 20;
pub use url::{ParseError, Url};
pub use validation::{Span, ValidationError, ValidationErrorKind};
