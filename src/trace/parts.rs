//! Which part of the URL record each code point of the input ended up in, read from the trace:
//! the state machine appends a code point to the *buffer* (or straight to a field), and a later
//! step moves the buffer into a field of the record. A code point belongs to the field its
//! buffer went to, wherever the pointer was when it was read; what the authority state scanned
//! before the host state re-read it counts once, where the host state put it. A delimiter goes
//! with the field the serializer writes it for ("?" with the query); what went nowhere (the
//! slashes before a host, a segment ".." removed) is no part ([`Trace::destinations`] decides).
//!
//! This is why `file://c:/x` reads `c:` as path: the file host state appends `c` and `:` to the
//! buffer, and on seeing that the buffer is a Windows drive letter it leaves the buffer to the
//! path state (URL Standard, file host state, step 1.2: "buffer is not reset here and instead
//! used in the path state"), which pushes it as the first path segment.

use serde::Serialize;

use super::{Destination, Trace};

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

    fn of_destination(d: Destination) -> Part {
        match d {
            Destination::Scheme => Part::Scheme,
            Destination::Username | Destination::Password => Part::Userinfo,
            Destination::Host => Part::Host,
            Destination::Port => Part::Port,
            Destination::Path => Part::Path,
            Destination::Query => Part::Query,
            Destination::Fragment => Part::Fragment,
        }
    }
}

impl Trace {
    /// The part of the URL record each of the input's `len` code points ended up in (`None`:
    /// none): [`Trace::destinations`], with the username and the password one part.
    pub fn input_parts(&self, len: usize) -> Vec<Option<Part>> {
        let mut parts: Vec<Option<Part>> = self
            .destinations()
            .into_iter()
            .map(|d| d.map(Part::of_destination))
            .collect();
        parts.resize(len, None);
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
        check("file://c:/x", None, "sssss··pppp");
    }

    #[test]
    fn every_part_of_a_special_url() {
        check(
            "https://u:p@ex.com:81/a?q=1#f",
            None,
            "ssssss··uuuuhhhhhhnnnppqqqqff",
        );
    }

    #[test]
    fn the_authority_state_scans_and_the_host_state_reads() {
        // The authority state appends the host's code points to its buffer, then goes back:
        // only the host state's buffer becomes the host.
        check("http://ex.com/", None, "sssss··hhhhhhp");
    }

    #[test]
    fn a_second_at_sign_is_userinfo() {
        // URL Standard, authority state, step 1.2: "%40" is prepended for the first "@".
        check("http://a@b@c/", None, "sssss··uuuuhp");
    }

    #[test]
    fn a_segment_dot_dot_removes_is_no_part_and_opaque_paths_are_path() {
        check("http://h/a/../b", None, "sssss··h·····pp");
        check("mailto:x@y", None, "sssssssppp");
    }

    #[test]
    fn a_relative_reference_reads_only_what_it_has() {
        check("../g?y#s", Some("http://a/b/c/d;p?q"), "··ppqqff");
    }

    #[test]
    fn an_ipv6_host_keeps_its_brackets_and_a_percent_encoded_code_point_is_one() {
        check("http://[::1]/", None, "sssss··hhhhhp");
        check("http://h/é", None, "sssss··hpp");
    }
}
