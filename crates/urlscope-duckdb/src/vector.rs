//! DuckDB's vectors, read and written through the C API: a chunk's input columns (flat: DuckDB
//! flattens a C API scalar function's input before calling it) and the result vector, with its
//! struct members and list items.
//!
//! A value is written at a row of a vector of the right type only; [`Ty`] says which, and the
//! writers in src/functions.rs follow the same tree that made the result's logical type.

use std::ffi::c_char;
use std::marker::PhantomData;

use libduckdb_sys::{
    duckdb_data_chunk, duckdb_list_entry, duckdb_string_t, duckdb_string_t__bindgen_ty_1,
    duckdb_string_t__bindgen_ty_1__bindgen_ty_1, duckdb_string_t__bindgen_ty_1__bindgen_ty_2,
    duckdb_vector, idx_t, DuckDBSuccess,
};
use urlscope::MAX_INPUT;

use crate::api::ddb;
use crate::types::Ty;

/// The input rows of one call: a flat chunk of `len` rows.
#[derive(Debug)]
pub struct Chunk {
    chunk: duckdb_data_chunk,
    pub len: usize,
    pub columns: usize,
}

impl Chunk {
    /// # Safety
    ///
    /// `chunk` is the input chunk DuckDB passed to a scalar function, valid for the call.
    pub unsafe fn new(chunk: duckdb_data_chunk) -> Self {
        // SAFETY: the caller's contract.
        let (len, columns) = unsafe {
            (
                ddb!(duckdb_data_chunk_get_size(chunk)),
                ddb!(duckdb_data_chunk_get_column_count(chunk)),
            )
        };
        Chunk {
            chunk,
            len: usize::try_from(len).unwrap_or(0),
            columns: usize::try_from(columns).unwrap_or(0),
        }
    }

    fn vector(&self, column: usize) -> duckdb_vector {
        // SAFETY: a column of the chunk (the callers ask only for their own signature's).
        unsafe { ddb!(duckdb_data_chunk_get_vector(self.chunk, column as idx_t)) }
    }

    /// Column `column`, of VARCHAR.
    pub fn strings(&self, column: usize) -> Strings<'_> {
        // SAFETY: a flat VARCHAR vector of the chunk's rows.
        unsafe { Strings::new(self.vector(column), self.len) }
    }

    /// Column `column`, of BOOLEAN.
    pub fn bools(&self, column: usize) -> Bools<'_> {
        let vector = self.vector(column);
        // SAFETY: a flat BOOLEAN vector of the chunk's rows: one byte a row.
        unsafe {
            Bools {
                data: ddb!(duckdb_vector_get_data(vector)).cast(),
                validity: ddb!(duckdb_vector_get_validity(vector)),
                _chunk: PhantomData,
            }
        }
    }

    /// Column `column`, of VARCHAR[].
    pub fn string_lists(&self, column: usize) -> StringLists<'_> {
        let vector = self.vector(column);
        // SAFETY: a flat list vector of the chunk's rows, whose child is VARCHAR of the lists'
        // items (`duckdb_list_vector_get_size` of them).
        unsafe {
            let child = ddb!(duckdb_list_vector_get_child(vector));
            let items = usize::try_from(ddb!(duckdb_list_vector_get_size(vector))).unwrap_or(0);
            StringLists {
                entries: ddb!(duckdb_vector_get_data(vector)).cast(),
                validity: ddb!(duckdb_vector_get_validity(vector)),
                items: Strings::new(child, items),
                _chunk: PhantomData,
            }
        }
    }
}

/// Whether row `row` is valid in a validity mask (null: every row is).
///
/// # Safety
///
/// `validity` is null or a mask of at least `row + 1` bits.
unsafe fn is_valid(validity: *const u64, row: usize) -> bool {
    // SAFETY: the caller's contract.
    validity.is_null() || unsafe { *validity.add(row / 64) } & (1 << (row % 64)) != 0
}

