//! The basic URL parser (URL Standard: 4.4 URL parsing).

use encoding_rs::{Encoding, UTF_8};
use std::ops::Range;

use crate::trace::{BufferOp, Change, PointerMove, Tracer};
use crate::url::code_points::{
    is_double_dot, is_normalized_windows_drive_letter, is_single_dot, is_url_code_point,
    is_windows_drive_letter, starts_with_windows_drive_letter,
};
use crate::url::host::parse_host;
use crate::url::input::Input;
use crate::url::percent::{self, starts_with_percent_encoded_byte};
use crate::url::record::{default_port, is_special_scheme, Host, Path, UrlRecord};
use crate::url::sink::{Raise, Sink};
use crate::url::state::{Phase, State};
use crate::validation::ValidationErrorKind;
use ValidationErrorKind as E;

/// The basic URL parser returned failure. `cause` is the last validation error raised before
/// it (kind, byte span of the original input, phase); it is `None` only for the failures the
/// standard reserves for setters (state override), which raise no validation error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Failure {
    pub cause: Option<(ValidationErrorKind, Range<usize>, Phase)>,
}

/// Byte offset that stands for the standard's pointer value −1 ("points nowhere").
const NOWHERE: usize = usize::MAX;

/// Which of the checks shared by the path, opaque path, query and fragment states c fails.
enum UrlUnit {
    /// "If c is not a URL code point and not U+0025 (%), invalid-URL-unit validation error."
    NotAUrlCodePoint,
    /// "If c is U+0025 (%) and remaining does not start with two ASCII hex digits,
    /// invalid-URL-unit validation error."
    PercentWithoutHexDigits,
}

/// What a state tells the loop to do next.
enum Flow {
    Continue,
    /// The standard's "return" (only with a state override, or at the end).
    Return,
    /// The standard's "return failure".
    Failure,
}

/// URL Standard: basic URL parser.
///
/// Without a state override this parses a new URL into `url` (which must be a new, empty
/// record). With one, it edits `url` in place, as the URL API's setters do; "return" without
/// failure is `Ok(())`.
pub(crate) fn basic_parse<T: Tracer>(
    original: &str,
    base: Option<&UrlRecord>,
    encoding: &'static Encoding,
    url: &mut UrlRecord,
    state_override: Option<State>,
    tracer: &mut T,
) -> Result<(), Failure> {
    // URL Standard: basic URL parser, step 1 ("if url is not given"; only setters give one,
    // and they always give a state override too).
    let trim = state_override.is_none();
    let input = Input::new(original, trim);
    let mut last_error = None;
    if T::ENABLED {
        tracer.begin(original.len());
    }
    if trim {
        if T::ENABLED {
            tracer.begin_step(Phase::TrimControlOrSpace, 0, None);
            tracer.spec_step("1.2: leading or trailing C0 control or space?");
        }
        let (leading, trailing) = input.trimmed();
        let span = if !leading.is_empty() {
            leading
        } else {
            trailing
        };
        if !span.is_empty() {
            tracer.validation_error(E::InvalidUrlUnit, span.clone(), Phase::TrimControlOrSpace);
            last_error = Some((E::InvalidUrlUnit, span, Phase::TrimControlOrSpace));
        }
        if T::ENABLED {
            tracer.spec_step("1.3: remove them");
        }
    }
    // URL Standard: basic URL parser, steps 2 and 3.
    if T::ENABLED {
        tracer.begin_step(Phase::RemoveTabOrNewline, input.original_offset(0), None);
        tracer.spec_step("2: any ASCII tab or newline?");
    }
    if let Some(&first) = input.removed_tabs_and_newlines().first() {
        tracer.validation_error(
            E::InvalidUrlUnit,
            first..first + 1,
            Phase::RemoveTabOrNewline,
        );
        last_error = Some((
            E::InvalidUrlUnit,
            first..first + 1,
            Phase::RemoveTabOrNewline,
        ));
    }
    if T::ENABLED {
        tracer.spec_step("3: remove them");
    }

    let processed = input.processed();
    let mut parser = Parser {
        input: processed,
        bytes: processed.as_bytes(),
        sink: Sink {
            tracer,
            input: &input,
            phase: Phase::RemoveTabOrNewline,
            last_error,
        },
        base,
        // URL Standard: basic URL parser, step 5.
        encoding: percent::output_encoding(encoding),
        url,
        state_override,
        // URL Standard: basic URL parser, step 4.
        state: state_override.unwrap_or(State::SchemeStart),
        buffer: String::new(),
        at_sign_seen: false,
        inside_brackets: false,
        password_token_seen: false,
        pointer: 0,
    };
    let result = parser.run();
    let failed = result.is_err();
    if T::ENABLED {
        parser.sink.tracer.end(failed);
    }
    result
}

struct Parser<'a, 'i, 't, T: Tracer> {
    input: &'a str,
    bytes: &'a [u8],
    sink: Sink<'i, 't, T>,
    base: Option<&'a UrlRecord>,
    encoding: &'static Encoding,
    url: &'a mut UrlRecord,
    state_override: Option<State>,
    state: State,
    buffer: String,
    at_sign_seen: bool,
    inside_brackets: bool,
    password_token_seen: bool,
    /// Byte offset into `input`, or `NOWHERE`.
    pointer: usize,
}

/// Cites the step of the standard the parser takes: every step that changes the state, returns,
/// raises a validation error, or edits the record or the buffer, cited when it is taken, in
/// the standard's order, so that the last one cited is the step that decided (`tests/
/// spec_steps.rs` checks this against the standard's text). Two kinds are not cited: steps
/// that only set the buffer to the empty string once the step before has used it, and steps
/// that only move the pointer; the step they belong with says what happened.
macro_rules! spec {
    ($self:ident, $text:literal) => {
        if T::ENABLED {
            $self.sink.tracer.spec_step($text);
        }
    };
}

