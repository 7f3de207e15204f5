//! The basic URL parser's states (URL Standard: 4.4 URL parsing) and the preprocessing steps
//! that run before the state machine.

use serde::{Serialize, Serializer};
use std::fmt;

macro_rules! states {
    ($( $variant:ident = $name:literal, $id:literal; )*) => {
        /// A state of the basic URL parser, named as the standard names it.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum State {
            $( #[doc = concat!("URL Standard: <https://url.spec.whatwg.org/#", $id, ">")] $variant, )*
        }

        impl State {
            pub const ALL: &'static [State] = &[$(State::$variant),*];

            /// The state's name as the standard writes it, e.g. `"special authority ignore slashes state"`.
            pub const fn name(self) -> &'static str {
                match self { $(State::$variant => $name,)* }
            }

            /// The state's anchor in the standard, for linking.
            pub const fn anchor(self) -> &'static str {
                match self { $(State::$variant => $id,)* }
            }

            pub fn from_name(name: &str) -> Option<State> {
                match name { $($name => Some(State::$variant),)* _ => None }
            }
        }
    };
}

states! {
    SchemeStart = "scheme start state", "scheme-start-state";
    Scheme = "scheme state", "scheme-state";
    NoScheme = "no scheme state", "no-scheme-state";
    SpecialRelativeOrAuthority = "special relative or authority state", "special-relative-or-authority-state";
    PathOrAuthority = "path or authority state", "path-or-authority-state";
    Relative = "relative state", "relative-state";
    RelativeSlash = "relative slash state", "relative-slash-state";
    SpecialAuthoritySlashes = "special authority slashes state", "special-authority-slashes-state";
    SpecialAuthorityIgnoreSlashes = "special authority ignore slashes state", "special-authority-ignore-slashes-state";
    Authority = "authority state", "authority-state";
    Host = "host state", "host-state";
    Hostname = "hostname state", "hostname-state";
    Port = "port state", "port-state";
    File = "file state", "file-state";
    FileSlash = "file slash state", "file-slash-state";
    FileHost = "file host state", "file-host-state";
    PathStart = "path start state", "path-start-state";
    Path = "path state", "path-state";
    OpaquePath = "opaque path state", "cannot-be-a-base-url-path-state";
    Query = "query state", "query-state";
    Fragment = "fragment state", "fragment-state";
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for State {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// Where a trace step or validation error comes from: one of the two preprocessing steps of the
/// basic URL parser (steps 1 and 2), or an iteration of the state machine in a given state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// URL Standard: basic URL parser, step 1: remove leading and trailing C0 control or space.
    TrimControlOrSpace,
    /// URL Standard: basic URL parser, steps 2 and 3: remove all ASCII tab or newline.
    RemoveTabOrNewline,
    /// URL Standard: basic URL parser, step 9: one run of the state machine.
    State(State),
}

impl Phase {
    pub const fn name(self) -> &'static str {
        match self {
            Phase::TrimControlOrSpace => "remove leading and trailing C0 control or space",
            Phase::RemoveTabOrNewline => "remove ASCII tab or newline",
            Phase::State(state) => state.name(),
        }
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for Phase {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}