/// A flat VARCHAR vector's rows.
#[derive(Clone, Copy, Debug)]
pub struct Strings<'a> {
    data: *const duckdb_string_t,
    validity: *const u64,
    len: usize,
    _chunk: PhantomData<&'a Chunk>,
}

impl<'a> Strings<'a> {
    /// # Safety
    ///
    /// `vector` is a flat VARCHAR vector of at least `len` rows, valid for `'a`.
    unsafe fn new(vector: duckdb_vector, len: usize) -> Self {
        // SAFETY: the caller's contract.
        unsafe {
            Strings {
                data: ddb!(duckdb_vector_get_data(vector)).cast(),
                validity: ddb!(duckdb_vector_get_validity(vector)),
                len,
                _chunk: PhantomData,
            }
        }
    }

    /// The bytes of row `row`, `None` for NULL.
    pub fn get(&self, row: usize) -> Option<&'a [u8]> {
        if row >= self.len {
            return None;
        }
        // SAFETY: `row` is within the vector's rows; a `duckdb_string_t` holds its length, then
        // either the bytes themselves (12 at most: "inlined") or a prefix and a pointer to them
        // in the vector's string heap, which lives as long as the chunk.
        unsafe {
            if !is_valid(self.validity, row) {
                return None;
            }
            let s = &*self.data.add(row);
            let len = s.value.inlined.length as usize;
            let ptr = if len <= 12 {
                s.value.inlined.inlined.as_ptr()
            } else {
                s.value.pointer.ptr.cast_const()
            };
            Some(std::slice::from_raw_parts(ptr.cast::<u8>(), len))
        }
    }

    /// Row `row` as the functions read it.
    pub fn cell(&self, row: usize) -> Cell<'a> {
        Cell::of(self.get(row))
    }
}

/// One input string as the functions take it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell<'a> {
    /// SQL's NULL.
    Null,
    /// A row no function reads: not UTF-8 (DuckDB's VARCHAR is UTF-8, but a C API client can
    /// hand it other bytes), or longer than the limit on one input, `urlscope::MAX_INPUT`, as
    /// every other surface refuses. Its result is NULL, as with `parse_batch(errors="null")`:
    /// the query goes on.
    Bad,
    Text(&'a str),
}

impl<'a> Cell<'a> {
    pub fn of(bytes: Option<&'a [u8]>) -> Self {
        match bytes {
            None => Cell::Null,
            Some(b) if b.len() > MAX_INPUT => Cell::Bad,
            // Nearly every URL is ASCII, which a word at a time tells faster than
            // `from_utf8`'s byte-wise walk up to its first aligned word (a sixth of
            // `urlscope_host`'s time over kasztp.txt).
            Some(b) if b.is_ascii() => {
                // SAFETY: ASCII is UTF-8.
                Cell::Text(unsafe { std::str::from_utf8_unchecked(b) })
            }
            Some(b) => std::str::from_utf8(b).map_or(Cell::Bad, Cell::Text),
        }
    }
}

/// A flat BOOLEAN vector's rows.
#[derive(Clone, Copy, Debug)]
pub struct Bools<'a> {
    data: *const u8,
    validity: *const u64,
    _chunk: PhantomData<&'a Chunk>,
}

impl Bools<'_> {
    pub fn get(&self, row: usize) -> Option<bool> {
        // SAFETY: a row of the chunk's vector (the callers read rows below `Chunk::len`).
        unsafe { is_valid(self.validity, row).then(|| *self.data.add(row) != 0) }
    }
}

/// A flat VARCHAR[] vector's rows.
#[derive(Clone, Copy, Debug)]
pub struct StringLists<'a> {
    entries: *const duckdb_list_entry,
    validity: *const u64,
    items: Strings<'a>,
    _chunk: PhantomData<&'a Chunk>,
}

impl<'a> StringLists<'a> {
    /// Row `row`: where its items are in the child vector, `None` for NULL.
    pub fn entry(&self, row: usize) -> Option<(usize, usize)> {
        // SAFETY: a row of the chunk's vector (the callers read rows below `Chunk::len`).
        unsafe {
            if !is_valid(self.validity, row) {
                return None;
            }
            let e = *self.entries.add(row);
            Some((
                usize::try_from(e.offset).unwrap_or(usize::MAX),
                usize::try_from(e.length).unwrap_or(0),
            ))
        }
    }

