//! Compact JSON, written straight into a byte buffer.
//!
//! The command line writes one JSON object per input line, most of it short strings (keys,
//! component values, names of scripts and findings). serde_json's serializer spends most of
//! its time on them: a writer call per quote and fragment, and a table lookup per byte. This
//! serializer pushes into a `Vec<u8>`, skips the bytes that need no escape eight at a time,
//! and writes exactly what `serde_json::to_writer` writes (a test holds it to that), so the
//! output stays serde_json's documented format.

use serde::ser::{self, Impossible, Serialize};
use std::fmt::{self, Display, Write as _};

/// Appends the compact JSON of `value` to `out`, as `serde_json::to_writer` would write it.
pub fn write<T: Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) -> Result<(), Error> {
    value.serialize(&mut Serializer { out })
}

/// Why a value could not be written: only a map key that is not a string, a number, a bool or
/// a char (serde_json refuses the same), or a `Serialize` impl's own error.
#[derive(Debug)]
pub struct Error(String);

impl Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl ser::Error for Error {
    fn custom<T: Display>(msg: T) -> Self {
        Error(msg.to_string())
    }
}

impl From<Error> for std::io::Error {
    fn from(error: Error) -> Self {
        std::io::Error::other(error)
    }
}

#[derive(Debug)]
pub struct Serializer<'a> {
    out: &'a mut Vec<u8>,
}

/// Bytes a JSON string must escape (RFC 8259 §7): the quotation mark, the reverse solidus and
/// the C0 controls. serde_json escapes nothing else (not DEL, not U+2028).
const fn needs_escape(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\'
}

/// Whether any of the eight bytes of `word` needs an escape (the classic has-less-than and
/// has-zero-byte tricks; a false "no" is impossible, and a "yes" is rechecked byte by byte).
#[inline(always)]
fn word_needs_escape(word: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let has_zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS;
    let below_space = word.wrapping_sub(ONES * 0x20) & !word & HIGHS;
    (below_space | has_zero(word ^ (ONES * b'"' as u64)) | has_zero(word ^ (ONES * b'\\' as u64)))
        != 0
}

/// Appends `s` as a JSON string, quotes included.
#[inline(always)]
pub fn write_str(out: &mut Vec<u8>, s: &str) {
    match short_words(s.as_bytes()) {
        Some(words) => push_short(out, words, s.len(), false),
        None => write_long_str(out, s),
    }
}

/// Appends `s` as a JSON string followed by `:`: an object's key.
#[inline(always)]
fn write_key(out: &mut Vec<u8>, s: &str) {
    match short_words(s.as_bytes()) {
        Some(words) => push_short(out, words, s.len(), true),
        None => {
            write_long_str(out, s);
            out.push(b':');
        }
    }
}

/// A string longer than 16 bytes, or one that needs an escape.
#[inline(never)]
fn write_long_str(out: &mut Vec<u8>, s: &str) {
    out.reserve(s.len() + 2);
    out.push(b'"');
    write_str_contents(out, s);
    out.push(b'"');
}

fn write_str_contents(out: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    if !any_needs_escape(bytes) {
        return out.extend_from_slice(bytes);
    }
    // The start of the run of bytes that need no escape.
    let mut run = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if needs_escape(b) {
            out.extend_from_slice(&bytes[run..i]);
            escape_byte(out, b);
            run = i + 1;
        }
    }
    out.extend_from_slice(&bytes[run..]);
}

/// A string of at most 16 bytes that needs no escape, as two little-endian words: bytes 0..8
/// and 8..16, zero past its end. `None` when it is longer or a byte needs an escape.
///
/// Most strings we write (keys, names, labels, components) are this short. Read with
/// fixed-size, overlapping loads, they are checked without a loop and copied without a call to
/// `memcpy`, which for a few bytes cost more than the copy itself.
#[inline(always)]
fn short_words(bytes: &[u8]) -> Option<[u64; 2]> {
    let n = bytes.len();
    let u32_at = |at: usize| {
        u64::from(u32::from_le_bytes(
            bytes[at..at + 4].try_into().unwrap_or_default(),
        ))
    };
    let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap_or_default());
    // Past the end, a byte that needs no escape stands in for the zeros.
    let padded = |word: u64, len: usize| word | u64::from_le_bytes([b'a'; 8]) << (len * 8);
    let low = match n {
        0 => return Some([0, 0]),
        // The first, middle and last bytes are all of them; equal bytes overlap harmlessly.
        1..=3 => {
            u64::from(bytes[0])
                | u64::from(bytes[n / 2]) << (n / 2 * 8)
                | u64::from(bytes[n - 1]) << ((n - 1) * 8)
        }
        4..=7 => u32_at(0) | u32_at(n - 4) << ((n - 4) * 8),
        8..=16 => u64_at(0),
        _ => return None,
    };
    if n < 8 {
        return (!word_needs_escape(padded(low, n))).then_some([low, 0]);
    }
    let high = if n == 8 {
        0
    } else {
        u64_at(n - 8) >> ((16 - n) * 8)
    };
    let high_checked = if n == 16 { high } else { padded(high, n - 8) };
    (!word_needs_escape(low) && !word_needs_escape(high_checked)).then_some([low, high])
}

