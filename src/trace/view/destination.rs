//! Where each code point of the input ended up: the field of the URL record it was written
//! into, read from the trace's edits (which buffer code point each one came from, and which
//! field the buffer went into), never guessed from the state that read it.

use super::super::recorder::{At, Event, Field, Op};
use super::{PointerMove, Trace};
use crate::url::record::{Host, Path};
use crate::url::state::{Phase, State};

/// A field of the URL record (URL Standard: 4.1 URL representation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Destination {
    Scheme,
    Username,
    Password,
    Host,
    Port,
    Path,
    Query,
    Fragment,
}

impl Destination {
    pub const fn name(self) -> &'static str {
        match self {
            Destination::Scheme => "scheme",
            Destination::Username => "username",
            Destination::Password => "password",
            Destination::Host => "host",
            Destination::Port => "port",
            Destination::Path => "path",
            Destination::Query => "query",
            Destination::Fragment => "fragment",
        }
    }
}

/// The walk over the trace: the buffer with the input code point each of its code points came
/// from, and the sources of each path segment (a shortened path drops its last segment's).
struct Walk {
    out: Vec<Option<Destination>>,
    buffer: Vec<(char, Option<usize>)>,
    segments: Vec<Vec<usize>>,
    /// The "/" (or "\") that began the segment the path state is reading.
    segment_start: Option<usize>,
    /// The last "@" the authority state read: the authority state's step 1.2 prepends it to
    /// the buffer as "%40" when another follows.
    last_at: Option<usize>,
    /// The ":" the host state ended the host at, written only before a port that is not null.
    port_colon: Option<usize>,
    /// The authority state's passwordTokenSeen, and the ":" that set it: the serializer writes
    /// it only before a password that is not empty.
    password_token_seen: bool,
    pending_token: Option<usize>,
    credentials: bool,
}

impl Walk {
    fn put(&mut self, at: Option<usize>, to: Option<Destination>) {
        if let Some(slot) = at.and_then(|i| self.out.get_mut(i)) {
            *slot = to;
        }
    }

    fn buffer_to(&mut self, to: Destination) {
        for i in 0..self.buffer.len() {
            self.put(self.buffer[i].1, Some(to));
        }
    }

    /// Authority state step 1.4 at an "@": the buffer's code points before the first ":"
    /// (which sets passwordTokenSeen) went into the username, the rest into the password.
    fn credentials(&mut self) {
        let mut password = false;
        for i in 0..self.buffer.len() {
            let (c, from) = self.buffer[i];
            if c == ':' && !self.password_token_seen {
                self.password_token_seen = true;
                self.pending_token = from;
                continue;
            }
            let to = if self.password_token_seen {
                password = true;
                Destination::Password
            } else {
                Destination::Username
            };
            self.put(from, Some(to));
        }
        if password {
            let token = self.pending_token.take();
            self.put(token, Some(Destination::Password));
        }
    }
}

impl Trace {
    /// Where each code point of the input ended up (one entry per code point): the field of
    /// the URL record it was written into, directly, through the buffer or percent-encoded;
    /// `None` for what went nowhere: tabs and newlines removed, leading and trailing C0
    /// controls and spaces stripped, the slashes before an authority, a path segment a
    /// double-dot segment removed or a single-dot segment, a port that is the default port,
    /// `localhost` in a file URL.
    ///
    /// A delimiter goes with the field the serializer writes it for: the scheme's ":", the
    /// "@" after credentials (with the username), the ":" before a password or a port, the "/"
    /// before a path segment, "?" with the query and "#" with the fragment. A run that failed
    /// gives the code points in the buffer at the failure the field the failing state was
    /// reading them for (host or port).
    pub fn destinations(&self) -> Vec<Option<Destination>> {
        let len = self.input.chars().count();
        let mut walk = Walk {
            out: vec![None; len],
            buffer: Vec::new(),
            segments: match &self.initial.path {
                Path::List(list) => vec![Vec::new(); list.len()],
                Path::Opaque(_) => Vec::new(),
            },
            segment_start: None,
            last_at: None,
            port_colon: None,
            password_token_seen: false,
            pending_token: None,
            credentials: !self.initial.username.is_empty() || !self.initial.password.is_empty(),
        };
        let mut at = self.start();
        let mut last_state = None;
        for _ in 0..self.len {
            self.destination_step(&mut at, &mut walk, &mut last_state);
        }
        if self.failed {
            match last_state {
                Some(State::Host | State::Hostname | State::FileHost) => {
                    walk.buffer_to(Destination::Host)
                }
                Some(State::Port) => walk.buffer_to(Destination::Port),
                _ => {}
            }
        }
        walk.out
    }