    /// The items of an entry, each `None` for a NULL item.
    pub fn items(
        &self,
        (offset, len): (usize, usize),
    ) -> impl ExactSizeIterator<Item = Option<&'a [u8]>> + '_ {
        (offset..offset.saturating_add(len)).map(|i| self.items.get(i))
    }
}

/// The most bytes a `duckdb_string_t` holds in itself ("inlined"); a longer string is a pointer
/// to its bytes, with their first four beside it (the C API's `duckdb_string_t`, described in its
/// documentation of vectors' strings, and `duckdb_string_is_inlined`).
const INLINED: usize = 12;

/// `text` as an inlined `duckdb_string_t`, if it is short enough to be one: its length, then
/// its bytes, then zeros (DuckDB compares short strings by all 16 bytes, so the rest must be
/// zero, as its own `string_t` writes it).
fn inlined(text: &str) -> Option<duckdb_string_t> {
    if text.len() > INLINED {
        return None;
    }
    let mut bytes = [0 as c_char; INLINED];
    for (to, from) in bytes.iter_mut().zip(text.as_bytes()) {
        *to = *from as c_char;
    }
    Some(duckdb_string_t {
        value: duckdb_string_t__bindgen_ty_1 {
            inlined: duckdb_string_t__bindgen_ty_1__bindgen_ty_2 {
                length: text.len() as u32,
                inlined: bytes,
            },
        },
    })
}

/// A VARCHAR vector of the result written a chunk at a time, for the functions whose result is
/// one string a row (`urlscope_host`, `urlscope_href`, `urlscope_registrable_domain`).
///
/// A string of 12 bytes or less is written into its row (inlined). A longer one is copied into
/// a buffer of the chunk's longer strings, end to end; [`Texts::finish`] hands that buffer to
/// DuckDB in one `duckdb_vector_assign_string_element_len` (one copy into the vector's string
/// heap and, in DuckDB 1.5 and later, one UTF-8 check), then points each row at its bytes in
/// the heap's copy. Calling DuckDB once a row cost more than finding the host (a fifth of
/// `urlscope_host`'s time over kasztp.txt).
///
/// The bytes stay in the heap after the row they were assigned to is rewritten: a vector's
/// string heap is an arena, let go of as a whole when the vector is (DuckDB's `StringHeap`, in
/// every release the extension loads in), which is what lets DuckDB's own functions make strings
/// in it and point rows at them.
#[derive(Debug)]
pub struct Texts {
    out: Out,
    data: *mut duckdb_string_t,
    /// The rows whose strings are in `bytes`, each with its string's length, in order.
    long: Vec<(usize, u32)>,
    bytes: Vec<u8>,
}

impl Texts {
    /// Bytes held before they are handed to DuckDB, so that the buffer stays small however
    /// long the chunk's strings are (a string's length must also fit in 32 bits).
    const FLUSH_AT: usize = 1 << 20;

    /// The writer of `out`'s `rows` rows.
    pub fn new(out: Out, rows: usize) -> Self {
        Texts {
            out,
            data: out.data(),
            // Room for a host of a web URL a row (17 bytes over kasztp.txt), so that the
            // buffers grow seldom.
            long: Vec::with_capacity(rows),
            bytes: Vec::with_capacity(rows * 24),
        }
    }

    /// `text` at row `row`.
    pub fn push(&mut self, row: usize, text: &str) {
        if let Some(inlined) = inlined(text) {
            // SAFETY: a VARCHAR vector's data is one `duckdb_string_t` a row (the callers
            // write rows below `Chunk::len`).
            unsafe { *self.data.add(row) = inlined };
            return;
        }
        self.long.push((row, text.len() as u32));
        self.bytes.extend_from_slice(text.as_bytes());
        if self.bytes.len() >= Self::FLUSH_AT {
            self.flush();
        }
    }

