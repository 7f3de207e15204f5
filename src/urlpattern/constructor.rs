//! URL Pattern Standard: 2.3 Constructor string parsing. A state machine over the lenient
//! token list that splits a pattern string such as `https://*.example.com/:id` into the
//! components of a URLPatternInit. Each step can be recorded by a [`ConstructorTracer`]; the
//! no-op tracer compiles the recording away.

use std::fmt;

use super::canonicalize::Callback;
use super::component::compile_component;
use super::parser::Options;
use super::tokenizer::{tokenize, Policy, Token, TokenType};
use super::{protocol_component_matches_a_special_scheme, ComponentName, Error, UrlPatternInit};

/// The constructor string parser's state, named as the standard names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParserState {
    Init,
    Protocol,
    Authority,
    Username,
    Password,
    Hostname,
    Port,
    Pathname,
    Search,
    Hash,
    Done,
}

impl ParserState {
    pub const ALL: [ParserState; 11] = [
        ParserState::Init,
        ParserState::Protocol,
        ParserState::Authority,
        ParserState::Username,
        ParserState::Password,
        ParserState::Hostname,
        ParserState::Port,
        ParserState::Pathname,
        ParserState::Search,
        ParserState::Hash,
        ParserState::Done,
    ];

    /// The state's name in the standard, e.g. `"authority"`.
    pub const fn name(self) -> &'static str {
        match self {
            ParserState::Init => "init",
            ParserState::Protocol => "protocol",
            ParserState::Authority => "authority",
            ParserState::Username => "username",
            ParserState::Password => "password",
            ParserState::Hostname => "hostname",
            ParserState::Port => "port",
            ParserState::Pathname => "pathname",
            ParserState::Search => "search",
            ParserState::Hash => "hash",
            ParserState::Done => "done",
        }
    }

    /// The component a state collects, for the states that collect one.
    pub const fn component(self) -> Option<ComponentName> {
        match self {
            ParserState::Protocol => Some(ComponentName::Protocol),
            ParserState::Username => Some(ComponentName::Username),
            ParserState::Password => Some(ComponentName::Password),
            ParserState::Hostname => Some(ComponentName::Hostname),
            ParserState::Port => Some(ComponentName::Port),
            ParserState::Pathname => Some(ComponentName::Pathname),
            ParserState::Search => Some(ComponentName::Search),
            ParserState::Hash => Some(ComponentName::Hash),
            ParserState::Init | ParserState::Authority | ParserState::Done => None,
        }
    }
}

impl fmt::Display for ParserState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} state", self.name())
    }
}

/// What one iteration of the parse loop did, named after the standard's steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Nothing: the token belongs to the current component.
    Continue,
    /// The end in the init state: no protocol terminator was found, so the string is
    /// relative, and parsing restarts at its hash, search or pathname.
    RelativeAtEnd,
    /// The end in the authority state: no `@`, so there is no username or password.
    NoIdentityAtEnd,
    /// The end: the last component is collected.
    End,
    /// A `{`: code points inside groups are never component boundaries.
    GroupOpen,
    /// Inside a group.
    InsideGroup,
    /// A `}` closing a group.
    GroupClose,
    /// A protocol suffix `:` seen in the init state: rewind and collect the protocol.
    ProtocolSuffix,
    /// A protocol suffix ending the protocol; `authority` tells if an authority follows.
    EndProtocol {
        special: bool,
        authority_slashes: bool,
    },
    /// An `@` in the authority state: rewind and collect a username.
    IdentityTerminator,
    /// A `/`, `?` or `#` in the authority state: rewind and collect a hostname.
    AuthorityHasNoIdentity,
    /// The component ends at a delimiter (the states' own steps).
    ChangeState,
    /// A `[` or `]` in the hostname, where a `:` is not a port prefix.
    Ipv6Bracket,
}

