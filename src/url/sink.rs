//! Where the parser and the host parser send what they raise: validation errors, mapped back to
//! the input as typed, and host parsing sub-steps for the tracer.

use std::ops::Range;

use crate::trace::{HostEvent, Tracer};
use crate::url::input::Input;
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

/// What the host parser's algorithms report to: a parse's [`Sink`], or [`NoSink`] when they run
/// on their own (the writing grammar's valid domain, the host analysis), so that each algorithm
/// is written once.
pub(crate) trait Raise {
    /// Whether host sub-steps are recorded; costly events are built only when true.
    const TRACED: bool;

    /// Raises a validation error over `span`, a byte range of the processed input.
    fn error(&mut self, kind: ValidationErrorKind, span: Range<usize>);

    /// Records a host parsing sub-step; `event` is only built when tracing.
    fn host_event(&mut self, event: impl FnOnce() -> HostEvent);
}

impl<T: Tracer> Raise for Sink<'_, '_, T> {
    const TRACED: bool = T::ENABLED;

    #[inline]
    fn error(&mut self, kind: ValidationErrorKind, span: Range<usize>) {
        let span = self.input.original_range(span);
        self.tracer.validation_error(kind, span.clone(), self.phase);
        self.last_error = Some((kind, span, self.phase));
    }

    #[inline(always)]
    fn host_event(&mut self, event: impl FnOnce() -> HostEvent) {
        if T::ENABLED {
            self.tracer.host(event());
        }
    }
}

/// Raises nothing and records nothing.
pub(crate) struct NoSink;

impl Raise for NoSink {
    const TRACED: bool = false;

    #[inline(always)]
    fn error(&mut self, _: ValidationErrorKind, _: Range<usize>) {}

    #[inline(always)]
    fn host_event(&mut self, _: impl FnOnce() -> HostEvent) {}
}
