//! The standard's steps explained: for every step the basic URL parser cites while it runs
//! (`spec!` in the parser), and for every host parsing sub-step it records (`HostEvent`), where
//! the step is written, and what it does in plain words.
//!
//! The table is keyed by the algorithm a step belongs to and the step's number as the standard
//! numbers it today. A citation without an entry, or an entry that nothing cites, fails
//! `tests/spec_steps.rs`; so does a number that the standard's text does not have. A host
//! sub-step's entry may name the event's data in braces (`{text}`), filled in by [`explain_host_events`].

use std::fmt;

use super::state::{Phase, State};
use crate::trace::HostEvent;
use crate::url::api::Component;
use crate::url::code_points::is_forbidden_domain_code_point;
use crate::url::record::{Host as UrlHost, UrlRecord};
use crate::validation::{ValidationError, ValidationErrorKind};

/// The algorithm a cited step belongs to: the basic URL parser's own steps (before its state
/// machine runs), one state's steps, or one of the host parsing algorithms the host parser runs.
/// The host state and the hostname state share theirs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Section {
    BasicUrlParser,
    State(State),
    Host(HostAlgorithm),
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
            Section::Host(algorithm) => algorithm.name(),
        }
    }

    /// The section's anchor in the standard.
    pub const fn anchor(self) -> &'static str {
        match self {
            Section::BasicUrlParser => "concept-basic-url-parser",
            Section::State(state) => state.anchor(),
            Section::Host(algorithm) => algorithm.anchor(),
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

    /// The step as the inspector cites it: `§ port state 2.3: explanation <link>` (the
    /// parser's own words where the table has no explanation).
    pub fn citation(&self) -> String {
        format!(
            "§ {} {}: {} <{}>",
            self.section_name(),
            self.number,
            self.explanation.unwrap_or(self.words),
            self.url()
        )
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

use HostAlgorithm::*;
use Section::{BasicUrlParser, Host as Of, State as In};
use State::*;

explanations! {
    BasicUrlParser => {
        "1.2" => "Does the input start or end with C0 controls or spaces? If so, that is a validation error (invalid-URL-unit), but only a warning: they are about to be removed.",
        "1.3" => "The input loses its leading and trailing C0 controls and spaces before anything else looks at it.",
        "2" => "Does the input hold an ASCII tab or newline anywhere? If so, that is a validation error (invalid-URL-unit), but only a warning: every one is about to be removed.",
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
        "2.5" => "The scheme is \"file\": file URLs have their own states, which read the rest.",
        "2.5.1" => "A file URL should go on with \"//\" after \"file:\", and this one does not: a validation error (special-scheme-missing-following-solidus), but only a warning.",
        "2.5.2" => "The file state reads what follows \"file:\", starting with the next code point.",
        "2.6" => "The scheme is special and the base has the same scheme, so the input may be relative to the base (\"http:foo\" against an http base).",
        "2.6.2" => "The special relative or authority state looks at what follows \":\": \"//\" starts an authority, anything else is relative to the base.",
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
        "5.4" => "c is neither \"?\" nor \"#\" (nor EOF): the reference is a relative path, which keeps the base's path up to its last segment.",
        "5.4.1" => "A relative path comes with its own query or none: the query copied from the base is dropped (null).",
        "5.4.2" => "The base's last path segment is dropped (\"shorten\"): the reference's segments take its place.",
        "5.4.3" => "The path state reads the reference from c, so the pointer steps back: its segments are appended to what is left of the base's path.",
    }
    In(RelativeSlash) => {
        "1" => "A second slash (\"/\" or \"\\\") in a special URL: an authority follows, replacing the base's.",
        "1.1" => "The second slash is \"\\\", read as \"/\": a validation error (invalid-reverse-solidus), but only a warning.",
        "1.2" => "After \"//\" the special authority ignore slashes state skips any more slashes, and the authority starts after them.",
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
        "1" => "c is \"@\": what the buffer holds so far is userinfo (a username, and a password after the first \":\"), not the host.",
        "1.1" => "Credentials in a URL are a validation error (invalid-credentials), but only a warning: the URL still parses, with them in it.",
        "1.2" => "A second \"@\": the earlier one belonged to the userinfo, so \"%40\" is put in front of the buffer.",
        "1.4" => "The buffer is read code point by code point: the first \":\" (if any) separates the username from the password and is dropped.",
        "1.4.3" => "The buffer after its first \":\" is percent-encoded (userinfo set) and appended to the URL's password.",
        "1.4.4" => "The buffer up to its first \":\" (all of it, when it has none) is percent-encoded (userinfo set) and appended to the URL's username.",
        "2" => "c ends the authority (EOF, \"/\", \"?\", \"#\", or \"\\\" in a special URL): the buffer holds what follows the last \"@\", the host and port.",
        "2.1" => "An \"@\" came but nothing after it: credentials without a host, so the parse fails (host-missing).",
        "2.2" => "The pointer goes back over the buffer and c to where the host starts, the buffer is emptied, and the host state reads the host and port again, code point by code point.",
        "3" => "c is part of the authority: it goes into the buffer until an \"@\" or the authority's end says what it is.",
    }
    In(Host) => {
        "1" => "A setter edits a file URL's host: the file host state handles it, where \"localhost\" and drive letters have their own rules.",
        "2" => "c is \":\" outside brackets: the host ends here and a port follows.",
        "2.1" => "A \":\" with nothing before it: a port without a host, so the parse fails (host-missing).",
        "2.2" => "The hostname setter got a \":\": it may not set the port, so it fails and changes nothing.",
        "2.3" => "The buffer is parsed as a host (domain, IPv4, IPv6 or opaque host); a failure there fails the parse.",
        "2.4" => "The host parser returned failure (its steps say why), so the basic URL parser fails too.",
        "2.5" => "The parsed host becomes the URL's host, the buffer is emptied, and the port state reads the digits after the \":\".",
        "3" => "c ends the host (EOF, \"/\", \"?\", \"#\", or \"\\\" in a special URL): the pointer steps back so the path start state reads c.",
        "3.1" => "A special URL needs a host and the buffer is empty: the parse fails (host-missing).",
        "3.2" => "A setter tried to empty the host of a URL with credentials or a port (they would be lost): it fails and changes nothing.",
        "3.3" => "The buffer is parsed as a host (domain, IPv4, IPv6 or opaque host); a failure there fails the parse.",
        "3.4" => "The host parser returned failure (its steps say why), so the basic URL parser fails too.",
        "3.5" => "The parsed host becomes the URL's host and the buffer is emptied: no port, so the path start state reads c (the pointer stepped back).",
        "3.6" => "A setter (host or hostname) has set the host: it returns, the rest of the URL stays as it was.",
        "4" => "c neither ends the host nor starts a port: it is part of the host.",
        "4.1" => "c is \"[\": an IPv6 address starts, and a \":\" inside it does not start a port.",
        "4.2" => "c is \"]\": the IPv6 address ends, so a \":\" after it starts a port again.",
        "4.3" => "c goes into the buffer, which holds the host until it ends.",
    }
    In(Port) => {
        "1" => "c is a digit: it goes into the buffer as part of the port.",
        "2" => "c ends the port (EOF, \"/\", \"?\", \"#\", \"\\\" in a special URL, or anything for a setter): the digits so far are the port.",
        "2.1.2" => "The port is larger than 65535: the parse fails (port-out-of-range).",
        "2.1.3" => "The digits become the URL's port; if it is the scheme's default port (80 for http, 443 for https…), the port is null instead.",
        "2.1.5" => "The port setter has set the port from the digits it read (null for the scheme's default port) and returns: anything after them, such as \"abc\" in \"8080abc\", is silently ignored.",
        "2.2" => "The port setter got no digits at all: it fails and the port stays as it was.",
        "2.3" => "The port is done (or there were no digits, and the port stays null): the pointer steps back and the path start state reads c.",
        "3" => "c is not a digit and does not end the port: the parse fails (port-invalid).",
    }
    In(File) => {
        "1-2" => "The URL is a file URL: its scheme is \"file\" and its host starts empty.",
        "3" => "c is a slash: a host or a path from the root follows.",
        "3.1" => "The slash is \"\\\", read as \"/\": a validation error (invalid-reverse-solidus), but only a warning.",
        "3.2" => "The file slash state looks at what follows the slash: a second one starts a host.",
        "4.1" => "A file URL relative to a file base: it takes the base's host, path and query first.",
        "4.2" => "c is \"?\": the reference replaces the base's query and keeps its path.",
        "4.3" => "c is \"#\": the reference only replaces the base's fragment.",
        "4.4" => "c is neither \"?\" nor \"#\" (nor EOF): the reference is a path, relative to the base's.",
        "4.4.1" => "A path comes with its own query or none: the query copied from the base is dropped (null).",
        "4.4.2" => "The reference does not start with a drive letter: the base's last segment is dropped (\"shorten\") and the reference's segments take its place.",
        "4.4.3" => "The reference starts with a drive letter (\"C:\"): it replaces the base's whole path.",
        "4.4.3.1" => "A drive letter in a relative reference is a validation error (file-invalid-Windows-drive-letter), but only a warning.",
        "4.4.3.2" => "The path copied from the base is emptied: the drive letter starts a new one.",
        "4.4.4" => "The path state reads the reference from c, so the pointer steps back.",
        "5" => "No base to take from: the path state reads c again.",
    }
    In(FileSlash) => {
        "1" => "A second slash: a host follows (\"file://host/…\").",
        "1.1" => "The slash is \"\\\", read as \"/\": a validation error (invalid-reverse-solidus), but only a warning.",
        "1.2" => "The file host state reads the host, up to the next slash, \"?\" or \"#\".",
        "2" => "Only one slash: a path from the root follows, with no host of its own.",
        "2.1" => "The base is a file URL, so the reference may take from it.",
        "2.1.1" => "The reference takes the base's host.",
        "2.1.2" => "The reference does not start with a drive letter, but the base's path does: the drive letter is kept (\"/foo\" against \"file:///C:/x\" stays on C:).",
        "2.2" => "The path state reads the path from c, so the pointer steps back.",
    }
    In(FileHost) => {
        "1.1" => "What looked like a host is a drive letter (\"file://C:/\"): it becomes the path's first segment instead (a validation error, but only a warning).",
        "1.2" => "Nothing came between the slashes and c (\"file:///…\"): there is no host.",
        "1.2.1" => "The URL's host is the empty host.",
        "1.2.2" => "A setter (host or hostname) emptied the host of a file URL: it returns, the rest of the URL stays as it was.",
        "1.2.3" => "The path start state reads c (the pointer stepped back).",
        "1.3" => "The buffer is parsed as a host; a failure there fails the parse.",
        "1.3.2" => "The host parser returned failure (its steps say why), so the basic URL parser fails too.",
        "1.3.3" => "The host \"localhost\" means this machine: for file URLs it becomes the empty host.",
        "1.3.4" => "The parsed host becomes the URL's host.",
        "1.3.5" => "A setter (host or hostname) has set the host: it returns, the rest of the URL stays as it was.",
        "1.3.6" => "The buffer is emptied and the path start state reads c (the pointer stepped back).",
        "2" => "c is part of the host: it goes into the buffer.",
    }
    In(PathStart) => {
        "1" => "A special URL always has a path that starts with \"/\", whatever c is.",
        "1.1" => "c is \"\\\", read as \"/\": a validation error (invalid-reverse-solidus), but only a warning.",
        "1.2" => "The path state reads the path: a slash (c) is skipped, anything else is read again from c (the pointer steps back).",
        "2" => "c is \"?\" right after the authority: the path stays empty and the query starts.",
        "3" => "c is \"#\" right after the authority: the path stays empty and the fragment starts.",
        "4" => "c starts the path; at EOF nothing happens and the path stays empty.",
        "4.1" => "The path state reads the path: a leading \"/\" (c) is skipped, anything else is read again from c (the pointer steps back).",
        "5" => "The pathname setter gave nothing for a URL without a host: the path becomes one empty segment.",
    }
    In(Path) => {
        "1" => "c ends a path segment (EOF, \"/\", \"\\\" in a special URL, \"?\" or \"#\"): the buffer holds the segment.",
        "1.1" => "c is \"\\\" in a special URL, read as \"/\": a validation error (invalid-reverse-solidus), but only a warning.",
        "1.2" => "The segment is \"..\" (or an encoded form such as \"%2e%2E\"): it means the parent directory.",
        "1.2.1" => "The path loses its last segment (\"shorten\"); at the root there is nothing to remove, so \"..\" cannot climb past it.",
        "1.2.2" => "The path ends with \"..\" (no slash after it): an empty segment is appended, so the path ends with \"/\".",
        "1.3" => "The segment is \".\" (or \"%2e\"): it means this directory, so it adds nothing, except an empty last segment when the path ends here.",
        "1.4.1" => "The first segment of a file URL's path is a drive letter written \"C|\": it is normalized to \"C:\".",
        "1.4.2" => "The segment is appended to the URL's path.",
        "1.6" => "c is \"?\": the path is done and the query starts.",
        "1.7" => "c is \"#\": the path is done and the fragment starts.",
        "2" => "c does not end the segment: it is part of it.",
        "2.1" => "c is not a URL code point (a space, \"<\", \"|\", a control…): a validation error (invalid-URL-unit), but only a warning; it is kept, percent-encoded if the path percent-encode set holds it.",
        "2.2" => "c is \"%\" but two hex digits do not follow: a validation error (invalid-URL-unit), but only a warning; the \"%\" stays as it is.",
        "2.3" => "c goes into the buffer, percent-encoded if it is in the path percent-encode set (a space becomes %20).",
    }
    In(OpaquePath) => {
        "1" => "c is \"?\": the opaque path is done and the query starts.",
        "2" => "c is \"#\": the opaque path is done and the fragment starts.",
        "3" => "c is a space, which an opaque path keeps as it is, unless it would end up at the path's end.",
        "3.1" => "A space in an opaque path is a validation error (invalid-URL-unit), but only a warning.",
        "3.2" => "\"?\" or \"#\" follows the space, so it could end the path: it becomes %20, so that it survives being serialized and parsed again.",
        "3.3" => "The space is appended to the opaque path as it is.",
        "4" => "c is part of the opaque path; at EOF nothing happens.",
        "4.1" => "c is not a URL code point (a control, \"<\", \"|\"…): a validation error (invalid-URL-unit), but only a warning; it is kept, percent-encoded if it is a control or above ASCII.",
        "4.2" => "c is \"%\" but two hex digits do not follow: a validation error (invalid-URL-unit), but only a warning; the \"%\" stays as it is.",
        "4.3" => "c is appended to the opaque path, percent-encoded only if it is a C0 control or above ASCII.",
    }
    In(Query) => {
        "1" => "The query is encoded as UTF-8 whatever the document's encoding: the URL is not special, or its scheme is ws or wss.",
        "2" => "c ends the query (EOF, or \"#\"): the buffer holds the whole query.",
        "2.2" => "The buffer is encoded (in the document's encoding) and percent-encoded (the special-query set for special URLs, which adds \"'\") into the URL's query.",
        "2.4" => "c is \"#\": the fragment starts.",
        "3" => "c is part of the query.",
        "3.1" => "c is not a URL code point (a space, \"<\", \"|\"…): a validation error (invalid-URL-unit), but only a warning; it is kept, percent-encoded when the query ends if the query's set holds it.",
        "3.2" => "c is \"%\" but two hex digits do not follow: a validation error (invalid-URL-unit), but only a warning; the \"%\" stays as it is.",
        "3.3" => "c goes into the buffer as it is; encoding waits until the query ends.",
    }
    In(Fragment) => {
        "1" => "c is part of the fragment; at EOF nothing happens.",
        "1.1" => "c is not a URL code point (a space, \"<\", \"|\"…): a validation error (invalid-URL-unit), but only a warning; it is kept, percent-encoded if the fragment percent-encode set holds it.",
        "1.2" => "c is \"%\" but two hex digits do not follow: a validation error (invalid-URL-unit), but only a warning; the \"%\" stays as it is.",
        "1.3" => "c is percent-encoded (fragment set: space, \", <, >, `) and appended to the URL's fragment.",
    }
    Of(HostParser) => {
        "1" => "The host \"{input}\" starts with \"[\": it is an IPv6 address, and the IPv6 parser reads what is between the brackets.",
        "1.1" => "The host starts with \"[\" but does not end with \"]\": the parse fails (IPv6-unclosed).",
        "5" => "The host \"{input}\" has percent-encoded bytes (a validation error, domain-percent-encoded, but only a warning): they are decoded and read as UTF-8, giving the domain \"{domain}\".",
        "7" => "The domain parser failed on \"{domain}\", so the host parser fails, and so does the URL.",
    }
    Of(OpaqueHostParser) => {
        "1" => "The host contains {found}, a forbidden host code point: the parse fails (host-invalid-code-point).",
        "4" => "The URL is not special, so its host is opaque: \"{input}\" is kept as written, with only C0 controls and non-ASCII code points percent-encoded: \"{output}\".",
    }
    Of(DomainParser) => {
        "1" => "Unicode ToASCII with the strict rules (hyphen, STD3 and DNS length checks) accepts \"{input}\": it gives \"{output}\".",
        "2" => "Unicode ToASCII with the strict rules rejects \"{input}\": a validation error (domain-to-ASCII), but the parse goes on with the relaxed rules.",
        "5" => "The domain is ASCII, so it is only lowercased, whatever ToASCII said of it (web compatibility): \"{output}\".",
        "6.1" => "The domain is not ASCII: Unicode ToASCII with the relaxed rules (no hyphen, STD3 or length checks) makes \"{input}\" into \"{output}\" (non-ASCII labels become Punycode, after \"xn--\").",
        "6.2" => "Unicode ToASCII rejects \"{input}\" even with the relaxed rules: the domain parser fails.",
        "7" => "Nothing is left of \"{input}\" (IDNA removes code points such as the soft hyphen): an empty domain, so the domain parser fails.",
        "8" => "The domain \"{output}\" contains {found}, a forbidden domain code point: the domain parser fails.",
    }
    Of(DomainToUnicode) => {
        "1" => "Not a step the host parser takes: the label \"{ascii}\" of its result, read back by domain to Unicode for display, is \"{unicode}\"; the host keeps the ASCII form.",
    }
    Of(EndsInANumberChecker) => {
        "5" => "The last label of \"{input}\", \"{last}\", is only ASCII digits: the host is an IPv4 address, and the IPv4 parser reads it.",
        "6" => "The last label of \"{input}\", \"{last}\", is an IPv4 number (0x and hex digits): the host is an IPv4 address, and the IPv4 parser reads it.",
        "7" => "The last label of \"{input}\", \"{last}\", is not a number: the host is the domain \"{input}\".",
    }
    Of(Ipv4Parser) => {
        "4" => "\"{input}\" has more than 4 parts: it is not an IPv4 address, and the parse fails (IPv4-too-many-parts).",
        "6.2" => "The part \"{text}\" is not a number: the parse fails (IPv4-non-numeric-part).",
        "8" => "A part before the last is {value}, greater than 255: the parse fails (IPv4-out-of-range-part).",
        "9" => "The last part, {value}, does not fit in the {bytes} bytes left for it (it must be less than {limit}): the parse fails (IPv4-out-of-range-part).",
        "14" => "The parts make the 32-bit number {address}, which is the address {dotted}.{how}",
    }
    Of(Ipv4NumberParser) => {
        "1" => "The part is empty, so it is not a number: the IPv4 number parser fails.",
        "3" => "\"{text}\" has no 0x and no leading 0, so it is read in radix 10: {value}.",
        "4" => "\"{text}\" starts with 0x, so it is read in radix 16: {value} (a validation error, IPv4-non-decimal-part, but only a warning).",
        "5" => "\"{text}\" starts with 0 and has more digits, so it is read in radix 8: {value} (a validation error, IPv4-non-decimal-part, but only a warning).",
        "6" => "\"{text}\" is 0x with no digits after it, which reads as 0 (a validation error, IPv4-non-decimal-part, but only a warning).",
        "7" => "\"{text}\" is read in radix {radix}, but {found} is not a radix-{radix} digit: the part is not a number.",
    }
    Of(Ipv6Parser) => {
        "5.1" => "The address starts with a single \":\": the parse fails (IPv6-invalid-compression).",
        "5.3" => "The address starts with \"::\": piece 0 stays 0, and compress remembers piece 1, where the pieces after \"::\" start (step 7 moves them to the end).",
        "6.1" => "A ninth piece: the parse fails (IPv6-too-many-pieces).",
        "6.2.1" => "A second \"::\": the parse fails (IPv6-multiple-compression).",
        "6.2.2" => "\"::\": piece {skipped} stays 0, and compress remembers piece {piece_index}, where the pieces after \"::\" start (step 7 moves them to the end).",
        "6.5.1" => "A \".\" with no digits before it: the parse fails (IPv4-in-IPv6-invalid-code-point).",
        "6.5.3" => "An IPv4 address inside an IPv6 address takes the last two pieces, but this one starts after piece 6: the parse fails (IPv4-in-IPv6-too-many-pieces).",
        "6.5.5.2.2" => "After the IPv4 part comes {found}, where only \".\" and another part (4 at most) may follow: the parse fails (IPv4-in-IPv6-invalid-code-point).",
        "6.5.5.3" => "An IPv4 part must start with a digit, not {found}: the parse fails (IPv4-in-IPv6-invalid-code-point).",
        "6.5.5.4.3" => "An IPv4 part inside an IPv6 address may not have a leading 0: the parse fails (IPv4-in-IPv6-invalid-code-point).",
        "6.5.5.4.5" => "An IPv4 part is greater than 255: the parse fails (IPv4-in-IPv6-out-of-range-part).",
        "6.5.5.5" => "The IPv4 part \"{text}\" is read in decimal, {value}, and becomes the {half} byte of piece {piece}.",
        "6.5.6" => "The IPv4 address inside the IPv6 address has {parts} parts, not 4: the parse fails (IPv4-in-IPv6-too-few-parts).",
        "6.6.2" => "The address ends with \":\" after a piece: the parse fails (IPv6-invalid-code-point).",
        "6.7" => "{found} cannot be part of an IPv6 address (hex digits, \":\", and \".\" in an IPv4 address at its end): the parse fails (IPv6-invalid-code-point).",
        "6.9" => "\"{text}\" is read in hexadecimal, {hex}, and becomes piece {index}.",
        "7.3" => "\"::\" stands for the zero pieces the address lacks: what came after it ({moved}) moves to the end, and pieces {first} to {last} stay 0.",
        "8" => "No \"::\" and only {pieces} pieces, not 8: the parse fails (IPv6-too-few-pieces).",
        "9" => "The address is {address}.",
    }
}

/// A URL API setter whose own steps can decide what it does without running the basic URL
/// parser (URL Standard: the URL class, "The … setter steps are"): it returns early, or sets
/// the component itself. The protocol and href setters always run the parser.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Setter(Component);

impl Setter {
    pub const USERNAME: Setter = Setter(Component::Username);
    pub const PASSWORD: Setter = Setter(Component::Password);
    pub const HOST: Setter = Setter(Component::Host);
    pub const HOSTNAME: Setter = Setter(Component::Hostname);
    pub const PORT: Setter = Setter(Component::Port);
    pub const PATHNAME: Setter = Setter(Component::Pathname);
    pub const SEARCH: Setter = Setter(Component::Search);
    pub const HASH: Setter = Setter(Component::Hash);

    /// The setter of `component`, if its steps can decide alone (all but href and protocol).
    pub fn of(component: Component) -> Option<Setter> {
        (!matches!(component, Component::Href | Component::Protocol)).then_some(Setter(component))
    }

    /// The attribute the setter is for, as the URL API names it (`"port"`).
    pub const fn attribute(self) -> &'static str {
        self.0.name()
    }

    /// The algorithm's name, as the standard's source names it (`"port setter"`).
    pub fn name(self) -> String {
        format!("{} setter", self.attribute())
    }

    /// The link to the attribute's definition, where its setter steps are.
    pub fn url(self) -> String {
        format!("{SPEC_URL}#dom-url-{}", self.attribute())
    }
}

/// Every setter step that decides alone, with its explanation.
pub const SETTER_STEPS: &[(Setter, &str, &str)] = &[
    (Setter::USERNAME, "1", "The URL cannot have a username (it has no host, the empty host, or is a file URL): the username setter returns and does nothing."),
    (Setter::USERNAME, "2", "The username setter sets the username itself, percent-encoded with the userinfo percent-encode set: the basic URL parser does not run."),
    (Setter::PASSWORD, "1", "The URL cannot have a password (it has no host, the empty host, or is a file URL): the password setter returns and does nothing."),
    (Setter::PASSWORD, "2", "The password setter sets the password itself, percent-encoded with the userinfo percent-encode set: the basic URL parser does not run."),
    (Setter::HOST, "1", "The URL has an opaque path (like mailto: or data:), so it has no host to set: the host setter returns and does nothing."),
    (Setter::HOSTNAME, "1", "The URL has an opaque path (like mailto: or data:), so it has no host to set: the hostname setter returns and does nothing."),
    (Setter::PORT, "1", "The URL cannot have a port (it has no host, the empty host, or is a file URL): the port setter returns and does nothing."),
    (Setter::PORT, "2", "The port setter got the empty string: the port becomes null, and the basic URL parser does not run."),
    (Setter::PATHNAME, "1", "The URL has an opaque path (like mailto: or data:), which has no segments to set: the pathname setter returns and does nothing."),
    (Setter::SEARCH, "2", "The search setter got the empty string: the query becomes null (and searchParams empty), and the basic URL parser does not run."),
    (Setter::HASH, "1", "The hash setter got the empty string: the fragment becomes null, and the basic URL parser does not run."),
];

/// The step of a setter's own steps that decided what it did, when it did not run the basic URL
/// parser.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SetterStep {
    pub setter: Setter,
    pub number: &'static str,
    pub explanation: &'static str,
}

