//! Host parsing (URL Standard: 3.5 Host parsing) and IDNA (3.3).
//!
//! Spans: `input` is a substring of the processed input starting at byte `at`, so a validation
//! error about `input[i..j]` is raised over `at + i..at + j`. Errors computed on the
//! percent-decoded domain cover the whole host, as decoded offsets no longer match the input.

use idna::uts46::{AsciiDenyList, DnsLength, Hyphens, Uts46};
use std::ops::Range;

use crate::trace::HostEvent;
use crate::url::code_points::{
    is_forbidden_domain_code_point, is_forbidden_host_code_point, is_url_code_point,
};
use crate::url::percent::{self, starts_with_percent_encoded_byte};
use crate::url::record::Host;
use crate::url::sink::{NoSink, Raise};
use crate::validation::ValidationErrorKind as E;

/// URL Standard: host parser.
pub(crate) fn parse_host<S: Raise>(
    sink: &mut S,
    input: &str,
    at: usize,
    is_opaque: bool,
) -> Result<Host, ()> {
    let whole = at..at + input.len();
    // URL Standard: host parser, step 1.
    if let Some(inner) = input.strip_prefix('[') {
        sink.host_event(|| HostEvent::Ipv6Input {
            input: input.to_owned(),
        });
        // Step 1.1.
        let Some(inner) = inner.strip_suffix(']') else {
            sink.error(E::Ipv6Unclosed, whole);
            sink.host_event(|| HostEvent::Failure);
            return Err(());
        };
        // Step 1.2.
        return parse_ipv6(sink, inner, at + 1).map(Host::Ipv6);
    }
    // Step 2.
    if is_opaque {
        return parse_opaque_host(sink, input, at);
    }
    // Step 4.
    let bytes = input.as_bytes();
    if let Some(i) = (0..bytes.len()).find(|&i| starts_with_percent_encoded_byte(&bytes[i..])) {
        sink.error(E::DomainPercentEncoded, at + i..at + i + 3);
    }
    // Step 5: UTF-8 decode without BOM (lossy) the percent-decoding of input.
    let decoded = percent::percent_decode(bytes);
    let had_percent = matches!(decoded, std::borrow::Cow::Owned(_));
    let domain = String::from_utf8_lossy(&decoded);
    if had_percent {
        sink.host_event(|| HostEvent::PercentDecoded {
            input: input.to_owned(),
            domain: domain.clone().into_owned(),
        });
    }
    // Steps 6 and 7. The trace's explanation of this failure names step 7, or the domain
    // parser's step 7 or 8 when those returned failure (src/url/explain.rs).
    let Some(ascii_domain) = traced_domain_parser(sink, &domain, false, whole.clone()) else {
        sink.host_event(|| HostEvent::Failure);
        return Err(());
    };
    // Step 8.
    let ends_in_a_number = ends_in_a_number(&ascii_domain);
    sink.host_event(|| HostEvent::EndsInANumber {
        input: ascii_domain.clone(),
        result: ends_in_a_number,
    });
    if ends_in_a_number {
        // Added by the standard after its July 2026 text (whatwg/url#925): an IPv4 address that
        // IDNA made from non-ASCII input (fullwidth digits, ideographic full stops) is valid to
        // parse but was not typed as one. It does not make the parse fail.
        if !domain.is_ascii() {
            sink.error(E::Ipv4NonAsciiInput, whole.clone());
        }
        // Part offsets line up with the input only when decoding and IDNA changed nothing but
        // ASCII case.
        let aligned = !had_percent && ascii_domain.len() == input.len();
        let result = parse_ipv4(sink, &ascii_domain, aligned.then_some(at), whole);
        // The trace explains this failure with the IPv4 parser's step that returned it, told
        // from the parts recorded before it.
        if result.is_err() {
            sink.host_event(|| HostEvent::Failure);
        }
        return result.map(Host::Ipv4);
    }
    Ok(Host::Domain(ascii_domain))
}

/// What the host parser did on one host: its sub-steps and its validation errors (byte ranges
/// of the host), recorded for a report of why it failed.
#[derive(Debug, Default)]
pub(crate) struct HostRun {
    pub events: Vec<HostEvent>,
    pub errors: Vec<(E, Range<usize>)>,
}

impl Raise for HostRun {
    const TRACED: bool = true;

    fn error(&mut self, kind: E, span: Range<usize>) {
        self.errors.push((kind, span));
    }

    fn host_event(&mut self, event: impl FnOnce() -> HostEvent) {
        self.events.push(event());
    }
}

