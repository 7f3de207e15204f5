//! The standard's steps explained: for every step the basic URL parser cites while it runs
//! (`spec!` in the parser), where the step is written, and what it does in plain words.
//!
//! The table is keyed by the algorithm a step belongs to and the step's number as the standard
//! numbers it today. A citation without an entry, or an entry that nothing cites, fails
//! `tests/spec_steps.rs`; so does a number that the standard's text does not have.

use std::fmt;

use super::state::{Phase, State};

/// The algorithm a cited step belongs to: the basic URL parser's own steps (before its state
/// machine runs), or one state's steps. The host state and the hostname state share theirs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Section {
    BasicUrlParser,
    State(State),
}

impl Section {
    pub const fn of(phase: Phase) -> Section {
        match phase {
            Phase::TrimControlOrSpace | Phase::RemoveTabOrNewline => Section::BasicUrlParser,
            Phase::State(State::Hostname) => Section::State(State::Host),
            Phase::State(state) => Section::State(state),
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Section::BasicUrlParser => "basic URL parser",
            Section::State(state) => state.name(),
        }
    }

    /// The section's anchor in the standard.
    pub const fn anchor(self) -> &'static str {
        match self {
            Section::BasicUrlParser => "concept-basic-url-parser",
            Section::State(state) => state.anchor(),
        }
    }
}

/// The standard's address, for links to a section.
pub const SPEC_URL: &str = "https://url.spec.whatwg.org/";

/// One cited step: where it is, its number, the parser's few words and the explanation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpecStep {
    /// The phase the step ran in (the hostname state keeps its own name and anchor).
    pub phase: Phase,
    /// The step's number, e.g. `"2.1"` (`"1-2"` for a pair taken together).
    pub number: &'static str,
    /// The parser's words after the number, e.g. `"c is \"@\""`.
    pub words: &'static str,
    /// What the step does, in plain words; `None` only for a citation the table lacks (which
    /// the tests forbid).
    pub explanation: Option<&'static str>,
}

impl SpecStep {
    /// Looks up a citation (`"2.1: …"`) made while in `phase`.
    pub fn new(phase: Phase, citation: &'static str) -> SpecStep {
        let (number, words) = split_citation(citation);
        SpecStep {
            phase,
            number,
            words,
            explanation: explanation(Section::of(phase), number),
        }
    }

    /// The name of the state (or of the basic URL parser) the step belongs to.
    pub const fn section_name(&self) -> &'static str {
        match self.phase {
            Phase::State(state) => state.name(),
            _ => Section::BasicUrlParser.name(),
        }
    }

    pub const fn anchor(&self) -> &'static str {
        match self.phase {
            Phase::State(state) => state.anchor(),
            _ => Section::BasicUrlParser.anchor(),
        }
    }

    /// The link to the step's section, e.g. `https://url.spec.whatwg.org/#authority-state`.
    pub fn url(&self) -> Link {
        Link(self.anchor())
    }
}

/// A link to a section of the standard, written without allocating.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Link(pub &'static str);

impl fmt::Display for Link {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{SPEC_URL}#{}", self.0)
    }
}

/// Splits `"2.1: words"` into `("2.1", "words")`.
pub fn split_citation(citation: &'static str) -> (&'static str, &'static str) {
    match citation.split_once(':') {
        Some((number, words)) => (number.trim(), words.trim()),
        None => (citation.trim(), ""),
    }
}

macro_rules! explanations {
    ($( $section:expr => { $( $step:literal => $text:literal, )* } )*) => {
        /// Every entry of the table: section, step number, explanation.
        pub const ALL: &[(Section, &str, &str)] = &[ $( $( ($section, $step, $text), )* )* ];

        /// The explanation of step `number` of `section`.
        pub fn explanation(section: Section, number: &str) -> Option<&'static str> {
            $(
                if section == $section {
                    return match number { $( $step => Some($text), )* _ => None };
                }
            )*
            None
        }
    };
}

use Section::{BasicUrlParser, State as In};
use State::*;