impl SetterStep {
    /// The setter step that decides what `setter` does with `value` on `url`, when the
    /// setter does not run the basic URL parser (`None` when it does: the trace tells the rest).
    pub fn deciding(setter: Setter, value: &str, url: &UrlRecord) -> Option<SetterStep> {
        let cannot_have = url.cannot_have_username_password_port();
        let number = match setter {
            Setter::USERNAME | Setter::PASSWORD if cannot_have => "1",
            Setter::USERNAME | Setter::PASSWORD => "2",
            Setter::HOST | Setter::HOSTNAME | Setter::PATHNAME if url.has_opaque_path() => "1",
            Setter::PORT if cannot_have => "1",
            Setter::PORT if value.is_empty() => "2",
            Setter::SEARCH if value.is_empty() => "2",
            Setter::HASH if value.is_empty() => "1",
            _ => return None,
        };
        SETTER_STEPS
            .iter()
            .find(|(s, n, _)| *s == setter && *n == number)
            .map(|&(setter, number, explanation)| SetterStep {
                setter,
                number,
                explanation,
            })
    }
}

/// The host parsing algorithms (URL Standard: 3.3 IDNA, 3.5 Host parsing) whose steps the
/// host parser's sub-steps ([`HostEvent`]) cite.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HostAlgorithm {
    HostParser,
    OpaqueHostParser,
    /// The domain parser (the standard's anchor still says "domain to ASCII", its old name).
    DomainParser,
    /// Domain to Unicode: not run by the host parser; the trace runs it on the domain parser's
    /// result to show each label's Unicode form.
    DomainToUnicode,
    EndsInANumberChecker,
    Ipv4Parser,
    Ipv4NumberParser,
    Ipv6Parser,
}

