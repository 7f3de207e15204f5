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
pub mod gallery;
pub mod inspect;
pub mod report;
pub mod trace;
#[cfg(feature = "tui")]
pub mod tui;
pub mod url;
pub mod urlpattern;
pub mod validation;

pub use report::Report;

/// Inputs longer than this (16 MiB) are refused with a message by the command line and the
/// inspector rather than parsed: a trace costs tens of bytes per input byte.
pub const MAX_INPUT: usize = 16 << 20;

/// The longest input the library can parse: offsets into the input (validation error spans,
/// the trace's pointers and stored text) are 32-bit, so an input of 4 GiB or more must be
/// refused before parsing, as rust-url and ada refuse it.
pub const MAX_PARSED_INPUT: usize = u32::MAX as usize;

// The front ends' limit keeps every input they parse within the offsets' range.
const _: () = assert!(MAX_INPUT <= MAX_PARSED_INPUT);

/// An input of 4 GiB or more, refused by [`check_input_length`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputTooLong {
    /// The input's length in bytes.
    pub len: usize,
}

impl std::fmt::Display for InputTooLong {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the input is {} bytes; urlscope parses inputs of at most {MAX_PARSED_INPUT} bytes \
             (4 GiB less one: its offsets are 32-bit)",
            self.len
        )
    }
}

impl std::error::Error for InputTooLong {}

/// Whether an input of `len` bytes can be parsed, to be checked before parsing. The command
/// line and the inspector refuse inputs over [`MAX_INPUT`] first, well below the limit.
/// Taking the length (not the input) lets the limit be tested without allocating 4 GiB.
pub fn check_input_length(len: usize) -> Result<(), InputTooLong> {
    if len > MAX_PARSED_INPUT {
        Err(InputTooLong { len })
    } else {
        Ok(())
    }
}

/// The inspector records the trace of inputs up to this length (1 MiB) and parses longer ones
/// without it, saying so in the Trace pane and the status line. Every keystroke parses again,
/// and the trace is most of its cost: `cargo bench --bench frame` gave 120 ms a keystroke just
/// under this length and 42 ms just over it.
pub const MAX_TRACED_INPUT: usize = 1 << 20;

// The trace's limit is below the limit on what is parsed at all.
const _: () = assert!(MAX_TRACED_INPUT < MAX_INPUT);
pub use url::{ParseError, Url};
pub use validation::{Span, ValidationError, ValidationErrorKind};

#[cfg(test)]
mod tests {
    use super::*;

    /// 4 GiB less one byte is the longest input whose end offset fits in 32 bits; 4 GiB and
    /// more is refused, with a message that says why.
    #[test]
    fn inputs_of_4_gib_or_more_are_refused() {
        assert_eq!(check_input_length(0), Ok(()));
        assert_eq!(check_input_length(MAX_INPUT), Ok(()));
        assert_eq!(check_input_length((1 << 32) - 1), Ok(()));
        let refused = check_input_length(1 << 32);
        assert_eq!(refused, Err(InputTooLong { len: 1 << 32 }));
        assert_eq!(
            refused.map_err(|e| e.to_string()),
            Err(
                "the input is 4294967296 bytes; urlscope parses inputs of at most 4294967295 \
                 bytes (4 GiB less one: its offsets are 32-bit)"
                    .to_owned()
            )
        );
        assert!(check_input_length(usize::MAX).is_err());
    }
}