/// The host parser run again on `input` alone, recording what it did, when it returns failure
/// (`None` when it does not): a failure report reads the step that failed from it without
/// tracing the whole parse.
pub(crate) fn failing_host_run(input: &str, is_opaque: bool) -> Option<HostRun> {
    let mut run = HostRun::default();
    parse_host(&mut run, input, 0, is_opaque)
        .is_err()
        .then_some(run)
}

// ---------------------------------------------------------------------------------------------
// IDNA.

/// The URL Standard's "domain parser ToASCII": Unicode ToASCII with CheckHyphens,
/// UseSTD3ASCIIRules and VerifyDnsLength set to `be_strict`; CheckBidi and CheckJoiners set;
/// nontransitional; IgnoreInvalidPunycode unset (the `idna` crate's only behaviour).
pub(crate) fn domain_parser_to_ascii(domain: &str, be_strict: bool) -> Option<String> {
    if be_strict && is_strictly_valid_ascii_domain(domain) {
        return Some(domain.to_ascii_lowercase());
    }
    let uts46 = Uts46::new();
    let result = if be_strict {
        uts46.to_ascii(
            domain.as_bytes(),
            AsciiDenyList::STD3,
            Hyphens::Check,
            DnsLength::Verify,
        )
    } else {
        uts46.to_ascii(
            domain.as_bytes(),
            AsciiDenyList::EMPTY,
            Hyphens::Allow,
            DnsLength::Ignore,
        )
    };
    result.ok().map(|cow| cow.into_owned())
}

/// Whether strict Unicode ToASCII would accept `domain` and return it lowercased, decided
/// without running UTS 46: every label is 1 to 63 letters, digits and hyphens, neither starts nor
/// ends with a hyphen nor has "--" in its third and fourth positions (CheckHyphens), is not a
/// Punycode label, and the whole is at most 253 bytes with no empty label (VerifyDnsLength).
/// UTS 46 maps such input by lowercasing it only, and CheckBidi and CheckJoiners have nothing
/// to check in ASCII letters and digits.
pub(crate) fn is_strictly_valid_ascii_domain(domain: &str) -> bool {
    // One pass over the bytes, a table lookup each: this is asked of nearly every host a batch
    // parses, and testing letters, digits and "-" by ranges cost twice as much.
    let bytes = domain.as_bytes();
    if bytes.len() > 253 {
        return false;
    }
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'.' {
            if !has_label_shape(&bytes[start..i]) {
                return false;
            }
            start = i + 1;
        } else if !LETTER_DIGIT_HYPHEN[usize::from(b)] {
            return false;
        }
    }
    has_label_shape(&bytes[start..])
}

/// ASCII letters, digits and "-": the only bytes of a label strict ToASCII keeps as it is.
static LETTER_DIGIT_HYPHEN: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = (b as u8).is_ascii_alphanumeric() || b == b'-' as usize;
        b += 1;
    }
    table
};

/// A label of letters, digits and hyphens that strict Unicode ToASCII keeps as it is (but for
/// case): 1 to 63 bytes, not starting or ending with a hyphen, no "--" in its third and fourth
/// positions (CheckHyphens). A Punycode label ("xn--") fails the last test too.
fn has_label_shape(b: &[u8]) -> bool {
    !b.is_empty()
        && b.len() <= 63
        && b[0] != b'-'
        && b[b.len() - 1] != b'-'
        && !(b.len() >= 4 && b[2] == b'-' && b[3] == b'-')
}