impl HostAlgorithm {
    pub const ALL: &'static [HostAlgorithm] = &[
        HostAlgorithm::HostParser,
        HostAlgorithm::OpaqueHostParser,
        HostAlgorithm::DomainParser,
        HostAlgorithm::DomainToUnicode,
        HostAlgorithm::EndsInANumberChecker,
        HostAlgorithm::Ipv4Parser,
        HostAlgorithm::Ipv4NumberParser,
        HostAlgorithm::Ipv6Parser,
    ];

    /// The algorithm's name, as the standard writes it.
    pub const fn name(self) -> &'static str {
        match self {
            HostAlgorithm::HostParser => "host parser",
            HostAlgorithm::OpaqueHostParser => "opaque-host parser",
            HostAlgorithm::DomainParser => "domain parser",
            HostAlgorithm::DomainToUnicode => "domain to Unicode",
            HostAlgorithm::EndsInANumberChecker => "ends in a number checker",
            HostAlgorithm::Ipv4Parser => "IPv4 parser",
            HostAlgorithm::Ipv4NumberParser => "IPv4 number parser",
            HostAlgorithm::Ipv6Parser => "IPv6 parser",
        }
    }

    /// The algorithm's anchor in the standard: an explicit `id`, or the one Bikeshed makes of
    /// the defined term (the ends in a number checker, the IPv4 number parser).
    pub const fn anchor(self) -> &'static str {
        match self {
            HostAlgorithm::HostParser => "concept-host-parser",
            HostAlgorithm::OpaqueHostParser => "concept-opaque-host-parser",
            HostAlgorithm::DomainParser => "concept-domain-to-ascii",
            HostAlgorithm::DomainToUnicode => "concept-domain-to-unicode",
            HostAlgorithm::EndsInANumberChecker => "ends-in-a-number-checker",
            HostAlgorithm::Ipv4Parser => "concept-ipv4-parser",
            HostAlgorithm::Ipv4NumberParser => "ipv4-number-parser",
            HostAlgorithm::Ipv6Parser => "concept-ipv6-parser",
        }
    }
}