    /// NULL at row `row`.
    pub fn null(&mut self, row: usize) {
        self.out.set_invalid(row);
    }

    fn flush(&mut self) {
        let Some(&(first, _)) = self.long.first() else {
            return;
        };
        // The buffer, longer than 12 bytes (each of its strings is), becomes a string of the
        // heap at the first of its rows, which is rewritten below with the others.
        self.out.heap_str(first, &self.bytes);
        // SAFETY: the row just assigned holds a pointer to DuckDB's copy of `bytes`, which
        // lives as long as the vector; each row written below points at its own string's
        // bytes within it, with that string's length and first four bytes.
        unsafe {
            let heap = (*self.data.add(first)).value.pointer.ptr;
            let mut at = 0;
            for &(row, length) in &self.long {
                let ptr = heap.add(at);
                let mut prefix = [0 as c_char; 4];
                std::ptr::copy_nonoverlapping(ptr, prefix.as_mut_ptr(), 4);
                *self.data.add(row) = duckdb_string_t {
                    value: duckdb_string_t__bindgen_ty_1 {
                        pointer: duckdb_string_t__bindgen_ty_1__bindgen_ty_1 {
                            length,
                            prefix,
                            ptr,
                        },
                    },
                };
                at += length as usize;
            }
        }
        self.long.clear();
        self.bytes.clear();
    }

    /// Hands the chunk's longer strings to DuckDB: after this, every row pushed is written.
    pub fn finish(mut self) {
        self.flush();
    }
}

/// A vector of the result (or a member or items of one), written a row at a time.
#[derive(Clone, Copy, Debug)]
pub struct Out(duckdb_vector);

impl Out {
    /// # Safety
    ///
    /// `vector` is the result vector DuckDB passed to a scalar function, of the function's
    /// return type, with room for the chunk's rows.
    pub unsafe fn new(vector: duckdb_vector) -> Self {
        Out(vector)
    }

    fn data<T>(self) -> *mut T {
        // SAFETY: a vector of the result; its data has room for every row written.
        unsafe { ddb!(duckdb_vector_get_data(self.0)).cast() }
    }

    /// Marks row `row` NULL (its value, if any, is then ignored).
    pub fn set_invalid(self, row: usize) {
        // SAFETY: the mask is made writable first, then has a bit for every row of the vector.
        unsafe {
            ddb!(duckdb_vector_ensure_validity_writable(self.0));
            let validity = ddb!(duckdb_vector_get_validity(self.0));
            *validity.add(row / 64) &= !(1u64 << (row % 64));
        }
    }

    /// NULL at row `row` of a vector of type `ty`, its members NULL too: DuckDB reads a struct's
    /// members on their own (`s.member`), so a NULL struct's members must not hold garbage.
    pub fn null(self, ty: &Ty, row: usize) {
        self.set_invalid(row);
        match ty {
            Ty::Struct(members) => {
                for (i, (_, member)) in members.iter().enumerate() {
                    self.member(i).null(member, row);
                }
            }
            Ty::List(_) => {
                let at = self.list_len();
                // SAFETY: a list vector's data is one entry a row.
                unsafe {
                    *self.data::<duckdb_list_entry>().add(row) = duckdb_list_entry {
                        offset: at as u64,
                        length: 0,
                    };
                }
            }
            Ty::Varchar | Ty::Boolean | Ty::UInteger | Ty::UBigInt => {}
        }
    }

    /// `text` at row `row` of a VARCHAR vector.
    pub fn str(self, row: usize, text: &str) {
        if let Some(inlined) = inlined(text) {
            // SAFETY: a VARCHAR vector's data is one `duckdb_string_t` a row.
            unsafe { *self.data::<duckdb_string_t>().add(row) = inlined };
            return;
        }
        self.heap_str(row, text.as_bytes());
    }