/// URL Standard: domain parser, reporting to the tracer. `span` locates the host for the
/// domain-to-ASCII error.
fn traced_domain_parser<S: Raise>(
    sink: &mut S,
    domain: &str,
    be_strict: bool,
    span: Range<usize>,
) -> Option<String> {
    // Step 1.
    let strict_result = domain_parser_to_ascii(domain, true);
    sink.host_event(|| HostEvent::DomainToAscii {
        strict: true,
        input: domain.to_owned(),
        output: strict_result.clone(),
        errors: strict_result
            .is_none()
            .then(|| "Unicode ToASCII recorded an error".to_owned()),
    });
    // Step 2: this step does not return.
    if strict_result.is_none() {
        sink.error(E::DomainToAscii, span);
    }
    // Step 3.
    if be_strict {
        return strict_result;
    }
    // Steps 4 to 6.
    let result = if domain.is_ascii() {
        // Step 5: an ASCII domain is lowercased whatever ToASCII made of it (web compatibility).
        let lowered = domain.to_ascii_lowercase();
        sink.host_event(|| HostEvent::AsciiLowercase {
            output: lowered.clone(),
        });
        lowered
    } else {
        // Step 6. The strict result, when there is one, is what the relaxed run gives too:
        // relaxing the flags only removes checks.
        let relaxed = match strict_result {
            Some(strict) => Some(strict),
            None => domain_parser_to_ascii(domain, false),
        };
        sink.host_event(|| HostEvent::DomainToAscii {
            strict: false,
            input: domain.to_owned(),
            output: relaxed.clone(),
            errors: relaxed
                .is_none()
                .then(|| "Unicode ToASCII recorded an error".to_owned()),
        });
        relaxed?
    };
    // Not a step of the domain parser: for the trace only, each label of the result with its
    // domain to Unicode form.
    if S::TRACED {
        let unicode = domain_to_unicode(&result);
        if unicode.split('.').count() == result.split('.').count() {
            for (u, a) in unicode.split('.').zip(result.split('.')) {
                sink.host_event(|| HostEvent::IdnaLabel {
                    unicode: u.to_owned(),
                    ascii: a.to_owned(),
                });
            }
        }
    }
    // Steps 7 and 8.
    if result.is_empty() || result.chars().any(is_forbidden_domain_code_point) {
        return None;
    }
    Some(result)
}

/// URL Standard: domain parser, on its own: `None` for failure. With `be_strict`, the first
/// half of the test of a valid domain.
pub fn domain_parser(domain: &str, be_strict: bool) -> Option<String> {
    traced_domain_parser(&mut NoSink, domain, be_strict, 0..0)
}

/// URL Standard: domain to Unicode. When Unicode ToUnicode records an error, the domain is
/// returned unchanged.
pub fn domain_to_unicode(domain: &str) -> String {
    let (result, errors) =
        Uts46::new().to_unicode(domain.as_bytes(), AsciiDenyList::EMPTY, Hyphens::Allow);
    match errors {
        Ok(()) => result.into_owned(),
        Err(_) => domain.to_owned(),
    }
}

// ---------------------------------------------------------------------------------------------
// IPv4.

/// URL Standard: ends in a number checker.
pub fn ends_in_a_number(input: &str) -> bool {
    // 2. Strictly split input on "." (from the end: only the last two parts matter; "." is
    // ASCII, so the bytes are split, which the general string searcher costs many times over).
    let bytes = input.as_bytes();
    // A number ends in a digit, a hex digit, or the "x" of a bare "0x" (before one trailing
    // "."): a name that ends otherwise, as nearly every one does, needs no splitting.
    let end = match bytes {
        [.., b'.'] => bytes.len() - 1,
        _ => bytes.len(),
    };
    if !end
        .checked_sub(1)
        .is_some_and(|i| bytes[i].is_ascii_hexdigit() || matches!(bytes[i], b'x' | b'X'))
    {
        return false;
    }
    let last_dot = bytes.iter().rposition(|&b| b == b'.');
    let mut last = &bytes[last_dot.map_or(0, |dot| dot + 1)..];
    // 3. If the last part is empty, remove it. (Step 1 asserts input is not empty; an empty
    // input, with no part left, does not end in a number.)
    if last.is_empty() {
        let Some(end) = last_dot else {
            return false;
        };
        let start = bytes[..end]
            .iter()
            .rposition(|&b| b == b'.')
            .map_or(0, |dot| dot + 1);
        last = &bytes[start..end];
    }
    // 4–6. The last part is ASCII digits, or what the IPv4 number parser accepts.
    is_a_number(last)
}

/// The ends in a number checker's test of the last part: ASCII digits only, or what the IPv4
/// number parser takes ("0x" or "0X" and hex digits).
pub(crate) fn is_a_number(last: &[u8]) -> bool {
    if !last.is_empty() && last.iter().all(u8::is_ascii_digit) {
        return true;
    }
    let hex = last.len() >= 2 && last[0] == b'0' && (last[1] == b'x' || last[1] == b'X');
    hex && last[2..].iter().all(u8::is_ascii_hexdigit)
}

