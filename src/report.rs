//! The report: one run of the parser on one input, with everything the front ends show.
//!
//! Data flows one way: input → [`Report::new`] (parse with a recording tracer) → the terminal
//! panes, the JSON output and the tests all read the same finished report.

pub mod fields;
pub mod grammar;
pub mod provenance;
pub mod setter;
pub mod verdict;

use encoding_rs::{Encoding, UTF_8};
use serde::Serialize;

use crate::trace::{ErrorCollector, Recorder, Trace};
use crate::url::api::{ParseError, Url};
use crate::url::fast;
use crate::url::record::UrlRecord;
use crate::url::writing::{self, Writing};
use crate::validation::{Span, ValidationError};

/// What the URL API's getters return for a parsed URL.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Components {
    pub href: String,
    pub origin: String,
    pub protocol: String,
    pub username: String,
    pub password: String,
    pub host: String,
    pub hostname: String,
    pub port: String,
    pub pathname: String,
    pub search: String,
    pub hash: String,
    #[serde(rename = "searchParams")]
    pub search_params: Vec<(String, String)>,
}

impl Components {
    pub fn of(url: &Url) -> Self {
        Components {
            href: url.href().to_owned(),
            origin: url.origin(),
            protocol: url.protocol().to_owned(),
            username: url.username().to_owned(),
            password: url.password().to_owned(),
            host: url.host().to_owned(),
            hostname: url.hostname().to_owned(),
            port: url.port().to_owned(),
            pathname: url.pathname().to_owned(),
            search: url.search().to_owned(),
            hash: url.hash().to_owned(),
            search_params: url.search_params().into_pairs(),
        }
    }
}

/// How the parse ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "outcome", rename_all = "kebab-case")]
pub enum Outcome {
    Parsed {
        /// `None` when the report was made without them ([`Parts::components`]).
        components: Option<Box<Components>>,
    },
    /// The input failed to parse; `cause` is the validation error that made it fail.
    Failure { cause: Option<ValidationError> },
    /// The base URL failed to parse, so the input was not parsed at all.
    BaseFailure { cause: Option<ValidationError> },
}

/// Common relative references (RFC 3986, section 5.4), resolved against the base to show what
/// the base does to each form.
pub const RELATIVE_REFERENCES: &[&str] = &[
    "g",
    "./g",
    "g/",
    "/g",
    "//g",
    "?y",
    "g?y",
    "#s",
    "g#s",
    "g?y#s",
    ";x",
    "g;x",
    "g;x?y#s",
    "",
    ".",
    "./",
    "..",
    "../",
    "../g",
    "../..",
    "../../",
    "../../g",
    "../../../g",
    "/./g",
    "/../g",
    "g.",
    ".g",
    "g..",
    "..g",
    "./../g",
    "./g/.",
    "g/./h",
    "g/../h",
    "g;x=1/./y",
    "g;x=1/../y",
    "\\g",
    "g\\h",
];

/// One relative reference resolved against the base: the href, or `None` for failure.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Resolution {
    pub reference: &'static str,
    pub href: Option<String>,
}

/// The table of [`RELATIVE_REFERENCES`] resolved against `base`.
pub fn resolve_references(base: &Url) -> Vec<Resolution> {
    RELATIVE_REFERENCES
        .iter()
        .map(|&reference| Resolution {
            reference,
            href: Url::parse(reference, Some(base))
                .ok()
                .map(|u| u.href().to_owned()),
        })
        .collect()
}

/// Which of a report's derived parts to compute. The parse itself (the URL, its components and
/// validation errors) is always done; a batch asks only for what it prints, the inspector and
/// the tests for everything.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Parts {
    /// The getters' values copied out of the URL ([`Report::components`]); the command line
    /// reads them from [`Report::url`].
    pub components: bool,
    /// The writing grammar's verdict ([`Report::writing`]).
    pub writing: bool,
    /// [`Report::host_analysis`].
    pub host_analysis: bool,
    /// The host analysis's label table ([`crate::inspect::HostAnalysis::labels`]).
    pub host_labels: bool,
    /// The host analysis's forms of a domain: its serialization, the host as typed, its
    /// Unicode form, public suffix and registrable domain
    /// ([`crate::inspect::HostAnalysis::host`], `typed`, `unicode`, `public_suffix`,
    /// `registrable_domain`); without them those are empty, for a batch that reads only the
    /// findings (the URL still has its host). The findings do not depend on it.
    pub host_forms: bool,
    /// [`Report::resolutions`] (only with a base).
    pub resolutions: bool,
}