/// The step of the standard a host sub-step ([`HostEvent`]) took: the algorithm, the step's
/// number as the standard numbers it today, the link to the algorithm, and the explanation with
/// the event's data filled in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostStep {
    pub algorithm: HostAlgorithm,
    /// The step's number, e.g. `"6.5.5.5"`.
    pub number: &'static str,
    /// The link to the algorithm, e.g. `https://url.spec.whatwg.org/#concept-ipv6-parser`.
    pub link: Link,
    /// What the step did, in plain words, with the event's data (`"0x7f" starts with 0x, so it
    /// is read in radix 16: 127 …`).
    pub explanation: String,
}

impl HostStep {
    /// The algorithm's name, e.g. `"IPv4 number parser"`.
    pub const fn name(&self) -> &'static str {
        self.algorithm.name()
    }
}

/// The host sub-steps of one trace step explained, one per event, in order; `input` is the
/// trace's input (`Trace::input`). `None` only for an event whose step cannot be told, which
/// the tests forbid. [`crate::trace::StepView::host_steps`] calls it on a step's view.
///
/// An event is explained with what came before it in the same step: which piece an IPv4 part
/// inside an IPv6 address fills, and, for [`HostEvent::Failure`], which step returned failure
/// (told by the events before it and by the validation error the failing step raised).
pub fn explain_host_events(
    events: &[HostEvent],
    errors: &[&ValidationError],
    input: &str,
) -> Vec<Option<HostStep>> {
    (0..events.len())
        .map(|i| host_step(&events[i], &events[..i], errors, input))
        .collect()
}