/// Appends `"`, the first `n` bytes of `words` (little-endian), `"`, and with `colon` a `:`,
/// with one fixed-size copy.
#[inline(always)]
fn push_short(out: &mut Vec<u8>, words: [u64; 2], n: usize, colon: bool) {
    let mut buf = [0; 20];
    buf[0] = b'"';
    buf[1..9].copy_from_slice(&words[0].to_le_bytes());
    buf[9..17].copy_from_slice(&words[1].to_le_bytes());
    buf[n + 1] = b'"';
    buf[n + 2] = b':';
    let len = out.len();
    out.extend_from_slice(&buf);
    out.truncate(len + n + 2 + usize::from(colon));
}

/// Whether any byte of `bytes` needs an escape, eight bytes at a time: most strings we write
/// need none and are copied whole.
#[inline]
fn any_needs_escape(bytes: &[u8]) -> bool {
    if bytes.len() <= 16 {
        return short_words(bytes).is_none();
    }
    let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap_or_default());
    let mut any = false;
    let mut at = 0;
    while at + 8 <= bytes.len() {
        any |= word_needs_escape(word(at));
        at += 8;
    }
    // The last bytes, in a word that overlaps the previous one.
    any | word_needs_escape(word(bytes.len() - 8))
}

/// serde_json's escapes: the short forms where JSON has one, else `\u00xx` in lowercase hex.
fn escape_byte(out: &mut Vec<u8>, b: u8) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let short = match b {
        b'"' => b'"',
        b'\\' => b'\\',
        0x08 => b'b',
        0x0C => b'f',
        b'\n' => b'n',
        b'\r' => b'r',
        b'\t' => b't',
        _ => {
            out.extend_from_slice(&[
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[(b >> 4) as usize],
                HEX[(b & 0xF) as usize],
            ]);
            return;
        }
    };
    out.extend_from_slice(&[b'\\', short]);
}

/// `Display` output written as JSON string contents, without an intermediate `String`.
struct Escaping<'a>(&'a mut Vec<u8>);

impl fmt::Write for Escaping<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        write_str_contents(self.0, s);
        Ok(())
    }
}

/// The constant fragment that writes an object's key: `key!("host")` is `"host":` as bytes.
macro_rules! key {
    ($key:literal) => {
        concat!("\"", $key, "\":").as_bytes()
    };
}
pub(crate) use key;

/// An object written key by key, for the objects written once per input line (`parse --json`),
/// where the generic path cost more than the bytes it wrote: a key is a constant fragment
/// ([`key!`]), copied with its quotes and colon, and values go to [`write_str`] or, for the rare
/// and nested ones, through serde ([`Object::serde`]).
#[derive(Debug)]
pub struct Object<'a> {
    out: &'a mut Vec<u8>,
    first: bool,
}

impl<'a> Object<'a> {
    pub fn new(out: &'a mut Vec<u8>) -> Self {
        out.push(b'{');
        Object { out, first: true }
    }

    /// Writes a key (a [`key!`] fragment) after its comma, and gives the buffer for its value.
    #[inline(always)]
    pub fn key(&mut self, key: &'static [u8]) -> &mut Vec<u8> {
        if !std::mem::take(&mut self.first) {
            self.out.push(b',');
        }
        self.out.extend_from_slice(key);
        self.out
    }

    pub fn str(&mut self, key: &'static [u8], value: &str) {
        write_str(self.key(key), value);
    }