impl Parts {
    pub const ALL: Parts = Parts {
        components: true,
        writing: true,
        host_analysis: true,
        host_labels: true,
        host_forms: true,
        resolutions: true,
    };
    pub const NONE: Parts = Parts {
        components: false,
        writing: false,
        host_analysis: false,
        host_labels: false,
        host_forms: false,
        resolutions: false,
    };
}

/// One parse of one input against an optional base.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub input: String,
    pub base: Option<String>,
    /// The query encoding's name.
    pub encoding: &'static str,
    #[serde(flatten)]
    pub outcome: Outcome,
    /// Every validation error of the input's parse, in the order raised.
    pub errors: Vec<ValidationError>,
    /// When the input failed in the host parser: the step that returned failure, where, and a
    /// fix (the last validation error is not always the cause: the domain parser's last steps
    /// fail without naming one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure: Option<crate::validation::Failure>,
    /// When the base failed to parse: its validation errors, with spans in code points of
    /// `base` (empty otherwise).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub base_errors: Vec<ValidationError>,
    /// The trace of the input's parse (empty when the base failed).
    pub trace: Option<Trace>,
    /// Where in the input the host parser ran (code points), when it did.
    #[serde(skip)]
    pub host_span: Option<crate::validation::Span>,
    /// Whether the input is a valid URL string by the standard's writing grammar (the other
    /// definition of validity, beside the parser's validation errors). Without
    /// [`Parts::writing`] it is not computed: not valid, with no production, position or
    /// expectation.
    pub writing: Writing,
    /// What the host is, and how it could mislead (`None` when nothing parsed).
    pub host_analysis: Option<crate::inspect::HostAnalysis>,
    /// Common relative references resolved against the base (empty without a base).
    pub resolutions: Vec<Resolution>,
    /// The parsed URL, for front ends that need more than the components.
    #[serde(skip)]
    pub url: Option<Url>,
    #[serde(skip)]
    pub base_url: Option<Url>,
    /// The derived parts computed.
    #[serde(skip)]
    pub parts: Parts,
    /// Set when URL API setters changed the URL the input parsed to ([`Report::after_setters`]):
    /// everything but `input`, `base` and `encoding` then describes that URL, read from its
    /// href, and the spans index the href ([`Report::spans_in`]).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub after_setters: bool,
}

/// What one run of the parser gave, before the report derives the rest from it.
struct Parse {
    result: Result<Url, ParseError>,
    /// Every validation error, in the order raised.
    errors: Vec<ValidationError>,
    /// Where in the input the host parser ran (code points).
    host_span: Option<Span>,
    trace: Option<Trace>,
}

impl Report {
    /// Parses `input` against `base` (a string, parsed first as the API URL parser does) with
    /// UTF-8 as the query encoding, recording the trace.
    pub fn new(input: &str, base: Option<&str>) -> Report {
        Self::with_encoding(input, base, UTF_8)
    }

    pub fn with_encoding(input: &str, base: Option<&str>, encoding: &'static Encoding) -> Report {
        Self::parse_base_then(input, base, encoding, Self::against)
    }

    /// What the inspector shows: [`Report::new`], except that an input longer than
    /// [`crate::MAX_TRACED_INPUT`] is parsed without recording the trace (`trace` is `None`).
    pub fn for_inspector(input: &str, base: Option<&str>) -> Report {
        if input.len() > crate::MAX_TRACED_INPUT {
            Self::parse_base_then(input, base, UTF_8, Self::untraced)
        } else {
            Self::new(input, base)
        }
    }