/// The step for an entry of the table, with `{name}` filled from `data`. `None` when the table
/// has no entry or a name is left without a value.
fn step(
    algorithm: HostAlgorithm,
    number: &'static str,
    data: &[(&str, String)],
) -> Option<HostStep> {
    let template = explanation(Section::Host(algorithm), number)?;
    let mut text = String::with_capacity(template.len() + 32);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let close = open + rest[open..].find('}')?;
        let name = &rest[open + 1..close];
        let (_, value) = data.iter().find(|(n, _)| *n == name)?;
        text.push_str(&rest[..open]);
        text.push_str(value);
        rest = &rest[close + 1..];
    }
    text.push_str(rest);
    Some(HostStep {
        algorithm,
        number,
        link: Link(algorithm.anchor()),
        explanation: text,
    })
}

/// The names an entry's explanation leaves to the event's data (`{text}`).
pub fn placeholders(template: &str) -> impl Iterator<Item = &str> {
    template
        .split('{')
        .skip(1)
        .filter_map(|after| after.split_once('}').map(|(name, _)| name))
}

/// A code point as the explanations show it: quoted, or as U+XXXX when it is not visible.
fn shown(c: char) -> String {
    if c.is_control() || c.is_whitespace() || c == '\u{AD}' {
        format!("U+{:04X}", u32::from(c))
    } else {
        format!("\"{c}\"")
    }
}