    fn destination_step(&self, at: &mut At, walk: &mut Walk, last_state: &mut Option<State>) {
        let step = self.header(at);
        let Phase::State(state) = step.phase else {
            while self.event(at).is_some() {}
            return;
        };
        *last_state = Some(state);
        let here = step.c.map(|_| step.pointer);
        let mut consumed = true;
        let mut query_set = false;
        let mut fragment_set = false;
        while let Some(event) = self.event(at) {
            match event {
                Event::Push(text) => {
                    walk.buffer
                        .extend(self.text(text).chars().map(|c| (c, here)));
                }
                Event::Clear => {
                    if state == State::Authority && step.c == Some('@') {
                        walk.credentials();
                    }
                    walk.buffer.clear();
                }
                Event::Prepend(text) => {
                    // Authority state step 1.2: the "@" read before this one.
                    let from = walk.last_at;
                    let prefix: Vec<_> = self.text(text).chars().map(|c| (c, from)).collect();
                    walk.buffer.splice(0..0, prefix);
                }
                Event::ReplaceSecondWithColon => {
                    if let Some(second) = walk.buffer.get_mut(1) {
                        second.0 = ':';
                    }
                }
                Event::Text { field, op, .. } => match (field, op) {
                    (Field::Scheme, Op::Set) if state == State::Scheme => {
                        walk.buffer_to(Destination::Scheme);
                        walk.put(here, Some(Destination::Scheme));
                    }
                    (Field::Username | Field::Password, Op::Append) => walk.credentials = true,
                    (Field::OpaquePath, Op::Append) => walk.put(here, Some(Destination::Path)),
                    (Field::Query, Op::Set) => query_set = true,
                    (Field::Query, Op::Append) => walk.buffer_to(Destination::Query),
                    (Field::Fragment, Op::Set) => fragment_set = true,
                    (Field::Fragment, Op::Append) => walk.put(here, Some(Destination::Fragment)),
                    _ => {}
                },
                Event::Host(host) => {
                    if matches!(state, State::Host | State::Hostname | State::FileHost) {
                        let empty = host.is_none_or(|i| self.hosts[i as usize] == Host::Empty);
                        if !empty {
                            walk.buffer_to(Destination::Host);
                        }
                        if state == State::Host && step.c == Some(':') {
                            walk.port_colon = here;
                        }
                    }
                }
                Event::Port(port) => {
                    // Port state step 2.1.3: null when it is the scheme's default port.
                    if state == State::Port && port.is_some() {
                        walk.buffer_to(Destination::Port);
                        walk.put(walk.port_colon, Some(Destination::Port));
                    }
                    walk.port_colon = None;
                }
                Event::Path(i) => {
                    walk.segments = match &self.paths[i as usize] {
                        Path::List(list) => vec![Vec::new(); list.len()],
                        Path::Opaque(_) => Vec::new(),
                    };
                }
                Event::PathPush(text) => {
                    let mut sources = Vec::new();
                    if state == State::Path {
                        sources.extend(walk.segment_start);
                        if self
                            .text(text)
                            .chars()
                            .eq(walk.buffer.iter().map(|&(c, _)| c))
                        {
                            sources.extend(walk.buffer.iter().filter_map(|&(_, i)| i));
                        }
                    }
                    for &i in &sources {
                        walk.put(Some(i), Some(Destination::Path));
                    }
                    walk.segments.push(sources);
                }
                Event::PathShorten => {
                    if let Some(dropped) = walk.segments.pop() {
                        for i in dropped {
                            walk.put(Some(i), None);
                        }
                    }
                }
                Event::Pointer(PointerMove::Decrease(_) | PointerMove::StartOver) => {
                    consumed = false
                }
                _ => {}
            }
        }
        // The rest is about c itself, which a step that moved the pointer back leaves to the
        // next state.
        if !consumed {
            return;
        }
        match (state, step.c) {
            (State::Authority, Some('@')) => {
                if walk.credentials {
                    walk.put(here, Some(Destination::Username));
                }
                walk.last_at = here;
            }
            (State::PathStart | State::Path, Some('/' | '\\')) => walk.segment_start = here,
            (State::Path, _) => {
                if matches!(step.c, None | Some('?' | '#')) {
                    walk.segment_start = None;
                }
            }
            _ => {}
        }
        match step.c {
            Some('?') if query_set && state != State::Query => {
                walk.put(here, Some(Destination::Query))
            }
            Some('#') if fragment_set && state != State::Fragment => {
                walk.put(here, Some(Destination::Fragment))
            }
            _ => {}
        }
    }
}
