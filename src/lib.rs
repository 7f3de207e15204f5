//! urlscope: a WHATWG URL Standard parser that shows its work.
//!
//! The parser is our own implementation of the URL Standard's basic URL parser, generic over a
//! [`trace::Tracer`] so that every step of its state machine can be recorded, or compiled away.
//! Around it: the standard's validation errors with their spans in the input as typed
//! ([`validation`]), host analysis and security findings ([`inspect`]), the URL Pattern Standard
//! ([`urlpattern`]) and a differential against other parsers ([`diff`]). This library has no
//! terminal code; the `urlscope` binary and the inspector are front ends on [`Report`].
//!
//! ```
//! use urlscope::Url;
//!
//! // The URL Standard's parser and its URL API (the standard's getters and setters).
//! let base = Url::parse("https://example.org/a/b", None)?;
//! let mut url = Url::parse("../c?x=1", Some(&base))?;
//! assert_eq!(url.href(), "https://example.org/c?x=1");
//! url.set_hostname("EXAMPLE.com");
//! assert_eq!(url.host(), "example.com");
//! assert!(Url::parse("https://exa mple.org", None).is_err());
//!
//! // Everything about one input: its validation errors, each with its span in the input as
//! // typed, and the analysis of its host.
//! let report = urlscope::Report::new("https://user@xn--pypal-4ve.com\\login", None);
//! let kinds: Vec<String> = report.errors.iter().map(|e| e.kind.to_string()).collect();
//! assert_eq!(kinds, ["invalid-credentials", "invalid-reverse-solidus"]);
//! let host = report.host_analysis.as_ref().expect("a host");
//! assert_eq!(host.unicode, "pаypal.com"); // the second letter is Cyrillic
//! assert_eq!(host.imitates[0].domain, "paypal.com");
//! for id in ["lookalike-domain", "mixed-script", "backslash-as-slash", "credentials"] {
//!     assert!(host.ids().contains(&id), "{id}");
//! }
//! # Ok::<(), urlscope::ParseError>(())
//! ```
//!
//! # Features
//!
//! - `native` (default; implied by `cli` and `tui`): the readings that need the machine:
//!   libcurl (C, through curl-urlapi), the runtimes' parser adapters (processes) and Node's URL
//!   pattern reading. Without it the library is pure Rust and builds for WebAssembly.
//! - `cli` (default): the `urlscope` command line (clap and the batch machinery).
//! - `tui` (default): the interactive inspector (the module `tui`), the only terminal code.
//!
//! The core alone: `urlscope = { version = "0.1", default-features = false }`, with
//! `features = ["native"]` for libcurl's and the runtimes' readings. `docs/library.md` in the
//! source tree says more (path and git dependencies, what each feature brings).
//!
//! # What is stable
//!
//! urlscope is 0.x: under Cargo's rules a 0.(x+1) release may break anything, and a 0.x.(y+1)
//! release breaks nothing that is listed here as stable. Every break of it is named in the
//! changelog.
//!
//! Stable, the API promised to library users:
//! - [`Url`] and [`ParseError`]: parsing (`parse`, `can_parse`, `parse_with_encoding`), the URL
//!   API's getters and setters by the standard's names, [`url::UrlSearchParams`], the URL
//!   record ([`url::UrlRecord`], [`url::Host`], [`url::Origin`]). Their answers follow the
//!   standard: a change of the standard is a fix, not a break.
//! - [`ValidationError`], [`ValidationErrorKind`] (named as in the standard's table) and
//!   [`Span`].
//! - [`Report::new`], [`Report::components`] and the report's fields `input`, `base`,
//!   `outcome`, `errors`, `failure`, `host_analysis` and `url` (new fields may be added). The
//!   JSON that `urlscope parse --json` writes is the command line's contract, documented with
//!   the command.
//! - Host analysis: [`inspect::analyse`], [`inspect::HostAnalysis`], [`inspect::Finding`] and
//!   the finding ids (`FindingId::id`), which are the JSON's; new findings may be added.
//! - The gate: [`inspect::gate::Gate`] and `Gate::judge`, the one function that decides a
//!   verdict for every surface.
//! - [`urlpattern::UrlPattern`]: the URL Pattern Standard's class (`test`, `exec`).
//! - [`check_input_length`], [`MAX_PARSED_INPUT`].
//!
//! Not stable: everything else, the front ends' internals, public so that the binary, the
//! inspector, the Python package and the page can share them; they change with the front ends,
//! in any release. Among them: `tui`, [`display`], [`gallery`], the trace's recorded steps ([`trace`]: the [`trace::Tracer`] trait is
//! stable, what a step records is not), the differential's machinery (`diff::adapter`,
//! `diff::background`, `diff::Lab` and `diff::Live`), [`report::fields`],
//! [`url::explain`], [`url::fast`], [`url::sink`], [`urlpattern::report`] and the other
//! readings of a pattern, and the constants that size the front ends ([`MAX_INPUT`],
//! [`MAX_TRACED_INPUT`]).

// The guides' Rust examples are compiled and run as doctests, so that they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

#[cfg(doctest)]
#[doc = include_str!("../docs/library.md")]
struct LibraryGuideDoctests;

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

/// What the library's unit tests share.
#[cfg(test)]
pub(crate) mod test_support {
    /// Every string of one to `most` pieces from `pieces`, each piece any number of times: the
    /// inputs on which a quick rewrite of a scan is held to its plain definition.
    pub(crate) fn every_string_of(pieces: &[&str], most: usize) -> Vec<String> {
        let mut strings = vec![String::new()];
        let mut all = Vec::new();
        for _ in 0..most {
            strings = strings
                .iter()
                .flat_map(|s| pieces.iter().map(move |p| format!("{s}{p}")))
                .collect();
            all.extend(strings.iter().cloned());
        }
        all
    }
}

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