/// `n` things: "no piece", "1 piece", "3 pieces".
fn count(n: usize, one: &str, many: &str) -> String {
    match n {
        0 => format!("no {one}"),
        1 => format!("1 {one}"),
        _ => format!("{n} {many}"),
    }
}

/// A number the IPv4 number parser made (saturated at `u64::MAX`).
fn ipv4_value(value: u64) -> String {
    match value {
        u64::MAX => format!("at least {value}"),
        _ => value.to_string(),
    }
}

/// The code point of `input` that an error's span starts at, as a reader sees it: quoted, or
/// "the end of the address" for an empty span (EOF).
fn found_at(input: &str, error: &ValidationError) -> String {
    match input.chars().nth(error.span.start) {
        Some(c) if error.span.end > error.span.start => shown(c),
        _ => "the end of the address".to_owned(),
    }
}

/// The code point before an error's span, skipping the tabs and newlines the parser removed.
fn before(input: &str, error: &ValidationError) -> Option<char> {
    input
        .chars()
        .take(error.span.start)
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .last()
}

/// The last error of one of `kinds`.
fn last_error<'e>(
    errors: &[&'e ValidationError],
    kinds: &[ValidationErrorKind],
) -> Option<&'e ValidationError> {
    errors
        .iter()
        .rev()
        .find(|e| kinds.contains(&e.kind))
        .copied()
}

/// The IPv6 parser's pieceIndex after `events`, and how many parts of an IPv4 address inside
/// it (numbersSeen) it has read.
fn ipv6_position(events: &[HostEvent]) -> (usize, usize) {
    let mut piece_index = 0;
    let mut numbers_seen = 0;
    for event in events {
        match event {
            HostEvent::Ipv6Compress { piece_index: index } => piece_index = *index,
            HostEvent::Ipv6Piece { index, .. } => piece_index = index + 1,
            // Step 6.5.5.7: every second IPv4 part completes a piece.
            HostEvent::Ipv4InIpv6Part { .. } => {
                numbers_seen += 1;
                if numbers_seen % 2 == 0 {
                    piece_index += 1;
                }
            }
            _ => {}
        }
    }
    (piece_index, numbers_seen)
}

/// The last label the ends in a number checker looks at (URL Standard: its steps 2 to 4).
fn last_label(input: &str) -> &str {
    let trimmed = match input.strip_suffix('.') {
        Some(rest) if !rest.is_empty() => rest,
        _ => input,
    };
    trimmed.rsplit('.').next().unwrap_or("")
}