impl Action {
    /// Where the standard says it: the step of "parse a constructor string".
    pub const fn citation(self) -> &'static str {
        match self {
            Action::Continue => "parse a constructor string, step 2.6",
            Action::RelativeAtEnd => "parse a constructor string, step 2.2.1",
            Action::NoIdentityAtEnd => "parse a constructor string, step 2.2.2",
            Action::End => "parse a constructor string, step 2.2.3",
            Action::GroupOpen => "parse a constructor string, step 2.3",
            Action::InsideGroup | Action::GroupClose => "parse a constructor string, step 2.4",
            Action::ProtocolSuffix => "parse a constructor string, step 2.5 (init)",
            Action::EndProtocol { .. } => "parse a constructor string, step 2.5 (protocol)",
            Action::IdentityTerminator | Action::AuthorityHasNoIdentity => {
                "parse a constructor string, step 2.5 (authority)"
            }
            Action::ChangeState => "parse a constructor string, step 2.5",
            Action::Ipv6Bracket => "parse a constructor string, step 2.5 (hostname)",
        }
    }

    /// Why the step does what it does.
    pub const fn explanation(self) -> &'static str {
        match self {
            Action::Continue => "the token belongs to the component being collected",
            Action::RelativeAtEnd => {
                "the end came in the init state: no protocol suffix, so this is a relative \
                 pattern; rewind and start at the hash, the search or the pathname"
            }
            Action::NoIdentityAtEnd => {
                "the end came in the authority state without an \"@\": there is no username \
                 or password, so rewind and collect the hostname"
            }
            Action::End => "the end: the component being collected ends here",
            Action::GroupOpen => "a \"{\" opens a group; no component boundary lies inside a group",
            Action::InsideGroup => "inside a group: skipped",
            Action::GroupClose => "a \"}\" closes the group",
            Action::ProtocolSuffix => {
                "a \":\" outside a group: what came before is a protocol, so rewind and \
                 collect it"
            }
            Action::EndProtocol {
                special: true,
                authority_slashes: false,
            } => {
                "the protocol matches a special scheme, so an authority follows even \
                 without \"//\""
            }
            Action::EndProtocol {
                authority_slashes: true,
                ..
            } => "\"//\" after the protocol: an authority follows",
            Action::EndProtocol { .. } => {
                "no \"//\" and the protocol matches no special scheme: an opaque pathname \
                 follows"
            }
            Action::IdentityTerminator => {
                "an \"@\" in the authority: rewind and collect a username"
            }
            Action::AuthorityHasNoIdentity => {
                "a \"/\", \"?\" or \"#\" before any \"@\": the authority has no username or \
                 password, so rewind and collect the hostname"
            }
            Action::ChangeState => "a delimiter ends the component; the next one starts after it",
            Action::Ipv6Bracket => "an IPv6 bracket: a \":\" inside brackets is not a port prefix",
        }
    }
}

/// One recorded iteration of the parse loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConstructorStep {
    /// The token index when the iteration began, and the token there.
    pub token_index: usize,
    pub token: Token,
    pub state: ParserState,
    pub action: Action,
    /// The state after the iteration.
    pub next_state: ParserState,
    /// The components the iteration set in the result, with their values.
    pub set: Vec<(ComponentName, String)>,
}

/// Receives the constructor string parser's steps. `ENABLED = false` compiles the recording
/// out, as the basic URL parser's tracer does.
pub trait ConstructorTracer {
    const ENABLED: bool;
    #[inline(always)]
    fn step(&mut self, _step: ConstructorStep) {}
}

/// Records nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoConstructorTrace;

impl ConstructorTracer for NoConstructorTrace {
    const ENABLED: bool = false;
}

/// Records every step.
#[derive(Clone, Debug, Default)]
pub struct ConstructorRecorder {
    pub steps: Vec<ConstructorStep>,
}

impl ConstructorTracer for ConstructorRecorder {
    const ENABLED: bool = true;
    fn step(&mut self, step: ConstructorStep) {
        self.steps.push(step);
    }
}

/// The constructor string parser.
struct ConstructorParser {
    input: Vec<char>,
    token_list: Vec<Token>,
    result: UrlPatternInit,
    component_start: usize,
    token_index: usize,
    token_increment: usize,
    group_depth: usize,
    hostname_ipv6_bracket_depth: isize,
    protocol_matches_a_special_scheme_flag: bool,
    state: ParserState,
    /// What each component held before the iteration that set it (`None` for one it has not
    /// set), for the trace's `set`: taken as components are set, where a copy of the result
    /// before every iteration took time quadratic in a long pattern (a hostname collected,
    /// then copied at each token of the pathname).
    before: [Option<Option<String>>; 8],
}

