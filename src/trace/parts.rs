//! Which part of the URL record each code point of the input ended up in, read from the trace:
//! the state machine appends a code point to the *buffer* (or straight to a field), and a later
//! step moves the buffer into a field of the record. A code point belongs to the field its
//! buffer went to, wherever the pointer was when it was read; a code point the parser only
//! looked at (a delimiter, what the authority state scanned before the host state re-read it)
//! ends up nowhere.
//!
//! This is why `file://c:/x` reads `c:` as path: the file host state appends `c` and `:` to the
//! buffer, and on seeing that the buffer is a Windows drive letter it leaves the buffer to the
//! path state (URL Standard, file host state, step 1.2: "buffer is not reset here and instead
//! used in the path state"), which pushes it as the first path segment.

use serde::Serialize;

use super::recorder::{Event, Field};
use super::Trace;
use crate::url::state::{Phase, State};

/// A part of the URL record, as the Input line colours it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Part {
    Scheme,
    /// The username and the password.
    Userinfo,
    Host,
    Port,
    Path,
    Query,
    Fragment,
}

impl Part {
    pub const ALL: [Part; 7] = [
        Part::Scheme,
        Part::Userinfo,
        Part::Host,
        Part::Port,
        Part::Path,
        Part::Query,
        Part::Fragment,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Part::Scheme => "scheme",
            Part::Userinfo => "userinfo",
            Part::Host => "host",
            Part::Port => "port",
            Part::Path => "path",
            Part::Query => "query",
            Part::Fragment => "fragment",
        }
    }

    /// The ruler's letter: `s u h n p q f`.
    pub const fn letter(self) -> char {
        match self {
            Part::Scheme => 's',
            Part::Userinfo => 'u',
            Part::Host => 'h',
            Part::Port => 'n',
            Part::Path => 'p',
            Part::Query => 'q',
            Part::Fragment => 'f',
        }
    }

    fn of_field(field: Field) -> Part {
        match field {
            Field::Scheme => Part::Scheme,
            Field::Username | Field::Password => Part::Userinfo,
            Field::OpaquePath => Part::Path,
            Field::Query => Part::Query,
            Field::Fragment => Part::Fragment,
        }
    }
}

impl Trace {
    /// The part of the URL record each of the input's `len` code points ended up in (`None`:
    /// none, as for a delimiter). Read from the trace's buffer edits and record edits: each
    /// code point of the buffer remembers the input code point it was appended for, and the
    /// record edit that takes the buffer gives them their part.
    pub fn input_parts(&self, len: usize) -> Vec<Option<Part>> {
        let mut parts = vec![None; len];
        // For each code point of the buffer, the input code point it came from.
        let mut owners: Vec<Option<usize>> = Vec::new();
        // The authority state's last "@": the buffer's "%40" stands for it.
        let mut at_sign = None;
        let mut give = |owners: &mut Vec<Option<usize>>, part: Part| {
            for i in owners.drain(..).flatten() {
                if let Some(slot) = parts.get_mut(i) {
                    *slot = Some(part);
                }
            }
        };
        let mut at = self.start();
        for _ in 0..self.len {
            let step = self.header(&mut at);
            let state = match step.phase {
                Phase::State(state) => Some(state),
                _ => None,
            };
            let here = step.c.map(|_| step.pointer);
            while let Some(event) = self.event(&mut at) {
                match event {
                    Event::Push(text) => {
                        owners.extend(std::iter::repeat_n(here, self.text(text).chars().count()))
                    }
                    Event::Clear => {
                        // URL Standard, path state, steps 1.4 to 1.6: a "." or ".." segment is
                        // read as path even when nothing is pushed for it.
                        if matches!(state, Some(State::Path | State::PathStart)) {
                            give(&mut owners, Part::Path);
                        }
                        owners.clear();
                    }
                    // URL Standard, authority state, step 1.2: "%40" for the earlier "@".
                    Event::Prepend(text) => {
                        let n = self.text(text).chars().count();
                        owners.splice(0..0, std::iter::repeat_n(at_sign, n));
                    }
                    Event::ReplaceSecondWithColon => {}
                    Event::Text { field, text, .. } => {
                        let part = Part::of_field(field);
                        if !owners.is_empty() {
                            give(&mut owners, part);
                        } else if !self.text(text).is_empty()
                            && matches!(state, Some(State::OpaquePath | State::Fragment))
                        {
                            // These states append c itself (percent-encoded) to the record.
                            give(&mut vec![here], part);
                        }
                    }
                    Event::Host(_) => give(&mut owners, Part::Host),
                    Event::Port(_) => give(&mut owners, Part::Port),
                    Event::Path(_) | Event::PathPush(_) | Event::PathShorten => {
                        give(&mut owners, Part::Path)
                    }
                    Event::Spec(_)
                    | Event::Pointer(_)
                    | Event::SetState(_)
                    | Event::Error(_)
                    | Event::HostStep(..) => {}
                }
            }
            if state == Some(State::Authority) && step.c == Some('@') {
                at_sign = here;
            }
        }
        parts
    }
}

#[cfg(test)]
mod tests {
    use super::Part;
    use crate::report::Report;

    /// The ruler of `input` against `base`: a part's letter per code point, `·` for none.
    fn ruler(input: &str, base: Option<&str>) -> String {
        let report = Report::new(input, base);
        let trace = report.trace.as_ref().expect("traced");
        trace
            .input_parts(input.chars().count())
            .into_iter()
            .map(|p| p.map_or('·', Part::letter))
            .collect()
    }

    #[track_caller]
    fn check(input: &str, base: Option<&str>, expected: &str) {
        assert_eq!(
            ruler(input, base),
            expected,
            "input {input:?} base {base:?}"
        );
    }

    #[test]
    fn a_windows_drive_letter_in_the_host_ends_up_in_the_path() {
        // URL Standard, file host state, step 1.2: the buffer "c:" is left to the path state.
        check("file://c:/x", None, "ssss···pp·p");
    }

    #[test]
    fn every_part_of_a_special_url() {
        check(
            "https://u:p@ex.com:81/a?q=1#f",
            None,
            "sssss···uuu·hhhhhh·nn·p·qqq·f",
        );
    }

    #[test]
    fn the_authority_state_scans_and_the_host_state_reads() {
        // The authority state appends the host's code points to its buffer, then goes back:
        // only the host state's buffer becomes the host.
        check("http://ex.com/", None, "ssss···hhhhhh·");
    }

    #[test]
    fn a_second_at_sign_is_userinfo() {
        // URL Standard, authority state, step 1.2: "%40" is prepended for the first "@".
        check("http://a@b@c/", None, "ssss···uuu·h·");
    }

    #[test]
    fn dot_segments_and_opaque_paths_are_path() {
        check("http://h/a/../b", None, "ssss···h·p·pp·p");
        check("mailto:x@y", None, "ssssss·ppp");
    }

    #[test]
    fn a_relative_reference_reads_only_what_it_has() {
        check("../g?y#s", Some("http://a/b/c/d;p?q"), "pp·p·q·f");
    }

    #[test]
    fn an_ipv6_host_keeps_its_brackets_and_a_percent_encoded_code_point_is_one() {
        check("http://[::1]/", None, "ssss···hhhhh·");
        check("http://h/é", None, "ssss···h·p");
    }
}