/// URL Standard: IPv4 number parser. Returns the value (saturated at `u64::MAX`, which keeps
/// every comparison the IPv4 parser makes exact), whether a validation error applies, and the
/// radix.
pub fn parse_ipv4_number(input: &str) -> Option<(u64, bool, u32)> {
    // Step 1.
    if input.is_empty() {
        return None;
    }
    // Steps 2 to 5: radix 10, or 16 after "0x", or 8 after a leading "0".
    let bytes = input.as_bytes();
    let (digits, radix) = if bytes.len() >= 2 && (&bytes[..2] == b"0x" || &bytes[..2] == b"0X") {
        (&bytes[2..], 16)
    } else if bytes.len() >= 2 && bytes[0] == b'0' {
        (&bytes[1..], 8)
    } else {
        (bytes, 10)
    };
    let validation_error = radix != 10;
    // Step 6: "0x" alone is 0.
    if digits.is_empty() {
        return Some((0, true, radix));
    }
    // Steps 7 and 8.
    let mut value: u64 = 0;
    for &b in digits {
        let digit = char::from(b).to_digit(radix)?;
        value = value
            .saturating_mul(u64::from(radix))
            .saturating_add(u64::from(digit));
    }
    Some((value, validation_error, radix))
}

/// URL Standard: IPv4 parser. `aligned` is the processed-input offset of `input` when its
/// parts can be located in the input; otherwise errors cover `whole`.
fn parse_ipv4<S: Raise>(
    sink: &mut S,
    input: &str,
    aligned: Option<usize>,
    whole: Range<usize>,
) -> Result<u32, ()> {
    let locate = |start: usize, len: usize| match aligned {
        Some(at) => at + start..at + start + len,
        None => whole.clone(),
    };
    // Each part with its byte offset in `input`.
    let mut parts: Vec<(usize, &str)> = Vec::new();
    let mut offset = 0;
    for part in input.split('.') {
        parts.push((offset, part));
        offset += part.len() + 1;
    }
    // Step 2.
    if parts.last().is_some_and(|(_, p)| p.is_empty()) {
        sink.error(E::Ipv4EmptyPart, locate(input.len().saturating_sub(1), 1));
        if parts.len() > 1 {
            parts.pop();
        }
    }
    // Steps 3 and 4.
    if parts.len() < 4 {
        sink.error(E::Ipv4TooFewParts, locate(0, input.len()));
    }
    if parts.len() > 4 {
        sink.error(E::Ipv4TooManyParts, locate(0, input.len()));
        return Err(());
    }
    // Step 6.
    let mut numbers: Vec<(u64, Range<usize>)> = Vec::with_capacity(4);
    for &(start, part) in &parts {
        let span = locate(start, part.len());
        // Steps 6.1 and 6.2.
        let Some((value, validation_error, radix)) = parse_ipv4_number(part) else {
            sink.host_event(|| HostEvent::Ipv4Part {
                text: part.to_owned(),
                radix: 10,
                value: None,
            });
            sink.error(E::Ipv4NonNumericPart, span);
            return Err(());
        };
        sink.host_event(|| HostEvent::Ipv4Part {
            text: part.to_owned(),
            radix,
            value: Some(value),
        });
        // Step 6.3.
        if validation_error {
            sink.error(E::Ipv4NonDecimalPart, span.clone());
        }
        numbers.push((value, span));
    }
    // Step 7: "if any item in numbers is greater than 255", one error however many parts are;
    // it covers the parts that are.
    if let Some(span) = cover(
        numbers
            .iter()
            .filter(|(v, _)| *v > 255)
            .map(|(_, s)| s.clone()),
    ) {
        sink.error(E::Ipv4OutOfRangePart, span);
    }
    // Steps 8 and 9.
    let (last, init) = match numbers.split_last() {
        Some(split) => split,
        None => return Err(()),
    };
    if init.iter().any(|(v, _)| *v > 255) {
        return Err(());
    }
    let limit = 256u64.pow(5 - numbers.len() as u32);
    if last.0 >= limit {
        return Err(());
    }
    // Steps 10 to 14.
    let mut ipv4 = last.0;
    for (counter, (n, _)) in init.iter().enumerate() {
        ipv4 += n * 256u64.pow(3 - counter as u32);
    }
    let address = u32::try_from(ipv4).map_err(|_| ())?;
    sink.host_event(|| HostEvent::Ipv4Address { address });
    Ok(address)
}

// ---------------------------------------------------------------------------------------------
// IPv6.

/// URL Standard: IPv6 parser. `input` is the text between the brackets, at byte `at`.
fn parse_ipv6<S: Raise>(sink: &mut S, input: &str, at: usize) -> Result<[u16; 8], ()> {
    let result = parse_ipv6_inner(sink, input, at);
    // Each step that returns failure raises its own validation error first; the trace's
    // explanation of the failure names the step from it (src/url/explain.rs).
    match result {
        Ok(pieces) => sink.host_event(|| HostEvent::Ipv6Address { pieces }),
        Err(()) => sink.host_event(|| HostEvent::Failure),
    }
    result
}