/// URL Pattern Standard: parse a constructor string.
pub fn parse_constructor_string<T: ConstructorTracer>(
    input: &str,
    tracer: &mut T,
) -> Result<UrlPatternInit, Error> {
    let mut p = ConstructorParser {
        input: input.chars().collect(),
        token_list: tokenize(input, Policy::Lenient)?,
        result: UrlPatternInit::default(),
        component_start: 0,
        token_index: 0,
        token_increment: 1,
        group_depth: 0,
        hostname_ipv6_bracket_depth: 0,
        protocol_matches_a_special_scheme_flag: false,
        state: ParserState::Init,
        before: Default::default(),
    };
    // Step 2.
    while p.token_index < p.token_list.len() {
        let before = if T::ENABLED {
            Some((p.token_index, p.state))
        } else {
            None
        };
        let action = p.iterate()?;
        if let Some((token_index, state)) = before {
            let set = ComponentName::ALL
                .iter()
                .filter_map(|&c| {
                    let before = p.before[c as usize].take()?;
                    let now = p.result.get(c)?;
                    (before.as_deref() != Some(now)).then(|| (c, now.to_owned()))
                })
                .collect();
            tracer.step(ConstructorStep {
                token_index,
                token: p.token_list[token_index].clone(),
                state,
                action,
                next_state: p.state,
                set,
            });
        }
        if p.state == ParserState::Done {
            break;
        }
    }
    // Step 3: a hostname without a port means the default port.
    if p.result.hostname.is_some() && p.result.port.is_none() {
        p.result.port = Some(String::new());
    }
    Ok(p.result)
}

impl ConstructorParser {
    /// One iteration of step 2; the token index moves on by the token increment at its end.
    fn iterate(&mut self) -> Result<Action, Error> {
        // Step 2.1.
        self.token_increment = 1;
        let token = &self.token_list[self.token_index];
        // Step 2.2.
        if token.kind == TokenType::End {
            if self.state == ParserState::Init {
                self.rewind();
                if self.is_hash_prefix() {
                    self.change_state(ParserState::Hash, 1);
                } else if self.is_search_prefix() {
                    self.change_state(ParserState::Search, 1);
                } else {
                    self.change_state(ParserState::Pathname, 0);
                }
                self.token_index += self.token_increment;
                return Ok(Action::RelativeAtEnd);
            }
            if self.state == ParserState::Authority {
                self.rewind_and_set_state(ParserState::Hostname);
                self.token_index += self.token_increment;
                return Ok(Action::NoIdentityAtEnd);
            }
            self.change_state(ParserState::Done, 0);
            return Ok(Action::End);
        }
        // Step 2.3.
        if self.is_group_open() {
            self.group_depth += 1;
            self.token_index += self.token_increment;
            return Ok(Action::GroupOpen);
        }
        // Step 2.4.
        if self.group_depth > 0 {
            if self.is_group_close() {
                self.group_depth -= 1;
            } else {
                self.token_index += self.token_increment;
                return Ok(Action::InsideGroup);
            }
        }
        let closed_group = self.group_depth == 0 && self.is_group_close();
        let before = self.state;
        // Step 2.5.
        let mut action = Action::Continue;
        match self.state {
            ParserState::Init => {
                if self.is_protocol_suffix() {
                    self.rewind_and_set_state(ParserState::Protocol);
                    action = Action::ProtocolSuffix;
                }
            }
            ParserState::Protocol => {
                if self.is_protocol_suffix() {
                    self.compute_protocol_matches_a_special_scheme_flag()?;
                    let mut next_state = ParserState::Pathname;
                    let mut skip = 1;
                    let authority_slashes = self.next_is_authority_slashes();
                    if authority_slashes {
                        next_state = ParserState::Authority;
                        skip = 3;
                    } else if self.protocol_matches_a_special_scheme_flag {
                        next_state = ParserState::Authority;
                    }
                    self.change_state(next_state, skip);
                    action = Action::EndProtocol {
                        special: self.protocol_matches_a_special_scheme_flag,
                        authority_slashes,
                    };
                }
            }
            ParserState::Authority => {
                if self.is_identity_terminator() {
                    self.rewind_and_set_state(ParserState::Username);
                    action = Action::IdentityTerminator;
                } else if self.is_pathname_start()
                    || self.is_search_prefix()
                    || self.is_hash_prefix()
                {
                    self.rewind_and_set_state(ParserState::Hostname);
                    action = Action::AuthorityHasNoIdentity;
                }
            }
            ParserState::Username => {
                if self.is_password_prefix() {
                    self.change_state(ParserState::Password, 1);
                } else if self.is_identity_terminator() {
                    self.change_state(ParserState::Hostname, 1);
                }
            }
            ParserState::Password => {
                if self.is_identity_terminator() {
                    self.change_state(ParserState::Hostname, 1);
                }
            }
            ParserState::Hostname => {
                if self.is_ipv6_open() {
                    self.hostname_ipv6_bracket_depth += 1;
                    action = Action::Ipv6Bracket;
                } else if self.is_ipv6_close() {
                    self.hostname_ipv6_bracket_depth -= 1;
                    action = Action::Ipv6Bracket;
                } else if self.is_port_prefix() && self.hostname_ipv6_bracket_depth == 0 {
                    self.change_state(ParserState::Port, 1);
                } else if self.is_pathname_start() {
                    self.change_state(ParserState::Pathname, 0);
                } else if self.is_search_prefix() {
                    self.change_state(ParserState::Search, 1);
                } else if self.is_hash_prefix() {
                    self.change_state(ParserState::Hash, 1);
                }
            }
            ParserState::Port => {
                if self.is_pathname_start() {
                    self.change_state(ParserState::Pathname, 0);
                } else if self.is_search_prefix() {
                    self.change_state(ParserState::Search, 1);
                } else if self.is_hash_prefix() {
                    self.change_state(ParserState::Hash, 1);
                }
            }
            ParserState::Pathname => {
                if self.is_search_prefix() {
                    self.change_state(ParserState::Search, 1);
                } else if self.is_hash_prefix() {
                    self.change_state(ParserState::Hash, 1);
                }
            }
            ParserState::Search => {
                if self.is_hash_prefix() {
                    self.change_state(ParserState::Hash, 1);
                }
            }
            ParserState::Hash => {}
            ParserState::Done => unreachable!("the loop ends in the done state"),
        }
        if action == Action::Continue && self.state != before {
            action = Action::ChangeState;
        }
        if action == Action::Continue && closed_group {
            action = Action::GroupClose;
        }
        // Step 2.6.
        self.token_index += self.token_increment;
        Ok(action)
    }