    /// Parses `base` as the API URL parser does, then `input` against it with `parse`; a base
    /// that fails gives a report of that.
    fn parse_base_then(
        input: &str,
        base: Option<&str>,
        encoding: &'static Encoding,
        parse: fn(&str, Option<Url>, &'static Encoding) -> Report,
    ) -> Report {
        let base_url = match base.map(|b| (b, Url::parse(b, None))) {
            None => None,
            Some((_, Ok(url))) => Some(url),
            Some((base, Err(e))) => {
                // The base's errors too, so that a script can tell why it failed.
                let mut collector = ErrorCollector::default();
                let _ = Url::parse_with(base, None, UTF_8, &mut collector);
                return Report {
                    input: input.to_owned(),
                    base: Some(base.to_owned()),
                    encoding: encoding.output_encoding().name(),
                    outcome: Outcome::BaseFailure {
                        cause: e.cause().cloned(),
                    },
                    errors: Vec::new(),
                    failure: None,
                    base_errors: collector.into_errors(base),
                    trace: None,
                    host_span: None,
                    // The relative forms need a base; without one the grammar is still read.
                    writing: writing::check(input, None),
                    host_analysis: None,
                    resolutions: Vec::new(),
                    url: None,
                    base_url: None,
                    parts: Parts::ALL,
                    after_setters: false,
                };
            }
        };
        parse(input, base_url, encoding)
    }

    /// Parses `input` against an already parsed base, recording the trace.
    pub fn against(input: &str, base_url: Option<Url>, encoding: &'static Encoding) -> Report {
        let mut recorder = Recorder::new();
        let result = Url::parse_with(input, base_url.as_ref(), encoding, &mut recorder);
        let trace = recorder.finish(input, UrlRecord::default());
        let parse = Parse {
            result,
            errors: trace.errors().to_vec(),
            host_span: trace.host_span(),
            trace: Some(trace),
        };
        Self::assemble(input, base_url, encoding, parse, Parts::ALL)
    }

    /// Like [`Report::against`] without recording the trace (`trace` is `None`): for bulk
    /// use, where only the result and the validation errors are wanted.
    pub fn untraced(input: &str, base_url: Option<Url>, encoding: &'static Encoding) -> Report {
        Self::untraced_parts(input, base_url, encoding, Parts::ALL)
    }

    /// [`Report::untraced`] computing only `parts` of what derives from the parse.
    pub fn untraced_parts(
        input: &str,
        base_url: Option<Url>,
        encoding: &'static Encoding,
        parts: Parts,
    ) -> Report {
        // Input the state machine would only copy, raising no validation error, skips it.
        if base_url.is_none() && encoding == UTF_8 {
            if let Some((url, host)) = fast::parse_without_errors(input) {
                let parse = Parse {
                    result: Ok(Url::from_parts(url)),
                    errors: Vec::new(),
                    // ASCII only, so byte offsets are code point offsets.
                    host_span: host.map(|h| Span {
                        start: h.start,
                        end: h.end,
                    }),
                    trace: None,
                };
                return Self::assemble(input, None, encoding, parse, parts);
            }
        }
        Self::untraced_state_machine(input, base_url, encoding, parts)
    }

    /// [`Report::untraced`] through the state machine alone: what the shortcut is checked
    /// against.
    #[doc(hidden)]
    pub fn untraced_without_shortcut(
        input: &str,
        base_url: Option<Url>,
        encoding: &'static Encoding,
    ) -> Report {
        Self::untraced_state_machine(input, base_url, encoding, Parts::ALL)
    }

    fn untraced_state_machine(
        input: &str,
        base_url: Option<Url>,
        encoding: &'static Encoding,
        parts: Parts,
    ) -> Report {
        let mut collector = ErrorCollector::default();
        let result = Url::parse_with(input, base_url.as_ref(), encoding, &mut collector);
        let parse = Parse {
            result,
            host_span: collector.host_span(input),
            errors: collector.into_errors(input),
            trace: None,
        };
        Self::assemble(input, base_url, encoding, parse, parts)
    }

    /// What the host analysis reads of this report.
    pub fn subject(&self) -> crate::inspect::Subject<'_> {
        crate::inspect::Subject {
            input: &self.input,
            url: self.url.as_ref(),
            errors: &self.errors,
            host_span: self.host_span,
            has_base: self.base.is_some(),
            label_table: true,
            forms: true,
        }
    }