fn parse_ipv6_inner<S: Raise>(sink: &mut S, input: &str, at: usize) -> Result<[u16; 8], ()> {
    let bytes = input.as_bytes();
    let len = bytes.len();
    // c: the byte at the pointer; any non-ASCII code point is "not a hex digit, not : or .",
    // which is all the parser asks of it.
    let c = |p: usize| bytes.get(p).copied();
    // The span of the code point at `p` (empty at EOF).
    let span = |p: usize| {
        let n = match bytes.get(p) {
            None => 0,
            Some(&b) if b < 0x80 => 1,
            Some(_) => input[p..].chars().next().map_or(1, char::len_utf8),
        };
        at + p..at + p + n
    };
    // Steps 1 to 4.
    let mut address = [0u16; 8];
    let mut piece_index = 0;
    let mut compress: Option<usize> = None;
    let mut pointer = 0;
    // Step 5.
    if c(pointer) == Some(b':') {
        if c(pointer + 1) != Some(b':') {
            sink.error(E::Ipv6InvalidCompression, span(pointer));
            return Err(());
        }
        pointer += 2;
        piece_index += 1;
        compress = Some(piece_index);
        sink.host_event(|| HostEvent::Ipv6Compress { piece_index: 1 });
    }
    // Step 6.
    while pointer < len {
        // Step 6.1.
        if piece_index == 8 {
            sink.error(E::Ipv6TooManyPieces, span(pointer));
            return Err(());
        }
        // Step 6.2.
        if c(pointer) == Some(b':') {
            if compress.is_some() {
                sink.error(E::Ipv6MultipleCompression, span(pointer));
                return Err(());
            }
            pointer += 1;
            piece_index += 1;
            compress = Some(piece_index);
            let index = piece_index;
            sink.host_event(|| HostEvent::Ipv6Compress { piece_index: index });
            continue;
        }
        // Steps 6.3 and 6.4.
        let start = pointer;
        let mut value: u16 = 0;
        let mut length = 0;
        while length < 4 {
            let Some(digit) = c(pointer).and_then(|b| char::from(b).to_digit(16)) else {
                break;
            };
            value = value * 0x10 + digit as u16;
            pointer += 1;
            length += 1;
        }
        // Step 6.5: an embedded IPv4 address.
        if c(pointer) == Some(b'.') {
            if length == 0 {
                sink.error(E::Ipv4InIpv6InvalidCodePoint, span(pointer));
                return Err(());
            }
            pointer -= length;
            if piece_index > 6 {
                sink.error(E::Ipv4InIpv6TooManyPieces, at + pointer..at + len);
                return Err(());
            }
            let ipv4_start = pointer;
            let mut numbers_seen = 0;
            while pointer < len {
                let mut ipv4_piece: Option<u16> = None;
                if numbers_seen > 0 {
                    if c(pointer) == Some(b'.') && numbers_seen < 4 {
                        pointer += 1;
                    } else {
                        sink.error(E::Ipv4InIpv6InvalidCodePoint, span(pointer));
                        return Err(());
                    }
                }
                if !c(pointer).is_some_and(|b| b.is_ascii_digit()) {
                    sink.error(E::Ipv4InIpv6InvalidCodePoint, span(pointer));
                    return Err(());
                }
                let part_start = pointer;
                while let Some(b) = c(pointer).filter(u8::is_ascii_digit) {
                    let number = u16::from(b - b'0');
                    ipv4_piece = match ipv4_piece {
                        None => Some(number),
                        Some(0) => {
                            // A leading zero.
                            sink.error(E::Ipv4InIpv6InvalidCodePoint, span(pointer - 1));
                            return Err(());
                        }
                        Some(piece) => Some(piece * 10 + number),
                    };
                    if ipv4_piece.is_some_and(|p| p > 255) {
                        let mut end = pointer;
                        while c(end).is_some_and(|b| b.is_ascii_digit()) {
                            end += 1;
                        }
                        sink.error(E::Ipv4InIpv6OutOfRangePart, at + part_start..at + end);
                        return Err(());
                    }
                    pointer += 1;
                }
                // Steps 6.5.5.5 to 6.5.5.7.
                let piece = ipv4_piece.unwrap_or(0);
                let text = &input[part_start..pointer];
                sink.host_event(|| HostEvent::Ipv4InIpv6Part {
                    text: text.to_owned(),
                    value: piece as u8,
                });
                address[piece_index] = address[piece_index].wrapping_mul(0x100).wrapping_add(piece);
                numbers_seen += 1;
                if numbers_seen == 2 || numbers_seen == 4 {
                    piece_index += 1;
                }
            }
            if numbers_seen != 4 {
                sink.error(E::Ipv4InIpv6TooFewParts, at + ipv4_start..at + len);
                return Err(());
            }
            break;
        }
        // Step 6.6.
        if c(pointer) == Some(b':') {
            pointer += 1;
            if pointer >= len {
                sink.error(E::Ipv6InvalidCodePoint, span(pointer));
                return Err(());
            }
        } else if pointer < len {
            // Step 6.7.
            sink.error(E::Ipv6InvalidCodePoint, span(pointer));
            return Err(());
        }
        // Step 6.8.
        if length > 1 && u32::from(value) < 0x10u32.pow(length as u32 - 1) {
            sink.error(E::Ipv6PieceLeadingZero, at + start..at + start + length);
        }
        let text = &input[start..start + length];
        let index = piece_index;
        sink.host_event(|| HostEvent::Ipv6Piece {
            index,
            text: text.to_owned(),
            value,
        });
        // Steps 6.9 and 6.10.
        address[piece_index] = value;
        piece_index += 1;
    }
    // Step 7.
    if let Some(compress) = compress {
        let mut swaps = piece_index - compress;
        sink.host_event(|| HostEvent::Ipv6Swap { swaps, compress });
        piece_index = 7;
        while piece_index != 0 && swaps > 0 {
            address.swap(piece_index, compress + swaps - 1);
            piece_index -= 1;
            swaps -= 1;
        }
    } else if piece_index != 8 {
        // Step 8.
        sink.error(E::Ipv6TooFewPieces, at..at + len);
        return Err(());
    }
    Ok(address)
}