    /// `text` at row `row` of a VARCHAR vector, copied by DuckDB into the vector's string heap
    /// (which DuckDB 1.5 and later check is UTF-8).
    fn heap_str(self, row: usize, text: &[u8]) {
        // SAFETY: DuckDB copies `text.len()` bytes into the vector's string heap.
        unsafe {
            ddb!(duckdb_vector_assign_string_element_len(
                self.0,
                row as idx_t,
                text.as_ptr().cast::<c_char>(),
                text.len() as idx_t,
            ))
        }
    }

    pub fn opt_str(self, row: usize, text: Option<&str>) {
        match text {
            Some(text) => self.str(row, text),
            None => self.set_invalid(row),
        }
    }

    /// At row `row` of a BOOLEAN vector.
    pub fn bool(self, row: usize, value: bool) {
        // SAFETY: a BOOLEAN vector's data is one byte (a C++ bool) a row.
        unsafe { *self.data::<bool>().add(row) = value }
    }

    /// At row `row` of a UINTEGER vector.
    pub fn u32(self, row: usize, value: u32) {
        // SAFETY: a UINTEGER vector's data is one u32 a row.
        unsafe { *self.data::<u32>().add(row) = value }
    }

    /// At row `row` of a UBIGINT vector.
    pub fn u64(self, row: usize, value: u64) {
        // SAFETY: a UBIGINT vector's data is one u64 a row.
        unsafe { *self.data::<u64>().add(row) = value }
    }

    /// Member `i` of a STRUCT vector.
    pub fn member(self, i: usize) -> Out {
        // SAFETY: a struct vector with more than `i` members (the result's own type).
        Out(unsafe { ddb!(duckdb_struct_vector_get_child(self.0, i as idx_t)) })
    }

    fn list_len(self) -> usize {
        // SAFETY: a list vector.
        usize::try_from(unsafe { ddb!(duckdb_list_vector_get_size(self.0)) }).unwrap_or(0)
    }

    /// Row `row` of a list vector: a list of `n` items, which `write` writes into the items'
    /// vector at the indexes it is given (the first is `start`).
    pub fn list(self, row: usize, n: usize, write: impl FnOnce(Out, usize)) {
        let start = self.list_len();
        let end = start + n;
        // SAFETY: a list vector; the items' vector is taken after it is grown (growing may move
        // its buffers), written below `end`, then its size is set to `end`.
        unsafe {
            if n > 0 {
                let state = ddb!(duckdb_list_vector_reserve(self.0, end as idx_t));
                // DuckDB reports only an allocation it could not make; a result it cannot hold
                // is the query's error, raised by the caller.
                assert!(
                    state == DuckDBSuccess,
                    "could not grow a list of the result"
                );
                write(Out(ddb!(duckdb_list_vector_get_child(self.0))), start);
            }
            *self.data::<duckdb_list_entry>().add(row) = duckdb_list_entry {
                offset: start as u64,
                length: n as u64,
            };
            if n > 0 {
                ddb!(duckdb_list_vector_set_size(self.0, end as idx_t));
            }
        }
    }

    /// Row `row` of a VARCHAR[] vector.
    pub fn str_list<'s>(self, row: usize, items: impl ExactSizeIterator<Item = &'s str>) {
        self.list(row, items.len(), |child, start| {
            for (i, item) in items.enumerate() {
                child.str(start + i, item);
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_no_function_reads_is_bad_not_an_error() {
        assert_eq!(Cell::of(None), Cell::Null);
        assert_eq!(Cell::of(Some(b"http://a/")), Cell::Text("http://a/"));
        // Not UTF-8: a lone continuation byte, a surrogate's encoding.
        assert_eq!(Cell::of(Some(b"http://a/\x80")), Cell::Bad);
        assert_eq!(Cell::of(Some(b"http://a/\xed\xa0\x80")), Cell::Bad);
        let at_limit = vec![b'a'; MAX_INPUT];
        assert!(matches!(Cell::of(Some(&at_limit)), Cell::Text(_)));
        let over = vec![b'a'; MAX_INPUT + 1];
        assert_eq!(Cell::of(Some(&over)), Cell::Bad);
    }
}