fn host_step(
    event: &HostEvent,
    before_it: &[HostEvent],
    errors: &[&ValidationError],
    input: &str,
) -> Option<HostStep> {
    match event {
        HostEvent::Ipv6Input { input } => step(HostParser, "1", &[("input", input.clone())]),
        HostEvent::OpaqueHost { input, output } => step(
            OpaqueHostParser,
            "4",
            &[("input", input.clone()), ("output", output.clone())],
        ),
        HostEvent::PercentDecoded { input, domain } => step(
            HostParser,
            "5",
            &[("input", input.clone()), ("domain", domain.clone())],
        ),
        HostEvent::DomainToAscii {
            strict,
            input,
            output,
            ..
        } => {
            let number = match (strict, output) {
                (true, Some(_)) => "1",
                (true, None) => "2",
                (false, Some(_)) => "6.1",
                (false, None) => "6.2",
            };
            let output = output.clone().unwrap_or_default();
            step(
                DomainParser,
                number,
                &[("input", input.clone()), ("output", output)],
            )
        }
        HostEvent::AsciiLowercase { output } => {
            step(DomainParser, "5", &[("output", output.clone())])
        }
        HostEvent::IdnaLabel { unicode, ascii } => step(
            DomainToUnicode,
            "1",
            &[("unicode", unicode.clone()), ("ascii", ascii.clone())],
        ),
        HostEvent::EndsInANumber { input, result } => {
            let last = last_label(input);
            let number = match result {
                false => "7",
                true if last.bytes().all(|b| b.is_ascii_digit()) => "5",
                true => "6",
            };
            step(
                EndsInANumberChecker,
                number,
                &[("input", input.clone()), ("last", last.to_owned())],
            )
        }
        HostEvent::Ipv4Part { text, value, .. } => {
            // The radix as the IPv4 number parser's steps 3 to 5 choose it (the event records
            // 10 for a part that is not a number).
            let bytes = text.as_bytes();
            let (digits, radix, number) = if text.starts_with("0x") || text.starts_with("0X") {
                (&text[2..], 16, "4")
            } else if bytes.len() >= 2 && bytes[0] == b'0' {
                (&text[1..], 8, "5")
            } else {
                (&text[..], 10, "3")
            };
            let number = match value {
                _ if text.is_empty() => "1",
                None => "7",
                Some(_) if digits.is_empty() => "6",
                Some(_) => number,
            };
            let found = digits
                .chars()
                .find(|c| c.to_digit(radix).is_none())
                .map(shown)
                .unwrap_or_default();
            step(
                Ipv4NumberParser,
                number,
                &[
                    ("text", text.clone()),
                    ("value", value.map(ipv4_value).unwrap_or_default()),
                    ("radix", radix.to_string()),
                    ("found", found),
                ],
            )
        }
        HostEvent::Ipv4Address { address } => {
            let parts: Vec<u64> = ipv4_parts(before_it)
                .iter()
                .filter_map(|(_, value)| *value)
                .collect();
            // Steps 10 to 13: the last part fills the bytes the others leave.
            let how = match parts.len() {
                1 => " A single part fills all 4 bytes.".to_owned(),
                2 | 3 => format!(
                    " With {} parts, the last one fills the last {} bytes.",
                    parts.len(),
                    5 - parts.len()
                ),
                _ => String::new(),
            };
            let dotted = UrlHost::Ipv4(*address).to_string();
            step(
                Ipv4Parser,
                "14",
                &[
                    ("address", address.to_string()),
                    ("dotted", dotted),
                    ("how", how),
                ],
            )
        }
        HostEvent::Ipv6Piece { index, text, value } => step(
            Ipv6Parser,
            "6.9",
            &[
                ("text", text.clone()),
                ("hex", format!("{value:#x} ({value})")),
                ("index", index.to_string()),
            ],
        ),
        HostEvent::Ipv6Compress { piece_index } => {
            // Step 5 when the address starts with "::": no piece came before it.
            let leading = !before_it
                .iter()
                .any(|e| matches!(e, HostEvent::Ipv6Piece { .. }));
            let number = if leading { "5.3" } else { "6.2.2" };
            step(
                Ipv6Parser,
                number,
                &[
                    ("piece_index", piece_index.to_string()),
                    ("skipped", piece_index.saturating_sub(1).to_string()),
                ],
            )
        }
        HostEvent::Ipv4InIpv6Part { text, value } => {
            let (piece, seen) = ipv6_position(before_it);
            let half = if seen % 2 == 0 { "high" } else { "low" };
            step(
                Ipv6Parser,
                "6.5.5.5",
                &[
                    ("text", text.clone()),
                    ("value", value.to_string()),
                    ("half", half.to_owned()),
                    ("piece", piece.to_string()),
                ],
            )
        }
        HostEvent::Ipv6Swap { swaps, compress } => step(
            Ipv6Parser,
            "7.3",
            // "::" left piece compress − 1 at 0 (steps 5.3 and 6.2.2), and the swaps leave the
            // pieces up to 7 − swaps at 0.
            &[
                ("moved", count(*swaps, "piece", "pieces")),
                ("first", compress.saturating_sub(1).to_string()),
                ("last", (7usize.saturating_sub(*swaps)).to_string()),
            ],
        ),
        HostEvent::Ipv6Address { pieces } => step(
            Ipv6Parser,
            "9",
            &[("address", UrlHost::Ipv6(*pieces).to_string())],
        ),
        HostEvent::Failure => failure_step(before_it, errors, input),
    }
}

/// Each IPv4 part the IPv4 parser read since the ends in a number checker said yes.
fn ipv4_parts(events: &[HostEvent]) -> Vec<(&str, Option<u64>)> {
    let from = events
        .iter()
        .rposition(|e| matches!(e, HostEvent::EndsInANumber { .. }))
        .map_or(0, |i| i + 1);
    events[from..]
        .iter()
        .filter_map(|e| match e {
            HostEvent::Ipv4Part { text, value, .. } => Some((text.as_str(), *value)),
            _ => None,
        })
        .collect()
}