    pub fn opt_str(&mut self, key: &'static [u8], value: Option<&str>) {
        let out = self.key(key);
        match value {
            Some(value) => write_str(out, value),
            None => out.extend_from_slice(b"null"),
        }
    }

    pub fn bool(&mut self, key: &'static [u8], value: bool) {
        self.key(key)
            .extend_from_slice(if value { b"true" } else { b"false" });
    }

    pub fn strs(&mut self, key: &'static [u8], values: &[&str]) {
        write_strs(self.key(key), values);
    }

    /// A value written through serde, exactly as `serde_json` writes it.
    pub fn serde<T: Serialize + ?Sized>(
        &mut self,
        key: &'static [u8],
        value: &T,
    ) -> Result<(), Error> {
        write(self.key(key), value)
    }

    pub fn end(self) {
        self.out.push(b'}');
    }
}

/// Appends a JSON array of strings.
pub fn write_strs(out: &mut Vec<u8>, values: &[&str]) {
    write_array(out, values, |out, value| write_str(out, value));
}

/// Appends a JSON array, each item written by `item`.
pub fn write_array<T>(out: &mut Vec<u8>, items: &[T], mut item: impl FnMut(&mut Vec<u8>, &T)) {
    out.push(b'[');
    for (i, value) in items.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        item(out, value);
    }
    out.push(b']');
}

fn write_integer(ser: &mut Serializer<'_>, n: impl itoa::Integer) -> Result<(), Error> {
    ser.out
        .extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
    Ok(())
}

/// The integer methods of a serializer, each handing its value to `$write`.
macro_rules! integers {
    ($write:path) => {
        integers!($write; serialize_i8: i8, serialize_i16: i16, serialize_i32: i32,
            serialize_i64: i64, serialize_i128: i128, serialize_u8: u8, serialize_u16: u16,
            serialize_u32: u32, serialize_u64: u64, serialize_u128: u128);
    };
    ($write:path; $($method:ident: $t:ty),*) => {$(
        fn $method(self, v: $t) -> Result<(), Error> {
            $write(self, v)
        }
    )*};
}

/// Floats are rare in our output; serde_json formats them, so they read exactly as before.
fn write_float<F: Serialize>(out: &mut Vec<u8>, f: F) -> Result<(), Error> {
    serde_json::to_writer(out, &f).map_err(|e| Error(e.to_string()))
}

impl<'a, 'b> ser::Serializer for &'a mut Serializer<'b> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a, 'b>;
    type SerializeTuple = Compound<'a, 'b>;
    type SerializeTupleStruct = Compound<'a, 'b>;
    type SerializeTupleVariant = Compound<'a, 'b>;
    type SerializeMap = Compound<'a, 'b>;
    type SerializeStruct = Compound<'a, 'b>;
    type SerializeStructVariant = Compound<'a, 'b>;

    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.out
            .extend_from_slice(if v { b"true" } else { b"false" });
        Ok(())
    }

    integers!(write_integer);

    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        write_float(self.out, v)
    }

    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        write_float(self.out, v)
    }

    fn serialize_char(self, v: char) -> Result<(), Error> {
        write_str(self.out, v.encode_utf8(&mut [0; 4]));
        Ok(())
    }

    fn serialize_str(self, v: &str) -> Result<(), Error> {
        write_str(self.out, v);
        Ok(())
    }

    /// As serde_json: an array of numbers.
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Error> {
        use ser::SerializeSeq;
        let mut seq = self.serialize_seq(Some(v.len()))?;
        for b in v {
            seq.serialize_element(b)?;
        }
        seq.end()
    }

    fn serialize_none(self) -> Result<(), Error> {
        self.serialize_unit()
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), Error> {
        self.out.extend_from_slice(b"null");
        Ok(())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        self.serialize_unit()
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.serialize_str(variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }

    /// `{"variant":value}`
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.out.push(b'{');
        write_str(self.out, variant);
        self.out.push(b':');
        value.serialize(&mut *self)?;
        self.out.push(b'}');
        Ok(())
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Compound<'a, 'b>, Error> {
        self.out.push(b'[');
        Ok(Compound::new(self, b"]"))
    }

    fn serialize_tuple(self, len: usize) -> Result<Compound<'a, 'b>, Error> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<Compound<'a, 'b>, Error> {
        self.serialize_seq(Some(len))
    }

    /// `{"variant":[…]}`
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a, 'b>, Error> {
        self.out.push(b'{');
        write_str(self.out, variant);
        self.out.extend_from_slice(b":[");
        Ok(Compound::new(self, b"]}"))
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Compound<'a, 'b>, Error> {
        self.out.push(b'{');
        Ok(Compound::new(self, b"}"))
    }

    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a, 'b>, Error> {
        self.serialize_map(Some(len))
    }

    /// `{"variant":{…}}`
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a, 'b>, Error> {
        self.out.push(b'{');
        write_str(self.out, variant);
        self.out.extend_from_slice(b":{");
        Ok(Compound::new(self, b"}}"))
    }

    fn collect_str<T: Display + ?Sized>(self, value: &T) -> Result<(), Error> {
        self.out.push(b'"');
        write!(Escaping(self.out), "{value}").map_err(|e| Error(e.to_string()))?;
        self.out.push(b'"');
        Ok(())
    }
}

