//! Host parsing (URL Standard: 3.5 Host parsing) and IDNA (3.3).

use crate::trace::Tracer;
use crate::url::parser::Sink;
use crate::url::record::Host;

/// URL Standard: host parser. `input` starts at byte `at` of the processed input (for spans).
pub(crate) fn parse_host<T: Tracer>(
    sink: &mut Sink<'_, '_, T>,
    input: &str,
    at: usize,
    is_opaque: bool,
) -> Result<Host, ()> {
    let _ = (sink, input, at, is_opaque);
    todo!("host parser")
}

/// URL Standard: domain to Unicode.
pub fn domain_to_unicode(domain: &str) -> String {
    domain.to_owned()
}