/// The step that returned failure: which algorithm failed is told by the events before the
/// failure; which of its steps, by the events or by the validation error that step raised.
fn failure_step(
    before_it: &[HostEvent],
    errors: &[&ValidationError],
    input: &str,
) -> Option<HostStep> {
    use ValidationErrorKind as E;
    let ipv6 = before_it
        .iter()
        .any(|e| matches!(e, HostEvent::Ipv6Input { .. }));
    let ipv4 = before_it
        .iter()
        .any(|e| matches!(e, HostEvent::EndsInANumber { result: true, .. }));
    let domain = before_it.iter().find_map(|e| match e {
        HostEvent::DomainToAscii { input, .. } => Some(input.clone()),
        _ => None,
    });
    if ipv6 {
        let (piece_index, ipv4_parts) = ipv6_position(before_it);
        let error = last_error(
            errors,
            &[
                E::Ipv6Unclosed,
                E::Ipv6InvalidCompression,
                E::Ipv6TooManyPieces,
                E::Ipv6MultipleCompression,
                E::Ipv4InIpv6InvalidCodePoint,
                E::Ipv4InIpv6TooManyPieces,
                E::Ipv4InIpv6OutOfRangePart,
                E::Ipv4InIpv6TooFewParts,
                E::Ipv6InvalidCodePoint,
                E::Ipv6TooFewPieces,
            ],
        )?;
        let found = found_at(input, error);
        let (algorithm, number) = match error.kind {
            E::Ipv6Unclosed => (HostParser, "1.1"),
            E::Ipv6InvalidCompression => (Ipv6Parser, "5.1"),
            E::Ipv6TooManyPieces => (Ipv6Parser, "6.1"),
            E::Ipv6MultipleCompression => (Ipv6Parser, "6.2.1"),
            E::Ipv4InIpv6TooManyPieces => (Ipv6Parser, "6.5.3"),
            E::Ipv4InIpv6OutOfRangePart => (Ipv6Parser, "6.5.5.4.5"),
            E::Ipv4InIpv6TooFewParts => (Ipv6Parser, "6.5.6"),
            // Four steps raise this error; the code point it points at tells them apart. A
            // leading zero (step 6.5.5.4.3) points at the "0"; the others at a non-digit: with
            // no part read yet, a "." (step 6.5.1) or the hex letter the pointer went back to
            // (step 6.5.5.3); after a part, the code point after a "." (step 6.5.5.3), or the
            // one right after the part's digits (step 6.5.5.2.2).
            E::Ipv4InIpv6InvalidCodePoint => {
                let number = match found.as_str() {
                    "\"0\"" => "6.5.5.4.3",
                    "\".\"" if ipv4_parts == 0 => "6.5.1",
                    _ if ipv4_parts == 0 => "6.5.5.3",
                    _ if before(input, error) == Some('.') => "6.5.5.3",
                    _ => "6.5.5.2.2",
                };
                (Ipv6Parser, number)
            }
            // Step 6.6.2 fails at EOF, step 6.7 at a code point.
            E::Ipv6InvalidCodePoint if error.span.end == error.span.start => (Ipv6Parser, "6.6.2"),
            E::Ipv6InvalidCodePoint => (Ipv6Parser, "6.7"),
            E::Ipv6TooFewPieces => (Ipv6Parser, "8"),
            _ => return None,
        };
        return step(
            algorithm,
            number,
            &[
                ("found", found),
                ("parts", ipv4_parts.to_string()),
                ("pieces", piece_index.to_string()),
            ],
        );
    }
    if ipv4 {
        let input_of = before_it.iter().rev().find_map(|e| match e {
            HostEvent::EndsInANumber { input, .. } => Some(input.clone()),
            _ => None,
        });
        let parts = ipv4_parts(before_it);
        let number;
        let mut data = vec![("input", input_of.unwrap_or_default())];
        match parts.last() {
            None => number = "4",
            Some((text, None)) => {
                number = "6.2";
                data.push(("text", (*text).to_owned()));
            }
            Some(_) => {
                let values: Vec<u64> = parts.iter().filter_map(|(_, v)| *v).collect();
                let (last, init) = values.split_last()?;
                if let Some(big) = init.iter().find(|v| **v > 255) {
                    number = "8";
                    data.push(("value", ipv4_value(*big)));
                } else {
                    number = "9";
                    let bytes = 5 - values.len() as u32;
                    data.push(("value", ipv4_value(*last)));
                    data.push(("bytes", bytes.to_string()));
                    data.push(("limit", 256u64.pow(bytes).to_string()));
                }
            }
        }
        return step(Ipv4Parser, number, &data);
    }
    if let Some(domain) = domain {
        // The domain parser's relaxed ToASCII failed (its step 6.2, cited by that event; the
        // host parser's step 7 returns the failure), or its result is empty (step 7) or has a
        // forbidden domain code point (step 8). An ASCII domain's result is its lowercasing.
        let mut result = None;
        for event in before_it {
            match event {
                HostEvent::DomainToAscii {
                    strict: false,
                    output,
                    ..
                } => result = Some(output.clone()),
                HostEvent::AsciiLowercase { output } => result = Some(Some(output.clone())),
                _ => {}
            }
        }
        return match result? {
            None => step(HostParser, "7", &[("domain", domain)]),
            Some(result) if result.is_empty() => step(DomainParser, "7", &[("input", domain)]),
            Some(result) => {
                let found = result
                    .chars()
                    .find(|c| is_forbidden_domain_code_point(*c))
                    .map(shown)?;
                step(DomainParser, "8", &[("output", result), ("found", found)])
            }
        };
    }
    // The opaque-host parser's step 1 is its only failure.
    let error = last_error(errors, &[E::HostInvalidCodePoint])?;
    step(OpaqueHostParser, "1", &[("found", found_at(input, error))])
}