/// An array or object being written: it knows whether a comma comes next and how it closes.
#[derive(Debug)]
pub struct Compound<'a, 'b> {
    ser: &'a mut Serializer<'b>,
    first: bool,
    close: &'static [u8],
}

impl<'a, 'b> Compound<'a, 'b> {
    fn new(ser: &'a mut Serializer<'b>, close: &'static [u8]) -> Self {
        Compound {
            ser,
            first: true,
            close,
        }
    }

    #[inline]
    fn comma(&mut self) {
        if !std::mem::take(&mut self.first) {
            self.ser.out.push(b',');
        }
    }

    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.comma();
        value.serialize(&mut *self.ser)
    }

    fn field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Error> {
        self.comma();
        write_key(self.ser.out, key);
        value.serialize(&mut *self.ser)
    }

    fn finish(self) -> Result<(), Error> {
        self.ser.out.extend_from_slice(self.close);
        Ok(())
    }
}

/// The array-like compounds: each element after a comma.
macro_rules! array_like {
    ($($trait:ident :: $method:ident),*) => {$(
        impl ser::$trait for Compound<'_, '_> {
            type Ok = ();
            type Error = Error;

            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
                self.element(value)
            }

            fn end(self) -> Result<(), Error> {
                self.finish()
            }
        }
    )*};
}

array_like!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

/// The object-like compounds with static keys.
macro_rules! object_like {
    ($($trait:ident),*) => {$(
        impl ser::$trait for Compound<'_, '_> {
            type Ok = ();
            type Error = Error;

            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> Result<(), Error> {
                self.field(key, value)
            }

            fn end(self) -> Result<(), Error> {
                self.finish()
            }
        }
    )*};
}

object_like!(SerializeStruct, SerializeStructVariant);

impl ser::SerializeMap for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        self.comma();
        key.serialize(MapKey(self.ser.out))?;
        self.ser.out.push(b':');
        Ok(())
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        value.serialize(&mut *self.ser)
    }

    fn end(self) -> Result<(), Error> {
        self.finish()
    }
}

/// A map key: JSON keys are strings, so numbers, bools and chars are quoted, as serde_json
/// does; anything else is an error, as it is there.
struct MapKey<'a>(&'a mut Vec<u8>);

impl MapKey<'_> {
    fn quoted(self, n: impl Display + Copy) -> Result<(), Error> {
        self.0.push(b'"');
        write!(Escaping(self.0), "{n}").map_err(|e| Error(e.to_string()))?;
        self.0.push(b'"');
        Ok(())
    }
}

impl MapKey<'_> {
    /// A finite float, quoted, formatted as serde_json formats it.
    fn float<F: Serialize>(self, finite: bool, v: F) -> Result<(), Error> {
        if !finite {
            return Err(Error("float key must be finite".into()));
        }
        self.0.push(b'"');
        write_float(self.0, v)?;
        self.0.push(b'"');
        Ok(())
    }
}

fn key_must_be_a_string() -> Error {
    Error("key must be a string".into())
}