macro_rules! change {
    ($self:ident, $change:expr) => {
        if T::ENABLED {
            $self.sink.tracer.change($change);
        }
    };
}

impl<T: Tracer> Parser<'_, '_, '_, T> {
    /// URL Standard: basic URL parser, step 9: the state machine loop.
    fn run(&mut self) -> Result<(), Failure> {
        loop {
            let c = self.c();
            self.sink.phase = Phase::State(self.state);
            if T::ENABLED {
                let at = self.sink.input.original_offset(self.pointer);
                self.sink.tracer.begin_step(Phase::State(self.state), at, c);
            }
            let flow = match self.state {
                State::SchemeStart => self.scheme_start(c),
                State::Scheme => self.scheme(c),
                State::NoScheme => self.no_scheme(c),
                State::SpecialRelativeOrAuthority => self.special_relative_or_authority(c),
                State::PathOrAuthority => self.path_or_authority(c),
                State::Relative => self.relative(c),
                State::RelativeSlash => self.relative_slash(c),
                State::SpecialAuthoritySlashes => self.special_authority_slashes(c),
                State::SpecialAuthorityIgnoreSlashes => self.special_authority_ignore_slashes(c),
                State::Authority => self.authority(c),
                State::Host | State::Hostname => self.host(c),
                State::Port => self.port(c),
                State::File => self.file(c),
                State::FileSlash => self.file_slash(c),
                State::FileHost => self.file_host(c),
                State::PathStart => self.path_start(c),
                State::Path => self.path(c),
                State::OpaquePath => self.opaque_path(c),
                State::Query => self.query(c),
                State::Fragment => self.fragment(c),
            };
            match flow {
                Flow::Continue => {}
                Flow::Return => return Ok(()),
                Flow::Failure => {
                    return Err(Failure {
                        cause: self.sink.last_error.clone(),
                    })
                }
            }
            // "If after a run pointer points to the EOF code point, go to the next step.
            // Otherwise, increase pointer by 1 and continue with the state machine."
            if self.pointer == NOWHERE {
                self.pointer = 0;
            } else if self.pointer >= self.bytes.len() {
                return Ok(());
            } else {
                self.pointer += utf8_len(self.bytes[self.pointer]);
            }
        }
    }

    // --- pointer, c, remaining ---------------------------------------------------------------

    /// c: the code point the pointer points to, or `None` for the EOF code point.
    #[inline]
    fn c(&self) -> Option<char> {
        let b = *self.bytes.get(self.pointer)?;
        if b < 0x80 {
            Some(b as char)
        } else {
            self.input[self.pointer..].chars().next()
        }
    }

    /// The byte length of c (0 at EOF).
    #[inline]
    fn c_len(&self) -> usize {
        self.bytes.get(self.pointer).map_or(0, |&b| utf8_len(b))
    }

    /// remaining: the substring after c.
    #[inline]
    fn remaining(&self) -> &str {
        &self.input[(self.pointer + self.c_len()).min(self.input.len())..]
    }

    /// The byte span of c in the processed input (empty at EOF).
    #[inline]
    fn c_span(&self) -> Range<usize> {
        self.pointer..self.pointer + self.c_len()
    }

    fn decrease_pointer(&mut self) {
        self.pointer = self.before(self.pointer);
        if T::ENABLED {
            self.sink.tracer.pointer(PointerMove::Decrease(1));
        }
    }

    /// The byte offset one code point before `at`, or `NOWHERE`.
    fn before(&self, at: usize) -> usize {
        if at == 0 {
            return NOWHERE;
        }
        let mut p = at - 1;
        while p > 0 && !self.input.is_char_boundary(p) {
            p -= 1;
        }
        p
    }

    fn increase_pointer(&mut self) {
        self.pointer += self.c_len();
        if T::ENABLED {
            self.sink.tracer.pointer(PointerMove::Increase(1));
        }
    }

    fn set_state(&mut self, state: State) {
        self.state = state;
        if T::ENABLED {
            self.sink.tracer.set_state(state);
        }
    }

    fn error(&mut self, kind: ValidationErrorKind) {
        let span = self.c_span();
        self.sink.error(kind, span);
    }

    /// URL Standard: the two checks shared by the path, opaque path, query and fragment states,
    /// each an invalid-URL-unit validation error: which one c fails, if any. The state cites its
    /// own number for the step and raises the error.
    #[inline]
    fn url_unit_check(&self, c: char) -> Option<UrlUnit> {
        if c == '%' {
            (!starts_with_percent_encoded_byte(&self.bytes[self.pointer..]))
                .then_some(UrlUnit::PercentWithoutHexDigits)
        } else {
            (!is_url_code_point(c)).then_some(UrlUnit::NotAUrlCodePoint)
        }
    }

    // --- buffer ------------------------------------------------------------------------------

    fn buffer_push(&mut self, c: char) {
        self.buffer.push(c);
        if T::ENABLED {
            let n = c.len_utf8();
            let pushed = &self.buffer[self.buffer.len() - n..];
            self.sink.tracer.buffer(BufferOp::Push(pushed));
        }
    }

    fn buffer_clear(&mut self) {
        self.buffer.clear();
        if T::ENABLED {
            self.sink.tracer.buffer(BufferOp::Clear);
        }
    }

    // --- record edits ------------------------------------------------------------------------

    fn is_special(&self) -> bool {
        self.url.is_special()
    }

    fn set_host(&mut self, host: Option<Host>) {
        self.url.host = host;
        change!(self, Change::Host(self.url.host.as_ref()));
    }

    fn set_query(&mut self, query: Option<&str>) {
        match query {
            Some(q) => {
                let target = self.url.query.get_or_insert_with(String::new);
                target.clear();
                target.push_str(q);
            }
            None => self.url.query = None,
        }
        change!(self, Change::Query(self.url.query.as_deref()));
    }

    fn set_fragment_empty(&mut self) {
        self.url.fragment = Some(String::new());
        change!(self, Change::Fragment(Some("")));
    }

    fn shorten_path(&mut self) {
        self.url.shorten_path();
        change!(self, Change::PathShorten);
    }

    fn path_push(&mut self, segment: String) {
        if let Path::List(path) = &mut self.url.path {
            path.push(segment);
            if T::ENABLED {
                if let Some(last) = path.last() {
                    self.sink.tracer.change(Change::PathPush(last));
                }
            }
        }
    }

    fn set_path(&mut self, path: Path) {
        self.url.path = path;
        change!(self, Change::Path(&self.url.path));
    }

    /// Copies the base's username, password, host and port (the relative and relative slash
    /// states).
    fn copy_base_authority(&mut self, base: &UrlRecord) {
        self.url.username.clone_from(&base.username);
        self.url.password.clone_from(&base.password);
        change!(self, Change::Username(&self.url.username));
        change!(self, Change::Password(&self.url.password));
        self.set_host(base.host.clone());
        self.url.port = base.port;
        change!(self, Change::Port(self.url.port));
    }

    /// Runs the host parser on the buffer, which holds exactly the input's code points from
    /// `pointer - buffer.len()` (used to locate host errors).
    fn parse_buffer_as_host(&mut self, end: usize) -> Result<Host, ()> {
        let start = end - self.buffer.len();
        let span = self.sink.input.original_range(start..end);
        self.sink.tracer.host_input(span);
        let is_opaque = !self.is_special();
        let buffer = std::mem::take(&mut self.buffer);
        let result = parse_host(&mut self.sink, &buffer, start, is_opaque);
        self.buffer = buffer;
        result
    }

    // --- the states --------------------------------------------------------------------------

    /// URL Standard: scheme start state.
    fn scheme_start(&mut self, c: Option<char>) -> Flow {
        match c {
            Some(c) if c.is_ascii_alphabetic() => {
                spec!(self, "1: c is an ASCII alpha");
                self.buffer_push(c.to_ascii_lowercase());
                self.set_state(State::Scheme);
            }
            _ if self.state_override.is_none() => {
                spec!(self, "2: no state override");
                self.set_state(State::NoScheme);
                self.decrease_pointer();
            }
            _ => {
                spec!(self, "3: return failure");
                return Flow::Failure;
            }
        }
        Flow::Continue
    }

    /// URL Standard: scheme state.
    fn scheme(&mut self, c: Option<char>) -> Flow {
        match c {
            Some(c) if c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.') => {
                spec!(self, "1: scheme code point");
                self.buffer_push(c.to_ascii_lowercase());
            }
            Some(':') => {
                spec!(self, "2: c is \":\"");
                if self.state_override.is_some() {
                    let url_special = self.is_special();
                    let buffer_special = is_special_scheme(&self.buffer);
                    if url_special && !buffer_special {
                        spec!(self, "2.1.1: special scheme to non-special: return");
                        return Flow::Return;
                    }
                    if !url_special && buffer_special {
                        spec!(self, "2.1.2: non-special scheme to special: return");
                        return Flow::Return;
                    }
                    if (self.url.includes_credentials() || self.url.port.is_some())
                        && self.buffer == "file"
                    {
                        spec!(self, "2.1.3: credentials or port, and \"file\": return");
                        return Flow::Return;
                    }
                    if self.url.scheme == "file" && matches!(self.url.host, Some(Host::Empty)) {
                        spec!(self, "2.1.4: file URL with empty host: return");
                        return Flow::Return;
                    }
                }
                spec!(self, "2.2: set url's scheme to buffer");
                self.url.scheme.clone_from(&self.buffer);
                change!(self, Change::Scheme(&self.url.scheme));
                if self.state_override.is_some() {
                    if self.url.port.is_some() && self.url.port == default_port(&self.url.scheme) {
                        spec!(self, "2.3.1: port is the default port: set it to null");
                        self.url.port = None;
                        change!(self, Change::Port(None));
                    }
                    spec!(self, "2.3.2: return");
                    return Flow::Return;
                }
                self.buffer_clear();
                if self.url.scheme == "file" {
                    spec!(self, "2.5: scheme is \"file\"");
                    if !self.remaining().starts_with("//") {
                        spec!(self, "2.5.1: no \"//\" follows");
                        let at = self.pointer + 1;
                        let end = at
                            + self
                                .remaining()
                                .chars()
                                .take(2)
                                .map(char::len_utf8)
                                .sum::<usize>();
                        self.sink
                            .error(E::SpecialSchemeMissingFollowingSolidus, at..end);
                    }
                    spec!(self, "2.5.2: file state");
                    self.set_state(State::File);
                } else if self.is_special()
                    && self.base.is_some_and(|base| base.scheme == self.url.scheme)
                {
                    spec!(self, "2.6: special, and base has the same scheme");
                    spec!(self, "2.6.2: special relative or authority state");
                    self.set_state(State::SpecialRelativeOrAuthority);
                } else if self.is_special() {
                    spec!(self, "2.7: special");
                    self.set_state(State::SpecialAuthoritySlashes);
                } else if self.remaining().starts_with('/') {
                    spec!(self, "2.8: remaining starts with \"/\"");
                    self.set_state(State::PathOrAuthority);
                    self.increase_pointer();
                } else {
                    spec!(self, "2.9: opaque path");
                    self.set_path(Path::Opaque(String::new()));
                    self.set_state(State::OpaquePath);
                }
            }
            _ if self.state_override.is_none() => {
                spec!(self, "3: not a scheme: start over in no scheme state");
                self.buffer_clear();
                self.set_state(State::NoScheme);
                self.pointer = NOWHERE;
                if T::ENABLED {
                    self.sink.tracer.pointer(PointerMove::StartOver);
                }
            }
            _ => {
                spec!(self, "4: return failure");
                return Flow::Failure;
            }
        }
        Flow::Continue
    }

    /// URL Standard: no scheme state.
    fn no_scheme(&mut self, c: Option<char>) -> Flow {
        let base = match self.base {
            Some(base) if !(base.has_opaque_path() && c != Some('#')) => base,
            _ => {
                spec!(
                    self,
                    "1: no base, or an opaque-path base and c is not \"#\""
                );
                self.sink
                    .error(E::MissingSchemeNonRelativeUrl, 0..self.input.len());
                return Flow::Failure;
            }
        };
        if base.has_opaque_path() {
            spec!(self, "2: opaque-path base and c is \"#\"");
            self.url.scheme.clone_from(&base.scheme);
            change!(self, Change::Scheme(&self.url.scheme));
            self.set_path(base.path.clone());
            self.set_query(base.query.as_deref());
            self.set_fragment_empty();
            self.set_state(State::Fragment);
        } else if base.scheme != "file" {
            spec!(self, "3: base is not file");
            self.set_state(State::Relative);
            self.decrease_pointer();
        } else {
            spec!(self, "4: base is file");
            self.set_state(State::File);
            self.decrease_pointer();
        }
        Flow::Continue
    }

    /// URL Standard: special relative or authority state.
    fn special_relative_or_authority(&mut self, c: Option<char>) -> Flow {
        if c == Some('/') && self.remaining().starts_with('/') {
            spec!(self, "1: c and remaining start with \"//\"");
            self.set_state(State::SpecialAuthorityIgnoreSlashes);
            self.increase_pointer();
        } else {
            spec!(self, "2: otherwise: relative");
            self.error(E::SpecialSchemeMissingFollowingSolidus);
            self.set_state(State::Relative);
            self.decrease_pointer();
        }
        Flow::Continue
    }

    /// URL Standard: path or authority state.
    fn path_or_authority(&mut self, c: Option<char>) -> Flow {
        if c == Some('/') {
            spec!(self, "1: c is \"/\"");
            self.set_state(State::Authority);
        } else {
            spec!(self, "2: otherwise: path");
            self.set_state(State::Path);
            self.decrease_pointer();
        }
        Flow::Continue
    }

    /// URL Standard: relative state.
    fn relative(&mut self, c: Option<char>) -> Flow {
        let Some(base) = self.base else {
            // Unreachable: the no scheme and special relative or authority states only enter
            // this state with a base.
            return Flow::Failure;
        };
        debug_assert_ne!(base.scheme, "file");
        spec!(self, "2: set url's scheme to base's scheme");
        self.url.scheme.clone_from(&base.scheme);
        change!(self, Change::Scheme(&self.url.scheme));
        if c == Some('/') {
            spec!(self, "3: c is \"/\"");
            self.set_state(State::RelativeSlash);
        } else if self.is_special() && c == Some('\\') {
            spec!(self, "4: special and c is \"\\\"");
            self.error(E::InvalidReverseSolidus);
            self.set_state(State::RelativeSlash);
        } else {
            spec!(
                self,
                "5.1: copy base's userinfo, host, port, path and query"
            );
            self.copy_base_authority(base);
            self.set_path(base.path.clone());
            self.set_query(base.query.as_deref());
            match c {
                Some('?') => {
                    spec!(self, "5.2: c is \"?\"");
                    self.set_query(Some(""));
                    self.set_state(State::Query);
                }
                Some('#') => {
                    spec!(self, "5.3: c is \"#\"");
                    self.set_fragment_empty();
                    self.set_state(State::Fragment);
                }
                Some(_) => {
                    spec!(self, "5.4: c is not the EOF code point");
                    spec!(self, "5.4.1: query is null");
                    self.set_query(None);
                    spec!(self, "5.4.2: shorten path");
                    self.shorten_path();
                    spec!(self, "5.4.3: path state");
                    self.set_state(State::Path);
                    self.decrease_pointer();
                }
                None => {}
            }
        }
        Flow::Continue
    }

    /// URL Standard: relative slash state.
    fn relative_slash(&mut self, c: Option<char>) -> Flow {
        if self.is_special() && matches!(c, Some('/' | '\\')) {
            spec!(self, "1: special and c is \"/\" or \"\\\"");
            if c == Some('\\') {
                spec!(self, "1.1: c is \"\\\"");
                self.error(E::InvalidReverseSolidus);
            }
            spec!(self, "1.2: special authority ignore slashes state");
            self.set_state(State::SpecialAuthorityIgnoreSlashes);
        } else if c == Some('/') {
            spec!(self, "2: c is \"/\"");
            self.set_state(State::Authority);
        } else {
            spec!(self, "3: copy base's userinfo, host and port");
            if let Some(base) = self.base {
                self.copy_base_authority(base);
            }
            self.set_state(State::Path);
            self.decrease_pointer();
        }
        Flow::Continue
    }

    /// URL Standard: special authority slashes state.
    fn special_authority_slashes(&mut self, c: Option<char>) -> Flow {
        if c == Some('/') && self.remaining().starts_with('/') {
            spec!(self, "1: c and remaining start with \"//\"");
            self.set_state(State::SpecialAuthorityIgnoreSlashes);
            self.increase_pointer();
        } else {
            spec!(self, "2: otherwise");
            self.error(E::SpecialSchemeMissingFollowingSolidus);
            self.set_state(State::SpecialAuthorityIgnoreSlashes);
            self.decrease_pointer();
        }
        Flow::Continue
    }

    /// URL Standard: special authority ignore slashes state.
    fn special_authority_ignore_slashes(&mut self, c: Option<char>) -> Flow {
        if !matches!(c, Some('/' | '\\')) {
            spec!(self, "1: c is neither \"/\" nor \"\\\"");
            self.set_state(State::Authority);
            self.decrease_pointer();
        } else {
            spec!(self, "2: another slash");
            self.error(E::SpecialSchemeMissingFollowingSolidus);
        }
        Flow::Continue
    }

    /// URL Standard: authority state.
    fn authority(&mut self, c: Option<char>) -> Flow {
        let ends_authority = match c {
            None | Some('/' | '?' | '#') => true,
            Some('\\') => self.is_special(),
            _ => false,
        };
        if c == Some('@') {
            spec!(self, "1: c is \"@\"");
            spec!(self, "1.1: invalid-credentials");
            let start = self.pointer - self.buffer.len();
            self.sink
                .error(E::InvalidCredentials, start..self.pointer + 1);
            if self.at_sign_seen {
                spec!(self, "1.2: a second \"@\": prepend \"%40\" to buffer");
                self.buffer.insert_str(0, "%40");
                if T::ENABLED {
                    self.sink.tracer.buffer(BufferOp::Prepend("%40"));
                }
            }
            self.at_sign_seen = true;
            spec!(
                self,
                "1.4: percent-encode buffer into username and password"
            );
            let mut username = String::new();
            let mut password = String::new();
            for code_point in self.buffer.chars() {
                if code_point == ':' && !self.password_token_seen {
                    self.password_token_seen = true;
                    continue;
                }
                let target = if self.password_token_seen {
                    &mut password
                } else {
                    &mut username
                };
                percent::utf8_percent_encode_char(code_point, percent::USERINFO, target);
            }
            // The code points before the first ":" come first, so the username's appends do.
            if !username.is_empty() {
                spec!(self, "1.4.4: append to url's username");
                self.url.username.push_str(&username);
                change!(self, Change::UsernameAppend(&username));
            }
            if !password.is_empty() {
                spec!(self, "1.4.3: append to url's password");
                self.url.password.push_str(&password);
                change!(self, Change::PasswordAppend(&password));
            }
            self.buffer_clear();
        } else if ends_authority {
            spec!(self, "2: end of authority");
            if self.at_sign_seen && self.buffer.is_empty() {
                spec!(self, "2.1: credentials but no host: return failure");
                self.error(E::HostMissing);
                return Flow::Failure;
            }
            // "Decrease pointer by buffer's code point length + 1": the buffer holds exactly the
            // input's code points since the last "@" (or the authority's start).
            let moved = self.buffer.chars().count() + 1;
            self.pointer = self.before(self.pointer - self.buffer.len());
            spec!(self, "2.2: back to the host's start, host state");
            if T::ENABLED {
                self.sink.tracer.pointer(PointerMove::Decrease(moved));
            }
            self.buffer_clear();
            self.set_state(State::Host);
        } else if let Some(c) = c {
            spec!(self, "3: append c to buffer");
            self.buffer_push(c);
        }
        Flow::Continue
    }

    /// URL Standard: host state and hostname state.
    fn host(&mut self, c: Option<char>) -> Flow {
        if self.state_override.is_some() && self.url.scheme == "file" {
            spec!(self, "1: state override and file: file host state");
            self.decrease_pointer();
            self.set_state(State::FileHost);
            return Flow::Continue;
        }
        let ends_host = match c {
            None | Some('/' | '?' | '#') => true,
            Some('\\') => self.is_special(),
            _ => false,
        };
        if c == Some(':') && !self.inside_brackets {
            spec!(self, "2: c is \":\" outside brackets");
            if self.buffer.is_empty() {
                spec!(self, "2.1: empty host: return failure");
                self.error(E::HostMissing);
                return Flow::Failure;
            }
            if self.state_override == Some(State::Hostname) {
                spec!(self, "2.2: hostname state override: return failure");
                return Flow::Failure;
            }
            spec!(self, "2.3: host parse buffer");
            let Ok(host) = self.parse_buffer_as_host(self.pointer) else {
                spec!(self, "2.4: host is failure: return failure");
                return Flow::Failure;
            };
            spec!(self, "2.5: set url's host, port state");
            self.set_host(Some(host));
            self.buffer_clear();
            self.set_state(State::Port);
        } else if ends_host {
            spec!(self, "3: end of host");
            let end = self.pointer;
            self.decrease_pointer();
            if self.is_special() && self.buffer.is_empty() {
                spec!(self, "3.1: special URL with an empty host: return failure");
                self.sink.error(E::HostMissing, end..end);
                return Flow::Failure;
            }
            if self.state_override.is_some()
                && self.buffer.is_empty()
                && (self.url.includes_credentials() || self.url.port.is_some())
            {
                spec!(
                    self,
                    "3.2: empty host with credentials or port: return failure"
                );
                return Flow::Failure;
            }
            spec!(self, "3.3: host parse buffer");
            let Ok(host) = self.parse_buffer_as_host(end) else {
                spec!(self, "3.4: host is failure: return failure");
                return Flow::Failure;
            };
            spec!(self, "3.5: set url's host, path start state");
            self.set_host(Some(host));
            self.buffer_clear();
            self.set_state(State::PathStart);
            if self.state_override.is_some() {
                spec!(self, "3.6: state override: return");
                return Flow::Return;
            }
        } else if let Some(c) = c {
            spec!(self, "4: otherwise");
            if c == '[' {
                spec!(self, "4.1: c is \"[\": insideBrackets is true");
                self.inside_brackets = true;
            }
            if c == ']' {
                spec!(self, "4.2: c is \"]\": insideBrackets is false");
                self.inside_brackets = false;
            }
            spec!(self, "4.3: append c to buffer");
            self.buffer_push(c);
        }
        Flow::Continue
    }

    /// URL Standard: port state.
    fn port(&mut self, c: Option<char>) -> Flow {
        let ends_port = match c {
            None | Some('/' | '?' | '#') => true,
            // Step 2: "url is special and c is U+005C (\), or state override is given".
            Some('\\') => self.is_special() || self.state_override.is_some(),
            _ => self.state_override.is_some(),
        };
        match c {
            Some(digit @ '0'..='9') => {
                spec!(self, "1: ASCII digit");
                self.buffer_push(digit);
            }
            _ if ends_port => {
                spec!(self, "2: end of port");
                if !self.buffer.is_empty() {
                    let start = self.pointer - self.buffer.len();
                    let port = self
                        .buffer
                        .bytes()
                        .try_fold(0u32, |n, d| {
                            n.checked_mul(10)?.checked_add(u32::from(d - b'0'))
                        })
                        .and_then(|n| u16::try_from(n).ok());
                    let Some(port) = port else {
                        spec!(self, "2.1.2: not a 16-bit unsigned integer: return failure");
                        self.sink.error(E::PortOutOfRange, start..self.pointer);
                        return Flow::Failure;
                    };
                    spec!(self, "2.1.3: set url's port (null if the default port)");
                    self.url.port = if default_port(&self.url.scheme) == Some(port) {
                        None
                    } else {
                        Some(port)
                    };
                    change!(self, Change::Port(self.url.port));
                    self.buffer_clear();
                    if self.state_override.is_some() {
                        spec!(self, "2.1.5: state override: return");
                        return Flow::Return;
                    }
                }
                if self.state_override.is_some() {
                    spec!(self, "2.2: state override: return failure");
                    return Flow::Failure;
                }
                spec!(self, "2.3: path start state");
                self.set_state(State::PathStart);
                self.decrease_pointer();
            }
            _ => {
                spec!(self, "3: not a digit: return failure");
                self.error(E::PortInvalid);
                return Flow::Failure;
            }
        }
        Flow::Continue
    }

    /// URL Standard: file state.
    fn file(&mut self, c: Option<char>) -> Flow {
        spec!(self, "1-2: scheme \"file\", empty host");
        if self.url.scheme != "file" {
            self.url.scheme.clear();
            self.url.scheme.push_str("file");
            change!(self, Change::Scheme("file"));
        }
        self.set_host(Some(Host::Empty));
        let base = self.base.filter(|base| base.scheme == "file");
        if matches!(c, Some('/' | '\\')) {
            spec!(self, "3: c is \"/\" or \"\\\"");
            if c == Some('\\') {
                spec!(self, "3.1: c is \"\\\"");
                self.error(E::InvalidReverseSolidus);
            }
            spec!(self, "3.2: file slash state");
            self.set_state(State::FileSlash);
        } else if let Some(base) = base {
            spec!(self, "4.1: copy base's host, path and query");
            self.set_host(base.host.clone());
            self.set_path(base.path.clone());
            self.set_query(base.query.as_deref());
            match c {
                Some('?') => {
                    spec!(self, "4.2: c is \"?\"");
                    self.set_query(Some(""));
                    self.set_state(State::Query);
                }
                Some('#') => {
                    spec!(self, "4.3: c is \"#\"");
                    self.set_fragment_empty();
                    self.set_state(State::Fragment);
                }
                Some(_) => {
                    spec!(self, "4.4: c is not the EOF code point");
                    spec!(self, "4.4.1: query is null");
                    self.set_query(None);
                    if !starts_with_windows_drive_letter(&self.input[self.pointer..]) {
                        spec!(self, "4.4.2: shorten path");
                        self.shorten_path();
                    } else {
                        spec!(self, "4.4.3: starts with a Windows drive letter");
                        spec!(self, "4.4.3.1: file-invalid-Windows-drive-letter");
                        // Both code points of a drive letter are ASCII.
                        let drive = self.pointer..self.pointer + 2;
                        self.sink.error(E::FileInvalidWindowsDriveLetter, drive);
                        spec!(self, "4.4.3.2: path = « »");
                        self.set_path(Path::List(Vec::new()));
                    }
                    spec!(self, "4.4.4: path state");
                    self.set_state(State::Path);
                    self.decrease_pointer();
                }
                None => {}
            }
        } else {
            spec!(self, "5: otherwise: path state");
            self.set_state(State::Path);
            self.decrease_pointer();
        }
        Flow::Continue
    }

    /// URL Standard: file slash state.
    fn file_slash(&mut self, c: Option<char>) -> Flow {
        if matches!(c, Some('/' | '\\')) {
            spec!(self, "1: c is \"/\" or \"\\\"");
            if c == Some('\\') {
                spec!(self, "1.1: c is \"\\\"");
                self.error(E::InvalidReverseSolidus);
            }
            spec!(self, "1.2: file host state");
            self.set_state(State::FileHost);
        } else {
            spec!(self, "2: otherwise");
            if let Some(base) = self.base.filter(|base| base.scheme == "file") {
                spec!(self, "2.1: base is a file URL");
                spec!(self, "2.1.1: copy base's host");
                self.set_host(base.host.clone());
                if !starts_with_windows_drive_letter(&self.input[self.pointer..]) {
                    if let Path::List(base_path) = &base.path {
                        if let Some(first) = base_path
                            .first()
                            .filter(|s| is_normalized_windows_drive_letter(s))
                        {
                            spec!(self, "2.1.2: keep base's drive letter");
                            self.path_push(first.clone());
                        }
                    }
                }
            }
            spec!(self, "2.2: path state");
            self.set_state(State::Path);
            self.decrease_pointer();
        }
        Flow::Continue
    }

    /// URL Standard: file host state.
    fn file_host(&mut self, c: Option<char>) -> Flow {
        if matches!(c, None | Some('/' | '\\' | '?' | '#')) {
            let end = self.pointer;
            self.decrease_pointer();
            if self.state_override.is_none() && is_windows_drive_letter(&self.buffer) {
                spec!(self, "1.1: buffer is a Windows drive letter: path state");
                let start = end - self.buffer.len();
                self.sink
                    .error(E::FileInvalidWindowsDriveLetterHost, start..end);
                self.set_state(State::Path);
            } else if self.buffer.is_empty() {
                spec!(self, "1.2: empty buffer");
                spec!(self, "1.2.1: empty host");
                self.set_host(Some(Host::Empty));
                if self.state_override.is_some() {
                    spec!(self, "1.2.2: state override: return");
                    return Flow::Return;
                }
                spec!(self, "1.2.3: path start state");
                self.set_state(State::PathStart);
            } else {
                spec!(self, "1.3: host parse buffer");
                let Ok(mut host) = self.parse_buffer_as_host(end) else {
                    spec!(self, "1.3.2: host is failure: return failure");
                    return Flow::Failure;
                };
                if matches!(&host, Host::Domain(d) if d == "localhost") {
                    spec!(self, "1.3.3: \"localhost\" becomes the empty host");
                    host = Host::Empty;
                }
                spec!(self, "1.3.4: set url's host");
                self.set_host(Some(host));
                if self.state_override.is_some() {
                    spec!(self, "1.3.5: state override: return");
                    return Flow::Return;
                }
                spec!(self, "1.3.6: path start state");
                self.buffer_clear();
                self.set_state(State::PathStart);
            }
        } else if let Some(c) = c {
            spec!(self, "2: append c to buffer");
            self.buffer_push(c);
        }
        Flow::Continue
    }

    /// URL Standard: path start state.
    fn path_start(&mut self, c: Option<char>) -> Flow {
        if self.is_special() {
            spec!(self, "1: special");
            if c == Some('\\') {
                spec!(self, "1.1: c is \"\\\"");
                self.error(E::InvalidReverseSolidus);
            }
            spec!(self, "1.2: path state");
            self.set_state(State::Path);
            if !matches!(c, Some('/' | '\\')) {
                self.decrease_pointer();
            }
        } else if self.state_override.is_none() && c == Some('?') {
            spec!(self, "2: c is \"?\"");
            self.set_query(Some(""));
            self.set_state(State::Query);
        } else if self.state_override.is_none() && c == Some('#') {
            spec!(self, "3: c is \"#\"");
            self.set_fragment_empty();
            self.set_state(State::Fragment);
        } else if let Some(c) = c {
            spec!(self, "4: c is not the EOF code point");
            spec!(self, "4.1: path state");
            self.set_state(State::Path);
            if c != '/' {
                self.decrease_pointer();
            }
        } else if self.state_override.is_some() && self.url.host.is_none() {
            spec!(
                self,
                "5: state override and null host: append an empty segment"
            );
            self.path_push(String::new());
        } else {
            spec!(self, "4: c is the EOF code point: nothing to do");
        }
        Flow::Continue
    }

    /// URL Standard: path state.
    fn path(&mut self, c: Option<char>) -> Flow {
        let special = self.is_special();
        let slash = c == Some('/') || (special && c == Some('\\'));
        let ends_segment =
            c.is_none() || slash || (self.state_override.is_none() && matches!(c, Some('?' | '#')));
        if ends_segment {
            spec!(self, "1: end of segment");
            if special && c == Some('\\') {
                spec!(self, "1.1: c is \"\\\" in a special URL");
                self.error(E::InvalidReverseSolidus);
            }
            if is_double_dot(&self.buffer) {
                spec!(self, "1.2: double-dot segment");
                spec!(self, "1.2.1: shorten path");
                self.shorten_path();
                if !slash {
                    spec!(self, "1.2.2: not a slash: append an empty segment");
                    self.path_push(String::new());
                }
            } else if is_single_dot(&self.buffer) {
                if !slash {
                    spec!(self, "1.3: single-dot segment at the end");
                    self.path_push(String::new());
                } else {
                    spec!(self, "1.3: single-dot segment: skipped");
                }
            } else {
                if self.url.scheme == "file"
                    && matches!(&self.url.path, Path::List(p) if p.is_empty())
                    && is_windows_drive_letter(&self.buffer)
                {
                    spec!(self, "1.4.1: Windows drive letter quirk");
                    self.buffer.replace_range(1..2, ":");
                    if T::ENABLED {
                        self.sink.tracer.buffer(BufferOp::ReplaceSecondWithColon);
                    }
                }
                spec!(self, "1.4.2: append buffer to url's path");
                let segment = std::mem::take(&mut self.buffer);
                self.path_push(segment);
            }
            self.buffer_clear();
            match c {
                Some('?') => {
                    spec!(self, "1.6: c is \"?\"");
                    self.set_query(Some(""));
                    self.set_state(State::Query);
                }
                Some('#') => {
                    spec!(self, "1.7: c is \"#\"");
                    self.set_fragment_empty();
                    self.set_state(State::Fragment);
                }
                _ => {}
            }
        } else if let Some(c) = c {
            spec!(self, "2: c is part of the segment");
            match self.url_unit_check(c) {
                Some(UrlUnit::NotAUrlCodePoint) => {
                    spec!(self, "2.1: not a URL code point");
                    self.error(E::InvalidUrlUnit);
                }
                Some(UrlUnit::PercentWithoutHexDigits) => {
                    spec!(self, "2.2: \"%\" without two hex digits");
                    self.error(E::InvalidUrlUnit);
                }
                None => {}
            }
            spec!(
                self,
                "2.3: percent-encode c into buffer (path percent-encode set)"
            );
            let before = self.buffer.len();
            percent::utf8_percent_encode_char(c, percent::PATH, &mut self.buffer);
            if T::ENABLED {
                self.sink
                    .tracer
                    .buffer(BufferOp::Push(&self.buffer[before..]));
            }
        }
        Flow::Continue
    }

    /// URL Standard: opaque path state.
    fn opaque_path(&mut self, c: Option<char>) -> Flow {
        match c {
            Some('?') => {
                spec!(self, "1: c is \"?\"");
                self.set_query(Some(""));
                self.set_state(State::Query);
            }
            Some('#') => {
                spec!(self, "2: c is \"#\"");
                self.set_fragment_empty();
                self.set_state(State::Fragment);
            }
            Some(' ') => {
                spec!(self, "3: c is U+0020 SPACE");
                spec!(self, "3.1: invalid-URL-unit");
                self.error(E::InvalidUrlUnit);
                if matches!(self.remaining().as_bytes().first(), Some(b'?' | b'#')) {
                    spec!(self, "3.2: \"?\" or \"#\" follows: append \"%20\"");
                    self.opaque_path_push("%20");
                } else {
                    spec!(self, "3.3: append a space");
                    self.opaque_path_push(" ");
                }
            }
            Some(c) => {
                spec!(self, "4: c is not the EOF code point");
                match self.url_unit_check(c) {
                    Some(UrlUnit::NotAUrlCodePoint) => {
                        spec!(self, "4.1: not a URL code point");
                        self.error(E::InvalidUrlUnit);
                    }
                    Some(UrlUnit::PercentWithoutHexDigits) => {
                        spec!(self, "4.2: \"%\" without two hex digits");
                        self.error(E::InvalidUrlUnit);
                    }
                    None => {}
                }
                spec!(
                    self,
                    "4.3: percent-encode c into the path (C0 control percent-encode set)"
                );
                if let Path::Opaque(path) = &mut self.url.path {
                    let before = path.len();
                    percent::utf8_percent_encode_char(c, percent::C0_CONTROL, path);
                    if T::ENABLED {
                        self.sink
                            .tracer
                            .change(Change::OpaquePathAppend(&path[before..]));
                    }
                }
            }
            None => spec!(self, "4: c is the EOF code point: nothing to do"),
        }
        Flow::Continue
    }

    fn opaque_path_push(&mut self, s: &str) {
        if let Path::Opaque(path) = &mut self.url.path {
            path.push_str(s);
        }
        change!(self, Change::OpaquePathAppend(s));
    }

    /// URL Standard: query state.
    fn query(&mut self, c: Option<char>) -> Flow {
        if self.encoding != UTF_8
            && (!self.is_special() || matches!(&*self.url.scheme, "ws" | "wss"))
        {
            spec!(self, "1: not special, or ws(s): encoding is UTF-8");
            self.encoding = UTF_8;
        }
        if c.is_none() || (self.state_override.is_none() && c == Some('#')) {
            spec!(self, "2: end of query");
            spec!(
                self,
                "2.2: percent-encode buffer after encoding into url's query"
            );
            let set = if self.is_special() {
                percent::SPECIAL_QUERY
            } else {
                percent::QUERY
            };
            let query = self.url.query.get_or_insert_with(String::new);
            let before = query.len();
            percent::percent_encode_after_encoding(self.encoding, &self.buffer, set, false, query);
            if T::ENABLED {
                if let Some(query) = &self.url.query {
                    self.sink
                        .tracer
                        .change(Change::QueryAppend(&query[before..]));
                }
            }
            self.buffer_clear();
            if c == Some('#') {
                spec!(self, "2.4: c is \"#\"");
                self.set_fragment_empty();
                self.set_state(State::Fragment);
            }
        } else if let Some(c) = c {
            spec!(self, "3: c is not the EOF code point");
            match self.url_unit_check(c) {
                Some(UrlUnit::NotAUrlCodePoint) => {
                    spec!(self, "3.1: not a URL code point");
                    self.error(E::InvalidUrlUnit);
                }
                Some(UrlUnit::PercentWithoutHexDigits) => {
                    spec!(self, "3.2: \"%\" without two hex digits");
                    self.error(E::InvalidUrlUnit);
                }
                None => {}
            }
            spec!(self, "3.3: append c to buffer");
            self.buffer_push(c);
        }
        Flow::Continue
    }

    /// URL Standard: fragment state.
    fn fragment(&mut self, c: Option<char>) -> Flow {
        if let Some(c) = c {
            spec!(self, "1: c is not the EOF code point");
            match self.url_unit_check(c) {
                Some(UrlUnit::NotAUrlCodePoint) => {
                    spec!(self, "1.1: not a URL code point");
                    self.error(E::InvalidUrlUnit);
                }
                Some(UrlUnit::PercentWithoutHexDigits) => {
                    spec!(self, "1.2: \"%\" without two hex digits");
                    self.error(E::InvalidUrlUnit);
                }
                None => {}
            }
            spec!(
                self,
                "1.3: percent-encode c into url's fragment (fragment percent-encode set)"
            );
            let fragment = self.url.fragment.get_or_insert_with(String::new);
            let before = fragment.len();
            percent::utf8_percent_encode_char(c, percent::FRAGMENT, fragment);
            if T::ENABLED {
                if let Some(fragment) = &self.url.fragment {
                    self.sink
                        .tracer
                        .change(Change::FragmentAppend(&fragment[before..]));
                }
            }
        } else {
            spec!(self, "1: c is the EOF code point: nothing to do");
        }
        Flow::Continue
    }
}

/// The length of the UTF-8 sequence that starts with `first`.
#[inline]
fn utf8_len(first: u8) -> usize {
    match first {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}