explanations! {
    BasicUrlParser => {
        "1.2" => "Leading or trailing C0 controls or spaces are a validation error (invalid-URL-unit), but only a warning: they are about to be removed.",
        "1.3" => "The input loses its leading and trailing C0 controls and spaces before anything else looks at it.",
        "2" => "A tab or newline anywhere in the input is a validation error (invalid-URL-unit), but only a warning: every one is about to be removed.",
        "3" => "Every ASCII tab and newline is removed from the input, wherever it is: the state machine never sees them.",
    }
    In(SchemeStart) => {
        "1" => "c is an ASCII letter, so the input may start with a scheme: c goes into the buffer, lowercased, and the scheme state reads the rest.",
        "2" => "c cannot start a scheme, so there is no scheme: the pointer steps back and the no scheme state reads c again.",
        "3" => "A setter (state override) gave a scheme that does not start with a letter: the parser fails and the URL keeps its scheme.",
    }
    In(Scheme) => {
        "1" => "c is a letter, digit, \"+\", \"-\" or \".\": it may still be part of the scheme, so it goes into the buffer, lowercased.",
        "2" => "c is \":\", so the buffer holds a complete scheme: what follows decides how the rest of the URL is read.",
        "2.1.1" => "The protocol setter may not turn a special URL (http, https, ws, wss, ftp, file) into a non-special one: it returns and silently does nothing.",
        "2.1.2" => "The protocol setter may not turn a non-special URL into a special one: it returns and silently does nothing.",
        "2.1.3" => "A URL with credentials or a port cannot become a file URL (file URLs have neither): the protocol setter returns and does nothing.",
        "2.1.4" => "A file URL with an empty host cannot change its scheme (the new scheme would need a host): the protocol setter returns and does nothing.",
        "2.2" => "The buffer becomes the URL's scheme.",
        "2.3.1" => "The protocol setter changed the scheme to one whose default port is the URL's port, so the port becomes null (it is implied now).",
        "2.3.2" => "The protocol setter is done: the scheme is set and the rest of the URL stays as it was.",
        "2.5" => "The scheme is \"file\": the file state reads the rest (a missing \"//\" is a validation error, but only a warning).",
        "2.6" => "The scheme is special and the base has the same scheme, so the input may be relative to the base (\"http:foo\" against an http base).",
        "2.7" => "The scheme is special (http, https, ws, wss, ftp): an authority must follow, so the special authority slashes state looks for \"//\".",
        "2.8" => "The scheme is not special and \"/\" follows: the URL has a path, or an authority if a second \"/\" follows.",
        "2.9" => "The scheme is not special and no \"/\" follows: the URL has an opaque path (like \"mailto:\" or \"data:\"), read as it is.",
        "3" => "c cannot be part of a scheme and no \":\" came: this was not a scheme after all, so the buffer is emptied and the input is read again from its first code point in the no scheme state.",
        "4" => "A setter (state override) gave something that is not a scheme: the parser fails and the URL keeps its scheme.",
    }
    In(NoScheme) => {
        "1" => "The input has no scheme and there is no base to resolve it against (or the base has an opaque path and c is not \"#\"): the parse fails (missing-scheme-non-relative-URL).",
        "2" => "The base has an opaque path and the input is only a fragment: the URL is the base with that fragment.",
        "3" => "The input is relative to a base that is not a file URL: the relative state reads it again from c.",
        "4" => "The input is relative to a file URL: the file state reads it again from c.",
    }
    In(SpecialRelativeOrAuthority) => {
        "1" => "\"//\" follows the special scheme, so an authority comes next, whatever the base; the second \"/\" is skipped.",
        "2" => "No \"//\" follows the special scheme, so the input is relative to the base (a validation error, special-scheme-missing-following-solidus, but only a warning).",
    }
    In(PathOrAuthority) => {
        "1" => "A second \"/\" follows the scheme's \":/\", so an authority (userinfo, host, port) comes next.",
        "2" => "Only one \"/\" follows the scheme: there is no authority, and the path state reads the rest from c.",
    }
    In(Relative) => {
        "2" => "A relative reference takes the base's scheme.",
        "3" => "c is \"/\": the reference gives a path from the root, or an authority if another slash follows.",
        "4" => "c is \"\\\" in a special URL, read as \"/\" (a validation error, invalid-reverse-solidus, but only a warning).",
        "5.1" => "The reference has no slash at its start, so it keeps the base's userinfo, host, port, path and query; what c is decides what it replaces.",
        "5.2" => "c is \"?\": the reference replaces the base's query and keeps its path.",
        "5.3" => "c is \"#\": the reference only replaces the base's fragment.",
        "5.4" => "The reference is a relative path: the query goes, the base's last path segment is dropped (\"shorten\"), and the path state appends the reference's segments.",
    }
    In(RelativeSlash) => {
        "1" => "A second slash (\"/\" or \"\\\") in a special URL: an authority follows, replacing the base's.",
        "2" => "A second \"/\": an authority follows, replacing the base's.",
        "3" => "Only one slash: the reference is a path from the root, so it keeps the base's userinfo, host and port and the path state reads c again.",
    }
    In(SpecialAuthoritySlashes) => {
        "1" => "c and the next code point are \"//\", as expected after a special scheme: the second \"/\" is skipped and the authority follows.",
        "2" => "A special scheme without \"//\" after it: a validation error (special-scheme-missing-following-solidus), but only a warning; the authority is read anyway.",
    }
    In(SpecialAuthorityIgnoreSlashes) => {
        "1" => "c is not a slash: the authority starts here, and the authority state reads c again.",
        "2" => "One more slash (\"/\" or \"\\\") before the authority: a validation error (special-scheme-missing-following-solidus), but only a warning; it is skipped.",
    }
    In(Authority) => {
        "1" => "c is \"@\": what the buffer holds so far is userinfo, percent-encoded into the username (and the password after the first \":\"); credentials are a validation error, but only a warning.",
        "1.2" => "A second \"@\": the earlier one belonged to the userinfo, so \"%40\" is put in front of the buffer.",
        "1.4" => "The buffer is percent-encoded (userinfo set) into the username, and after the first \":\" into the password.",
        "2" => "c ends the authority (EOF, \"/\", \"?\", \"#\", or \"\\\" in a special URL): the pointer goes back to where the host starts and the host state reads it.",
        "2.1" => "An \"@\" came but nothing after it: credentials without a host, so the parse fails (host-missing).",
        "3" => "c is part of the authority: it goes into the buffer until an \"@\" or the authority's end says what it is.",
    }
    In(Host) => {
        "1" => "A setter edits a file URL's host: the file host state handles it, where \"localhost\" and drive letters have their own rules.",
        "2" => "c is \":\" outside brackets: the host ends here and a port follows.",
        "2.1" => "A \":\" with nothing before it: a port without a host, so the parse fails (host-missing).",
        "2.2" => "The hostname setter got a \":\": it may not set the port, so it fails and changes nothing.",
        "2.3" => "The buffer is parsed as a host (domain, IPv4, IPv6 or opaque host); a failure there fails the parse.",
        "3" => "c ends the host (EOF, \"/\", \"?\", \"#\", or \"\\\" in a special URL): the pointer steps back so the path start state reads c.",
        "3.1" => "A special URL needs a host and the buffer is empty: the parse fails (host-missing).",
        "3.2" => "A setter tried to empty the host of a URL with credentials or a port (they would be lost): it fails and changes nothing.",
        "3.3" => "The buffer is parsed as a host (domain, IPv4, IPv6 or opaque host); a failure there fails the parse.",
        "3.6" => "A setter (host or hostname) has set the host: it returns, the rest of the URL stays as it was.",
        "4" => "c is part of the host: it goes into the buffer (\"[\" and \"]\" track whether a \":\" is inside an IPv6 address).",
    }
    In(Port) => {
        "1" => "c is a digit: it goes into the buffer as part of the port.",
        "2" => "c ends the port (EOF, \"/\", \"?\", \"#\", \"\\\" in a special URL, or anything for a setter): the digits so far are the port.",
        "2.1.2" => "The port is larger than 65535: the parse fails (port-out-of-range).",
        "2.1.3" => "The digits become the URL's port; if it is the scheme's default port (80 for http, 443 for https…), the port is null instead.",
        "2.1.5" => "The port setter has set the port from the digits it read: anything after them (\"abc\" in \"8080abc\") is silently ignored.",
        "2.2" => "The port setter got no digits at all: it fails and the port stays as it was.",
        "3" => "c is not a digit and does not end the port: the parse fails (port-invalid).",
    }
    In(File) => {
        "1-2" => "The URL is a file URL: its scheme is \"file\" and its host starts empty.",
        "3" => "c is a slash (\"\\\" is a validation error, but only a warning): a host or a path from the root follows.",
        "4.1" => "A file URL relative to a file base: it takes the base's host, path and query first.",
        "4.2" => "c is \"?\": the reference replaces the base's query and keeps its path.",
        "4.3" => "c is \"#\": the reference only replaces the base's fragment.",
        "4.4.2" => "The reference is a relative path: the base's last segment is dropped and the path state appends the reference's segments.",
        "4.4.3" => "The reference starts with a drive letter (\"C:\"), which replaces the base's whole path (a validation error, but only a warning).",
        "5" => "No base to take from: the path state reads c again.",
    }
    In(FileSlash) => {
        "1" => "A second slash: a host follows (\"file://host/…\").",
        "2" => "Only one slash: a path from the root follows, with no host of its own.",
        "2.1" => "The base is a file URL: the reference takes its host.",
        "2.1.2" => "The reference does not start with a drive letter, but the base's path does: the drive letter is kept (\"/foo\" against \"file:///C:/x\" stays on C:).",
    }
    In(FileHost) => {
        "1.1" => "What looked like a host is a drive letter (\"file://C:/\"): it becomes the path's first segment instead (a validation error, but only a warning).",
        "1.2" => "The host is empty (\"file:///…\"): the URL has the empty host.",
        "1.3" => "The buffer is parsed as a host; a failure there fails the parse.",
        "1.3.3" => "The host \"localhost\" means this machine: for file URLs it becomes the empty host.",
        "2" => "c is part of the host: it goes into the buffer.",
    }
    In(PathStart) => {
        "1" => "A special URL always has a path that starts with \"/\": the path state reads from here (\"\\\" counts as \"/\").",
        "2" => "c is \"?\" right after the authority: the path stays empty and the query starts.",
        "3" => "c is \"#\" right after the authority: the path stays empty and the fragment starts.",
        "4" => "c starts the path (a leading \"/\" is skipped, anything else is read again by the path state); at EOF nothing happens and the path stays empty.",
        "5" => "The pathname setter gave nothing for a URL without a host: the path becomes one empty segment.",
    }
    In(Path) => {
        "1" => "c ends a path segment (EOF, \"/\", \"\\\" in a special URL, \"?\" or \"#\"): the buffer holds the segment.",
        "1.2" => "The segment is \"..\" (or an encoded form such as \"%2e%2E\"): the path loses its last segment; at the root there is nothing to remove, so \"..\" cannot climb past it.",
        "1.3" => "The segment is \".\" (or \"%2e\"): it means this directory, so it adds nothing, except an empty last segment when the path ends here.",
        "1.4.1" => "The first segment of a file URL's path is a drive letter written \"C|\": it is normalized to \"C:\".",
        "1.4.2" => "The segment is appended to the URL's path.",
        "1.6" => "c is \"?\": the path is done and the query starts.",
        "1.7" => "c is \"#\": the path is done and the fragment starts.",
        "2" => "c is part of the segment: it goes into the buffer, percent-encoded if it is in the path percent-encode set (a space becomes %20).",
    }
    In(OpaquePath) => {
        "1" => "c is \"?\": the opaque path is done and the query starts.",
        "2" => "c is \"#\": the opaque path is done and the fragment starts.",
        "3" => "A space in an opaque path is a validation error, but only a warning; it stays a space, unless \"?\" or \"#\" follows, where it becomes %20 so that it survives being serialized and parsed again.",
        "4" => "c is appended to the opaque path, percent-encoded only if it is a C0 control or above ASCII; at EOF nothing happens.",
    }
    In(Query) => {
        "1" => "The query is encoded as UTF-8 whatever the document's encoding: the URL is not special, or its scheme is ws or wss.",
        "2" => "c ends the query (EOF, or \"#\"): the buffer is encoded (in the document's encoding) and percent-encoded into the URL's query.",
        "2.4" => "c is \"#\": the fragment starts.",
        "3" => "c is part of the query: it goes into the buffer as it is; encoding waits until the query ends.",
    }
    In(Fragment) => {
        "1" => "c is percent-encoded (fragment set: space, \", <, >, `) and appended to the URL's fragment; at EOF nothing happens.",
    }
}