impl ser::Serializer for MapKey<'_> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    fn serialize_str(self, v: &str) -> Result<(), Error> {
        write_str(self.0, v);
        Ok(())
    }

    fn serialize_char(self, v: char) -> Result<(), Error> {
        write_str(self.0, v.encode_utf8(&mut [0; 4]));
        Ok(())
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.serialize_str(variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.quoted(v)
    }

    integers!(MapKey::quoted);

    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        self.float(v.is_finite(), v)
    }

    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        self.float(v.is_finite(), v)
    }

    fn serialize_bytes(self, _v: &[u8]) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_none(self) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_some<T: Serialize + ?Sized>(self, _value: &T) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_unit(self) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStruct, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, Error> {
        Err(key_must_be_a_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;
    use std::collections::BTreeMap;

    fn ours<T: Serialize>(value: &T) -> String {
        let mut out = Vec::new();
        write(&mut out, value).expect("written");
        String::from_utf8(out).expect("UTF-8")
    }

    #[test]
    fn strings_are_escaped_exactly_as_serde_json_escapes_them() {
        // Every ASCII byte in every position of strings of 1 to 24 bytes (the short strings
        // are read as overlapping words, the longer ones eight bytes at a time), with
        // multi-byte code points around it, and runs longer than one.
        let mut cases: Vec<String> = (0u8..=0x7F)
            .flat_map(|b| {
                let c = b as char;
                (1..=24).flat_map(move |len| {
                    (0..len).map(move |at| {
                        let after = "b".repeat(len - at - 1);
                        let accents = "é".repeat(at % 3);
                        format!("{}{c}{after}{accents}", "a".repeat(at))
                    })
                })
            })
            .collect();
        cases.extend(
            [
                "",
                "\"",
                "\\",
                "\u{7f}",
                "\u{2028}\u{2029}",
                "\u{1b}[2J",
                "tab\there",
                "ünï\u{0}côdé\u{1f}",
                "https://example.com/?q=\"x\"\\y",
                "𝒳𝒴\r\n",
            ]
            .map(String::from),
        );
        for case in &cases {
            assert_eq!(
                ours(case),
                serde_json::to_string(case).expect("serde_json"),
                "{case:?}"
            );
        }
    }

    #[derive(Serialize)]
    enum Shape {
        Unit,
        Newtype(u8),
        Tuple(i32, String),
        Struct { a: Option<u16>, b: Vec<bool> },
    }

    #[derive(Serialize)]
    #[serde(tag = "kind", rename_all = "kebab-case")]
    enum Tagged {
        One { value: f64 },
        Two,
    }

    #[derive(Serialize)]
    struct Everything {
        unit: (),
        chars: Vec<char>,
        numbers: (i8, i64, u64, i128, u128, f32, f64, f64),
        shapes: Vec<Shape>,
        tagged: Vec<Tagged>,
        map: BTreeMap<u32, &'static str>,
        #[serde(flatten)]
        flat: BTreeMap<String, Option<String>>,
        bytes: serde_bytes_like::Bytes,
        empty: (Vec<u8>, BTreeMap<String, u8>),
    }

    mod serde_bytes_like {
        pub struct Bytes(pub &'static [u8]);
        impl serde::Serialize for Bytes {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_bytes(self.0)
            }
        }
    }

    #[test]
    fn every_shape_serde_has_is_written_as_serde_json_writes_it() {
        let value = Everything {
            unit: (),
            chars: vec!['a', '"', '\n', 'é'],
            numbers: (
                -128,
                i64::MIN,
                u64::MAX,
                i128::MIN,
                u128::MAX,
                1.5,
                0.1,
                f64::NAN,
            ),
            shapes: vec![
                Shape::Unit,
                Shape::Newtype(7),
                Shape::Tuple(-1, "x\"y".into()),
                Shape::Struct {
                    a: None,
                    b: vec![true, false],
                },
                Shape::Struct {
                    a: Some(443),
                    b: vec![],
                },
            ],
            tagged: vec![Tagged::One { value: 1e300 }, Tagged::Two],
            map: BTreeMap::from([(1, "one"), (22, "two\u{1}")]),
            flat: BTreeMap::from([("k\\".into(), None), ("v".into(), Some("w".into()))]),
            bytes: serde_bytes_like::Bytes(b"\x00\xff"),
            empty: (vec![], BTreeMap::new()),
        };
        assert_eq!(
            ours(&value),
            serde_json::to_string(&value).expect("serde_json")
        );
    }

    #[test]
    fn a_key_that_is_not_a_string_is_refused_as_serde_json_refuses_it() {
        let map = BTreeMap::from([(vec![1u8], 1u8)]);
        assert!(serde_json::to_string(&map).is_err());
        let mut out = Vec::new();
        assert!(write(&mut out, &map).is_err());
    }
}