    /// The report of one parse, built in one expression from the parse and the `parts` that
    /// derive from it. Inlined into its callers, so that the report (about 1.7 KB) is built
    /// where they return it rather than copied there: a batch makes one per line.
    #[inline(always)]
    fn assemble(
        input: &str,
        base_url: Option<Url>,
        encoding: &'static Encoding,
        parse: Parse,
        parts: Parts,
    ) -> Report {
        let Parse {
            result,
            errors,
            host_span,
            trace,
        } = parse;
        let failure = match &result {
            Err(e) => e.cause().and_then(|cause| {
                crate::validation::Failure::of_host(input, cause, host_span, base_url.as_ref())
            }),
            Ok(_) => None,
        };
        let (outcome, url) = match result {
            Ok(url) => (
                Outcome::Parsed {
                    components: parts.components.then(|| Box::new(Components::of(&url))),
                },
                Some(url),
            ),
            Err(e) => (
                Outcome::Failure {
                    cause: e.cause().cloned(),
                },
                None,
            ),
        };
        Report {
            input: input.to_owned(),
            base: base_url.as_ref().map(|u| u.href().to_owned()),
            encoding: encoding.output_encoding().name(),
            // Built in place: `bool::then` and `flatten` moved the analysis twice more.
            host_analysis: if parts.host_analysis {
                crate::inspect::analyse(&crate::inspect::Subject {
                    input,
                    url: url.as_ref(),
                    errors: &errors,
                    host_span,
                    has_base: base_url.is_some(),
                    label_table: parts.host_labels,
                    forms: parts.host_forms,
                })
            } else {
                None
            },
            outcome,
            errors,
            failure,
            base_errors: Vec::new(),
            trace,
            host_span,
            writing: if parts.writing {
                writing::check(input, base_url.as_ref())
            } else {
                Writing {
                    valid: false,
                    production_path: Vec::new(),
                    position: None,
                    expected: None,
                }
            },
            resolutions: match (&base_url, parts.resolutions) {
                (Some(base), true) => resolve_references(base),
                _ => Vec::new(),
            },
            url,
            base_url,
            parts,
            after_setters: false,
        }
    }

    /// The report of `url`, the URL that URL API setters made of this report's URL. A setter
    /// takes a value, not an input: the URL it makes was never parsed from a string of its own.
    /// So the report reads it from its href, parsed again without a base: its validation errors
    /// (spans in code points of the href), the host's span, the writing grammar's verdict and
    /// the host analysis are all of that URL, never of the URL before the setters. The input,
    /// the base, the encoding and the relative references stay (they say where it came from);
    /// the trace, of the input's parse, goes. When the href is this report's, the URL is the one
    /// the input parsed to, and this report already describes it.
    pub fn after_setters(self, url: Url) -> Report {
        if self.url.as_ref().is_some_and(|u| u.href() == url.href()) {
            return self;
        }
        let href = url.href().to_owned();
        let mut collector = ErrorCollector::default();
        // A serialized URL is ASCII (the serializer percent-encodes the rest), so the query
        // encoding cannot change how it reads.
        let _ = Url::parse_with(&href, None, UTF_8, &mut collector);
        let parse = Parse {
            result: Ok(url),
            host_span: collector.host_span(&href),
            errors: collector.into_errors(&href),
            trace: None,
        };
        let parts = Parts {
            resolutions: false,
            ..self.parts
        };
        Report {
            input: self.input,
            base: self.base,
            encoding: self.encoding,
            resolutions: self.resolutions,
            base_url: self.base_url,
            after_setters: true,
            ..Self::assemble(&href, None, UTF_8, parse, parts)
        }
    }

    /// The string that the validation errors' spans, [`Report::host_span`], the writing
    /// grammar's position and the host analysis's spans index: the input, or after setters the
    /// href they made.
    pub fn spans_in(&self) -> &str {
        match (&self.url, self.after_setters) {
            (Some(url), true) => url.href(),
            _ => &self.input,
        }
    }

    /// The components, when the input parsed.
    pub fn components(&self) -> Option<&Components> {
        match &self.outcome {
            Outcome::Parsed { components } => components.as_deref(),
            _ => None,
        }
    }

    /// Why the input is not a URL, when it is not (and its base is): the one answer every
    /// surface gives, with the failing step, its span, its explanation and its fix.
    pub fn not_a_url(&self) -> Option<crate::validation::NotAUrl> {
        match &self.outcome {
            Outcome::Failure { cause } => Some(crate::validation::NotAUrl::new(
                &self.input,
                self.failure.as_ref(),
                cause.as_ref(),
                &self.errors,
            )),
            _ => None,
        }
    }

    /// Whether the input parsed.
    pub fn parsed(&self) -> bool {
        self.url.is_some()
    }

    /// Valid in the parser's sense: parsed, with no validation error.
    pub fn valid(&self) -> bool {
        self.parsed() && self.errors.is_empty()
    }
}
