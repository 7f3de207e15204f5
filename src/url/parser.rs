//! The basic URL parser (URL Standard: 4.4 URL parsing).

use std::ops::Range;

use crate::trace::{HostEvent, Tracer};
use crate::url::input::Input;
use crate::url::record::{Path, UrlRecord};
use crate::url::state::Phase;
use crate::validation::ValidationErrorKind;

/// Where the parser and the host parser send validation errors and host sub-steps. It maps
/// spans back to the original input and remembers the last error, which is the cause of a
/// failure.
pub(crate) struct Sink<'i, 't, T: Tracer> {
    pub tracer: &'t mut T,
    pub input: &'i Input<'i>,
    pub phase: Phase,
    pub last_error: Option<(ValidationErrorKind, Range<usize>, Phase)>,
}

impl<T: Tracer> Sink<'_, '_, T> {
    /// Raises a validation error over `span`, a byte range of the processed input.
    #[inline]
    pub fn error(&mut self, kind: ValidationErrorKind, span: Range<usize>) {
        let span = self.input.original_range(span);
        self.tracer.validation_error(kind, span.clone(), self.phase);
        self.last_error = Some((kind, span, self.phase));
    }

    /// Records a host parsing sub-step; `event` is only built when tracing.
    #[inline(always)]
    pub fn host_event(&mut self, event: impl FnOnce() -> HostEvent) {
        if T::ENABLED {
            self.tracer.host(event());
        }
    }
}

/// URL Standard: shorten a URL's path.
pub(crate) fn shorten_path(url: &mut UrlRecord) {
    let is_file = url.scheme == "file";
    if let Path::List(path) = &mut url.path {
        if is_file && path.len() == 1 && is_normalized_windows_drive_letter(&path[0]) {
            return;
        }
        path.pop();
    }
}

/// URL Standard: a Windows drive letter: an ASCII alpha followed by U+003A (:) or U+007C (|).
pub(crate) fn is_windows_drive_letter(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 2 && b[0].is_ascii_alphabetic() && (b[1] == b':' || b[1] == b'|')
}

/// URL Standard: a normalized Windows drive letter: the second code point is U+003A (:).
pub(crate) fn is_normalized_windows_drive_letter(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 2 && b[0].is_ascii_alphabetic() && b[1] == b':'
}

/// URL Standard: a string starts with a Windows drive letter.
pub(crate) fn starts_with_windows_drive_letter(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 2
        && b[0].is_ascii_alphabetic()
        && (b[1] == b':' || b[1] == b'|')
        && (b.len() == 2 || matches!(b[2], b'/' | b'\\' | b'?' | b'#'))
}