    /// URL Pattern Standard: change state.
    fn change_state(&mut self, new_state: ParserState, skip: usize) {
        // Step 1: the component being collected ends here.
        if let Some(component) = self.state.component() {
            let value = self.make_a_component_string();
            self.set(component, value);
        }
        // Step 2: components skipped over are empty (or "/" for a special pathname).
        if self.state != ParserState::Init && new_state != ParserState::Done {
            use ParserState as S;
            if matches!(
                self.state,
                S::Protocol | S::Authority | S::Username | S::Password
            ) && matches!(new_state, S::Port | S::Pathname | S::Search | S::Hash)
                && self.result.hostname.is_none()
            {
                self.set(ComponentName::Hostname, String::new());
            }
            if matches!(
                self.state,
                S::Protocol | S::Authority | S::Username | S::Password | S::Hostname | S::Port
            ) && matches!(new_state, S::Search | S::Hash)
                && self.result.pathname.is_none()
            {
                let pathname = if self.protocol_matches_a_special_scheme_flag {
                    "/".to_owned()
                } else {
                    String::new()
                };
                self.set(ComponentName::Pathname, pathname);
            }
            if matches!(
                self.state,
                S::Protocol
                    | S::Authority
                    | S::Username
                    | S::Password
                    | S::Hostname
                    | S::Port
                    | S::Pathname
            ) && new_state == S::Hash
                && self.result.search.is_none()
            {
                self.set(ComponentName::Search, String::new());
            }
        }
        // Steps 3-6.
        self.state = new_state;
        self.token_index += skip;
        self.component_start = self.token_index;
        self.token_increment = 0;
    }

    /// Sets a component of the result, keeping what it held before for the trace.
    fn set(&mut self, component: ComponentName, value: String) {
        let before = &mut self.before[component as usize];
        if before.is_none() {
            *before = Some(self.result.get(component).map(str::to_owned));
        }
        self.result.set(component, value);
    }

    fn rewind(&mut self) {
        self.token_index = self.component_start;
        self.token_increment = 0;
    }

    fn rewind_and_set_state(&mut self, state: ParserState) {
        self.rewind();
        self.state = state;
    }

    /// URL Pattern Standard: get a safe token (the end token past the list's end).
    fn get_a_safe_token(&self, index: usize) -> &Token {
        self.token_list
            .get(index)
            .unwrap_or_else(|| &self.token_list[self.token_list.len() - 1])
    }

    /// URL Pattern Standard: is a non-special pattern char.
    fn is_non_special_pattern_char(&self, index: usize, value: &str) -> bool {
        let token = self.get_a_safe_token(index);
        token.value == value
            && matches!(
                token.kind,
                TokenType::Char | TokenType::EscapedChar | TokenType::InvalidChar
            )
    }

    fn is_protocol_suffix(&self) -> bool {
        self.is_non_special_pattern_char(self.token_index, ":")
    }

    fn next_is_authority_slashes(&self) -> bool {
        self.is_non_special_pattern_char(self.token_index + 1, "/")
            && self.is_non_special_pattern_char(self.token_index + 2, "/")
    }

    fn is_identity_terminator(&self) -> bool {
        self.is_non_special_pattern_char(self.token_index, "@")
    }