/// The range from the first span's start to the last one's end, for an error the standard raises
/// once for everything in its input that qualifies ("if input contains …").
fn cover(mut spans: impl Iterator<Item = Range<usize>>) -> Option<Range<usize>> {
    let first = spans.next()?;
    let end = spans.last().map_or(first.end, |last| last.end);
    Some(first.start..end)
}

// ---------------------------------------------------------------------------------------------
// Opaque hosts.

/// URL Standard: opaque-host parser.
fn parse_opaque_host<S: Raise>(sink: &mut S, input: &str, at: usize) -> Result<Host, ()> {
    // Step 1.
    if let Some((i, c)) = input
        .char_indices()
        .find(|&(_, c)| is_forbidden_host_code_point(c))
    {
        sink.error(E::HostInvalidCodePoint, at + i..at + i + c.len_utf8());
        sink.host_event(|| HostEvent::Failure);
        return Err(());
    }
    // Steps 2 and 3 each raise one error if input contains such a code point anywhere, covering
    // from the first to the last of them.
    let bytes = input.as_bytes();
    let spans = |invalid: &dyn Fn(usize, char) -> bool| {
        cover(
            input
                .char_indices()
                .filter(|&(i, c)| invalid(i, c))
                .map(|(i, c)| at + i..at + i + c.len_utf8()),
        )
    };
    if let Some(span) = spans(&|_, c| c != '%' && !is_url_code_point(c)) {
        sink.error(E::InvalidUrlUnit, span);
    }
    if let Some(span) = spans(&|i, c| c == '%' && !starts_with_percent_encoded_byte(&bytes[i..])) {
        sink.error(E::InvalidUrlUnit, span);
    }
    // Step 4.
    let output = percent::utf8_percent_encode(input, percent::C0_CONTROL);
    sink.host_event(|| HostEvent::OpaqueHost {
        input: input.to_owned(),
        output: output.clone(),
    });
    Ok(if output.is_empty() {
        Host::Empty
    } else {
        Host::Opaque(output)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::ErrorCollector;
    use crate::url::input::Input;
    use crate::url::sink::Sink;
    use crate::url::state::Phase;

    /// Parses `input` as a host; returns the serialization (or None) and the error names.
    fn host(input: &str, is_opaque: bool) -> (Option<String>, Vec<&'static str>) {
        let processed = Input::new(input, false);
        let mut collector = ErrorCollector::default();
        let mut sink = Sink {
            tracer: &mut collector,
            input: &processed,
            phase: Phase::RemoveTabOrNewline,
            last_error: None,
        };
        let result = parse_host(&mut sink, input, 0, is_opaque)
            .ok()
            .map(|h| h.to_string());
        let errors = collector
            .errors
            .entries()
            .iter()
            .map(|e| e.kind.name())
            .collect();
        (result, errors)
    }

    #[test]
    fn spec_example_table() {
        // URL Standard: the example table at the start of "Hosts (domains and IP addresses)".
        let cases: &[(&str, Option<&str>, Option<&str>)] = &[
            ("EXAMPLE.COM", Some("example.com"), Some("EXAMPLE.COM")),
            ("example%2Ecom", Some("example.com"), Some("example%2Ecom")),
            (
                "faß.example",
                Some("xn--fa-hia.example"),
                Some("fa%C3%9F.example"),
            ),
            ("0", Some("0.0.0.0"), Some("0")),
            ("%30", Some("0.0.0.0"), Some("%30")),
            ("0x", Some("0.0.0.0"), Some("0x")),
            ("0xffffffff", Some("255.255.255.255"), Some("0xffffffff")),
            ("[0:0::1]", Some("[::1]"), Some("[::1]")),
            ("[0:0::1%5D", None, None),
            ("[0:0::%31]", None, None),
            ("09", None, Some("09")),
            ("example.255", None, Some("example.255")),
            ("example^example", None, None),
        ];
        for &(input, domain, opaque) in cases {
            assert_eq!(
                host(input, false).0.as_deref(),
                domain,
                "{input} (not opaque)"
            );
            assert_eq!(host(input, true).0.as_deref(), opaque, "{input} (opaque)");
        }
    }

    #[test]
    fn ipv4_forms_and_errors() {
        assert_eq!(
            host("0x7f.1", false),
            (
                Some("127.0.0.1".into()),
                vec!["IPv4-too-few-parts", "IPv4-non-decimal-part"]
            )
        );
        assert_eq!(host("017700000001", false).0.as_deref(), Some("127.0.0.1"));
        assert_eq!(
            host("4294967295", false).0.as_deref(),
            Some("255.255.255.255")
        );
        assert_eq!(
            host("4294967296", false),
            (None, vec!["IPv4-too-few-parts", "IPv4-out-of-range-part"])
        );
        assert_eq!(
            host("1.2.3.4.5", false),
            (None, vec!["IPv4-too-many-parts"])
        );
        // Strict ToASCII sets VerifyDnsLength, under which the empty root label is an error.
        assert_eq!(
            host("1.2.3.4.", false),
            (
                Some("1.2.3.4".into()),
                vec!["domain-to-ASCII", "IPv4-empty-part"]
            )
        );
        assert_eq!(
            host("1.256.3.4", false),
            (None, vec!["IPv4-out-of-range-part"])
        );
        assert_eq!(
            host("1.2.3.256", false),
            (None, vec!["IPv4-out-of-range-part"])
        );
        assert_eq!(
            host("test.42", false),
            (None, vec!["IPv4-too-few-parts", "IPv4-non-numeric-part"])
        );
        let huge = format!("0x{}", "0".repeat(10_000));
        assert_eq!(host(&huge, false).0.as_deref(), Some("0.0.0.0"));
        let huge = format!("0x1{}", "0".repeat(10_000));
        assert_eq!(host(&huge, false).0, None);
    }

    #[test]
    fn ipv6_compression_embedded_ipv4_and_leading_zeros() {
        assert_eq!(host("[1:0::]", false).0.as_deref(), Some("[1::]"));
        assert_eq!(
            host("[::ffff:192.168.0.1]", false).0.as_deref(),
            Some("[::ffff:c0a8:1]")
        );
        assert_eq!(
            host("[::01]", false),
            (Some("[::1]".into()), vec!["IPv6-piece-leading-zero"])
        );
        assert_eq!(host("[::0]", false), (Some("[::]".into()), vec![]));
        assert_eq!(host("[::10]", false), (Some("[::10]".into()), vec![]));
        assert_eq!(
            host("[1:2:3:4:5:6:7:8:9]", false),
            (None, vec!["IPv6-too-many-pieces"])
        );
        assert_eq!(host("[1:2:3]", false), (None, vec!["IPv6-too-few-pieces"]));
        assert_eq!(
            host("[ffff::127.00.0.1]", false),
            (None, vec!["IPv4-in-IPv6-invalid-code-point"])
        );
        assert_eq!(
            host("[ffff::127.0.0.4000]", false),
            (None, vec!["IPv4-in-IPv6-out-of-range-part"])
        );
        assert_eq!(host("[::1", false), (None, vec!["IPv6-unclosed"]));
    }

    #[test]
    fn domains_and_the_ascii_fast_path() {
        assert_eq!(
            host("xn--a", false),
            (Some("xn--a".into()), vec!["domain-to-ASCII"])
        );
        assert_eq!(host("xn--a.ß", false), (None, vec!["domain-to-ASCII"]));
        assert_eq!(
            host("exa%23mple.org", false),
            (None, vec!["domain-percent-encoded", "domain-to-ASCII"])
        );
        assert_eq!(
            host("Bücher.de", false),
            (Some("xn--bcher-kva.de".into()), vec![])
        );
        assert_eq!(host("a\u{3002}b", false).0.as_deref(), Some("a.b"));
        assert_eq!(domain_to_unicode("xn--bcher-kva.de"), "bücher.de");
        assert_eq!(domain_to_unicode("xn--8i7caa"), "xn--8i7caa");
        assert_eq!(
            domain_parser("example.com", true).as_deref(),
            Some("example.com")
        );
        assert_eq!(domain_parser("-x.com", true), None);
    }

    #[test]
    fn ends_in_a_number_checker() {
        assert!(ends_in_a_number("1.2.3"));
        assert!(ends_in_a_number("a.0x"));
        assert!(ends_in_a_number("a.09."));
        assert!(!ends_in_a_number("a.b"));
        assert!(!ends_in_a_number("0x1g"));
        // Only one empty last part is removed; what is left decides.
        assert!(!ends_in_a_number("1.."));
        assert!(!ends_in_a_number("."));
        assert!(!ends_in_a_number("a."));
        assert!(ends_in_a_number("1."));
        assert!(ends_in_a_number("0X"));
        // The standard's steps as written, over every string of up to five of these pieces.
        let by_the_steps = |input: &str| {
            let mut parts: Vec<&str> = input.split('.').collect();
            if parts.last() == Some(&"") {
                if parts.len() == 1 {
                    return false;
                }
                parts.pop();
            }
            is_a_number(parts.last().copied().unwrap_or("").as_bytes())
        };
        let pieces = ["", ".", "1", "0x", "a", "\u{e9}", "09"];
        let mut inputs = vec![String::new()];
        for _ in 0..5 {
            let longer: Vec<String> = inputs
                .iter()
                .flat_map(|s| pieces.iter().map(move |p| format!("{s}{p}")))
                .collect();
            inputs.extend(longer);
            inputs.sort();
            inputs.dedup();
        }
        for input in &inputs {
            assert_eq!(ends_in_a_number(input), by_the_steps(input), "{input:?}");
        }
    }

    #[test]
    fn the_ascii_fast_path_agrees_with_uts46() {
        let uts46 = |d: &str| {
            Uts46::new()
                .to_ascii(
                    d.as_bytes(),
                    AsciiDenyList::STD3,
                    Hyphens::Check,
                    DnsLength::Verify,
                )
                .ok()
                .map(|c| c.into_owned())
        };
        let long_label = "a".repeat(64);
        let long_domain = format!("{}.com", "a.".repeat(130));
        for d in [
            "example.com",
            "EXAMPLE.COM",
            "a-b.c",
            "-a.com",
            "a-.com",
            "ab--c.com",
            "xn--a.com",
            "XN--zca.de",
            "a..b",
            "a.",
            ".a",
            "a_b.com",
            "a b",
            long_label.as_str(),
            long_domain.as_str(),
            "1.2.3.4",
            "0x7f.1",
        ] {
            if is_strictly_valid_ascii_domain(d) {
                assert_eq!(Some(d.to_ascii_lowercase()), uts46(d), "{d}");
            }
        }
        assert!(is_strictly_valid_ascii_domain("Example.COM"));
        assert!(!is_strictly_valid_ascii_domain("xn--zca.de"));
        assert!(!is_strictly_valid_ascii_domain("a."));
    }

    /// The one-pass test says what its definition says, label by label, of every string of up
    /// to five bytes from letters, digits, "-", "." and a byte it refuses, and of long ones.
    #[test]
    fn the_one_pass_ascii_domain_test_keeps_its_definition() {
        let by_labels = |d: &str| {
            d.len() <= 253
                && d.split('.').all(|label| {
                    let b = label.as_bytes();
                    (1..=63).contains(&b.len())
                        && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-')
                        && b[0] != b'-'
                        && b[b.len() - 1] != b'-'
                        && b.get(2..4) != Some(b"--")
                })
        };
        let mut all = crate::test_support::every_string_of(&["a", "Z", "0", "-", ".", "_"], 5);
        all.push(format!("{}.com", "a".repeat(63)));
        all.push(format!("{}.com", "a".repeat(64)));
        all.push(format!("{}com", "abc.".repeat(62)));
        all.push(format!("{}com", "abc.".repeat(63)));
        for d in &all {
            assert_eq!(is_strictly_valid_ascii_domain(d), by_labels(d), "{d:?}");
        }
        assert!(all.iter().filter(|d| by_labels(d)).count() > 1000);
    }
}
