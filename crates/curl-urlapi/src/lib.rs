//! libcurl's URL API as libcurl itself reads a URL: `curl_url_set(CURLUPART_URL, input, flags)`
//! followed by `curl_url_get` of each part. curl-sys links libcurl but does not declare the URL
//! API (curl 7.62 and later; `curl_url_strerror` 7.80), so the few functions it needs are
//! declared here.
//!
//! The README follows (its example is compiled and run as a doctest).
#![doc = include_str!("../README.md")]

use std::ffi::{c_char, c_int, c_uint, CStr, CString};

/// libcurl's opaque URL handle, by its C name.
#[allow(non_camel_case_types, clippy::upper_case_acronyms)]
#[repr(C)]
struct CURLU {
    _private: [u8; 0],
}

#[allow(non_camel_case_types)]
type CURLUcode = c_int;

extern "C" {
    fn curl_url() -> *mut CURLU;
    fn curl_url_cleanup(handle: *mut CURLU);
    fn curl_url_set(
        handle: *mut CURLU,
        what: c_int,
        part: *const c_char,
        flags: c_uint,
    ) -> CURLUcode;
    fn curl_url_get(
        handle: *const CURLU,
        what: c_int,
        part: *mut *mut c_char,
        flags: c_uint,
    ) -> CURLUcode;
    fn curl_url_strerror(code: CURLUcode) -> *const c_char;
    fn curl_free(p: *mut std::ffi::c_void);
}

/// `CURLU_NON_SUPPORT_SCHEME`: accept schemes this libcurl was not built to fetch.
pub const NON_SUPPORT_SCHEME: u32 = 1 << 3;

/// The parts `curl_url_get` can return (`CURLUPART_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i32)]
pub enum Part {
    Url = 0,
    Scheme = 1,
    User = 2,
    Password = 3,
    Options = 4,
    Host = 5,
    Port = 6,
    Path = 7,
    Query = 8,
    Fragment = 9,
    ZoneId = 10,
}

/// `CURLUE_NO_SCHEME` … `CURLUE_NO_ZONEID`: the part is absent, which is an answer, not an error.
const NO_PART: std::ops::RangeInclusive<CURLUcode> = 10..=18;

/// An error code of the URL API with libcurl's own message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// The `CURLUcode`, or -1 for an input with a NUL byte (which never reaches libcurl).
    pub code: i32,
    /// libcurl's message for the code (`curl_url_strerror`), or ours for a NUL byte.
    pub message: String,
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (CURLUcode {})", self.message, self.code)
    }
}

impl std::error::Error for Error {}

fn error(code: CURLUcode) -> Error {
    // SAFETY: curl_url_strerror returns a pointer to a static NUL-terminated string for every
    // code, including unknown ones ("CURLUcode unknown").
    let message = unsafe { CStr::from_ptr(curl_url_strerror(code)) }
        .to_string_lossy()
        .into_owned();
    Error { code, message }
}

/// A parsed URL handle; freed on drop.
#[derive(Debug)]
pub struct Url {
    handle: *mut CURLU,
}

impl Url {
    /// `curl_url()` then `curl_url_set(CURLUPART_URL, input, flags)`. An input with a NUL byte
    /// cannot be handed to C whole, so it is an error rather than a silently shortened URL.
    pub fn parse(input: &str, flags: u32) -> Result<Url, Error> {
        let url = Url::new()?;
        url.set(Part::Url, input, flags)?;
        Ok(url)
    }

    fn new() -> Result<Url, Error> {
        // SAFETY: curl_url takes no arguments and returns a new handle or NULL on OOM.
        let handle = unsafe { curl_url() };
        if handle.is_null() {
            return Err(error(7));
        }
        Ok(Url { handle })
    }

    /// `curl_url_set(part, value, flags)`; setting `Part::Url` on a handle that holds a URL
    /// resolves `value` against it, as libcurl does when it follows a redirect.
    pub fn set(&self, part: Part, value: &str, flags: u32) -> Result<(), Error> {
        let value = CString::new(value).map_err(|_| Error {
            code: -1,
            message: "the input contains a NUL byte, which a C string cannot carry".into(),
        })?;
        // SAFETY: the handle is live (owned by self), the string is NUL-terminated and outlives
        // the call; libcurl copies what it keeps.
        let code = unsafe { curl_url_set(self.handle, part as c_int, value.as_ptr(), flags) };
        if code == 0 {
            Ok(())
        } else {
            Err(error(code))
        }
    }

    /// `curl_url_get(part, flags)`: `Ok(None)` when libcurl says the part is absent.
    pub fn get(&self, part: Part, flags: u32) -> Result<Option<String>, Error> {
        let mut out: *mut c_char = std::ptr::null_mut();
        // SAFETY: the handle is live; on success libcurl stores a curl_malloc'ed NUL-terminated
        // string in `out`, which is copied and then released with curl_free.
        let code = unsafe { curl_url_get(self.handle, part as c_int, &mut out, flags) };
        if code != 0 {
            return if NO_PART.contains(&code) {
                Ok(None)
            } else {
                Err(error(code))
            };
        }
        if out.is_null() {
            return Ok(None);
        }
        // SAFETY: see above; `out` is valid until curl_free.
        let value = unsafe { CStr::from_ptr(out) }
            .to_string_lossy()
            .into_owned();
        // SAFETY: `out` was allocated by libcurl and is freed once.
        unsafe { curl_free(out.cast()) };
        Ok(Some(value))
    }
}

impl Drop for Url {
    fn drop(&mut self) {
        // SAFETY: the handle came from curl_url and is cleaned up exactly once.
        unsafe { curl_url_cleanup(self.handle) }
    }
}

/// Whether the libcurl linked in is the copy curl-sys builds when pkg-config finds no system
/// libcurl, rather than the system's: its answers are those of its version, not the system's.
pub const BUNDLED: bool = cfg!(libcurl_bundled);

/// The version of the libcurl linked in, e.g. "7.88.1".
pub fn version() -> String {
    // SAFETY: curl_version_info returns a pointer to static data; `version` is a static
    // NUL-terminated string.
    unsafe {
        let info = curl_sys::curl_version_info(curl_sys::CURLVERSION_NOW);
        if info.is_null() || (*info).version.is_null() {
            return String::from("unknown");
        }
        CStr::from_ptr((*info).version)
            .to_string_lossy()
            .into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_parts_and_absent_parts() {
        let url =
            Url::parse("https://user@Example.com:8080/p?q#f", NON_SUPPORT_SCHEME).expect("parses");
        assert_eq!(url.get(Part::Scheme, 0), Ok(Some("https".into())));
        assert_eq!(url.get(Part::User, 0), Ok(Some("user".into())));
        assert_eq!(url.get(Part::Password, 0), Ok(None));
        assert_eq!(url.get(Part::Port, 0), Ok(Some("8080".into())));
        assert_eq!(url.get(Part::Path, 0), Ok(Some("/p".into())));
        assert_eq!(url.get(Part::Query, 0), Ok(Some("q".into())));
        assert_eq!(url.get(Part::Fragment, 0), Ok(Some("f".into())));
    }

    #[test]
    fn reports_libcurl_errors_and_nul() {
        let e = Url::parse("http://a b/", 0).expect_err("space in host");
        assert!(e.code > 0, "{e}");
        let e = Url::parse("http://a\0b/", 0).expect_err("NUL");
        assert_eq!(e.code, -1);
        assert!(version().chars().next().is_some_and(|c| c.is_ascii_digit()));
    }
}