    fn is_password_prefix(&self) -> bool {
        self.is_non_special_pattern_char(self.token_index, ":")
    }

    fn is_port_prefix(&self) -> bool {
        self.is_non_special_pattern_char(self.token_index, ":")
    }

    fn is_pathname_start(&self) -> bool {
        self.is_non_special_pattern_char(self.token_index, "/")
    }

    /// URL Pattern Standard: is a search prefix. A `?` token that is a modifier (after a name,
    /// a regexp, a `}` or a `*`) is not one.
    fn is_search_prefix(&self) -> bool {
        if self.is_non_special_pattern_char(self.token_index, "?") {
            return true;
        }
        if self.token_list[self.token_index].value != "?" {
            return false;
        }
        let Some(previous_index) = self.token_index.checked_sub(1) else {
            return true;
        };
        let previous = self.get_a_safe_token(previous_index);
        !matches!(
            previous.kind,
            TokenType::Name | TokenType::Regexp | TokenType::Close | TokenType::Asterisk
        )
    }

    fn is_hash_prefix(&self) -> bool {
        self.is_non_special_pattern_char(self.token_index, "#")
    }

    fn is_group_open(&self) -> bool {
        self.token_list[self.token_index].kind == TokenType::Open
    }

    fn is_group_close(&self) -> bool {
        self.token_list[self.token_index].kind == TokenType::Close
    }

    fn is_ipv6_open(&self) -> bool {
        self.is_non_special_pattern_char(self.token_index, "[")
    }

    fn is_ipv6_close(&self) -> bool {
        self.is_non_special_pattern_char(self.token_index, "]")
    }

    /// URL Pattern Standard: make a component string: the input from the component's first
    /// token to the current one.
    fn make_a_component_string(&self) -> String {
        let token = &self.token_list[self.token_index];
        let start = self.get_a_safe_token(self.component_start).index;
        self.input[start..token.index].iter().collect()
    }

    /// URL Pattern Standard: compute protocol matches a special scheme flag. The protocol is
    /// compiled early because a special one implies an authority and a "/" pathname.
    fn compute_protocol_matches_a_special_scheme_flag(&mut self) -> Result<(), Error> {
        let protocol_string = self.make_a_component_string();
        let protocol_component = compile_component(
            ComponentName::Protocol,
            &protocol_string,
            Callback::Protocol,
            Options::DEFAULT,
        )?;
        if protocol_component_matches_a_special_scheme(&protocol_component)? {
            self.protocol_matches_a_special_scheme_flag = true;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A step's token index, and a component it set with its value.
    type Set = (usize, ComponentName, String);

    /// The components each step set, with their values, in the order of the steps.
    fn sets(input: &str) -> (Vec<Set>, UrlPatternInit) {
        let mut recorder = ConstructorRecorder::default();
        let init = parse_constructor_string(input, &mut recorder).expect("parses");
        let sets = recorder
            .steps
            .into_iter()
            .flat_map(|step| {
                step.set
                    .into_iter()
                    .map(move |(c, v)| (step.token_index, c, v))
            })
            .collect();
        (sets, init)
    }

    /// A step's `set` is what it changed in the result: each component at the step that ended
    /// it, and those a change of state skipped over (a search before a hash).
    #[test]
    fn each_step_says_what_it_set() {
        use ComponentName as C;
        type Expected<'a> = &'a [(usize, ComponentName, &'a str)];
        let cases: [(&str, Expected); 3] = [
            (
                "https://user:pass@e.com:8080/a/:b?q=1#h",
                &[
                    (5, C::Protocol, "https"),
                    (13, C::Username, "user:pass"),
                    (19, C::Hostname, "e.com"),
                    (24, C::Port, "8080"),
                    (32, C::Pathname, "/a/:b?q=1"),
                    (32, C::Search, ""),
                    (34, C::Hash, "h"),
                ],
            ),
            (
                "https://e.com/p",
                &[
                    (5, C::Protocol, "https"),
                    (13, C::Hostname, "e.com"),
                    (15, C::Pathname, "/p"),
                ],
            ),
            (
                "/books#top",
                &[
                    (6, C::Pathname, "/books"),
                    (6, C::Search, ""),
                    (10, C::Hash, "top"),
                ],
            ),
        ];
        for (input, expected) in cases {
            let (set, init) = sets(input);
            let expected: Vec<_> = expected
                .iter()
                .map(|&(i, c, v)| (i, c, v.to_owned()))
                .collect();
            assert_eq!(set, expected, "{input}");
            for (_, c, v) in &set {
                assert_eq!(init.get(*c), Some(v.as_str()), "{input}");
            }
        }
    }
}
