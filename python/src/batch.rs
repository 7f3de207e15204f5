//! Batches: many inputs parsed (or checked) into one Arrow struct array, with the GIL released
//! and the rows spread over the cores.
//!
//! The columns are the library's fields (`urlscope::report::fields`), the same the command
//! line's `parse --json` writes, each typed by what it holds; a batch computes only what its
//! fields need: hrefs alone collect no validation error and analyse no host. The rows are
//! written in pieces (on one thread, or one piece per worker), each piece's arrays reserved for
//! its rows at the start ([`Capacity`]); a window of as many pieces as threads at a time, each
//! finished piece is copied into the batch's own buffers ([`Joined`]) and let go. Beside the
//! result, a window's pieces and a row's parse per thread are all the memory a batch takes.

use std::ops::Range;
use std::str::FromStr;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use arrow_array::builder::{
    ArrayBuilder, BooleanBuilder, LargeStringBuilder, UInt32Builder, UInt64Builder,
};
use arrow_array::cast::AsArray;
use arrow_array::{
    Array, ArrayRef, BooleanArray, LargeStringArray, ListArray, StringArray, StringViewArray,
    StructArray, UInt32Array, UInt64Array,
};
use arrow_buffer::{
    BooleanBufferBuilder, Buffer, NullBuffer, NullBufferBuilder, OffsetBuffer, ScalarBuffer,
};
use arrow_schema::{ArrowError, DataType, Field, FieldRef, Fields as ArrowFields};
use encoding_rs::{Encoding, UTF_8};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString};
use rayon::prelude::*;
use rayon::{ThreadPool, ThreadPoolBuildError, ThreadPoolBuilder};

use urlscope::diff::Lab;
use urlscope::inspect::gate::{Allowlist, Gate};
use urlscope::inspect::resolve::{self, system::SystemResolver, Resolver};
use urlscope::inspect::{Finding, HostAnalysis, Severity};
use urlscope::report::fields::{self, FieldType, Fields, Needs, KEYS};
use urlscope::report::{Parts, Report};
use urlscope::url::writing::Writing;
use urlscope::url::Component;
use urlscope::{Url, ValidationError, MAX_INPUT};

use crate::arrow_ffi::{self, ArrowArray};
use crate::{encoding, guarded, not_utf8, over_limit, parse_base};

/// The fewest rows of a piece on several threads: enough to keep a worker busy for a while
/// (a few milliseconds), few enough that a batch of a few thousand rows still spreads over the
/// cores.
const CHUNK: usize = 2048;

/// The most rows of a piece, unless the caller names another: a batch is built a piece at a
/// time, so that a large input never makes arrays (or, from a Python list, copies of strings)
/// for all its rows at once beside the result.
pub const PIECE_ROWS: usize = 65_536;

/// The most threads a batch may be given (`urlscope.MAX_JOBS`); `jobs` above it is refused
/// with a `ValueError`. A batch's work is computation, so threads beyond the cores only add
/// switching; the bound stops a slip (`jobs=10**6`) from starting threads until the machine
/// stops answering, and still leaves room for the largest machines' cores.
pub const MAX_JOBS: usize = 1024;

/// What a piece's builders reserve, so that a piece of any length is written into its arrays
/// without growing them: a buffer that grows is copied whole into a new one (Arrow's buffers
/// are aligned past what `realloc` keeps), and on a piece of a whole batch those copies cost
/// as much as the parse.
#[derive(Clone, Copy)]
pub(crate) struct Capacity {
    rows: usize,
    /// The bytes of the piece's inputs. A URL's components are parts of its input, and their
    /// serializations are seldom longer: each string column of them reserves as much. (Only
    /// the pages written to are ever resident.)
    bytes: usize,
}

impl Capacity {
    pub(crate) fn of(piece: &[Segment<'_>]) -> Self {
        Capacity {
            rows: piece.iter().map(|(_, rows)| rows.len()).sum(),
            bytes: piece
                .iter()
                .map(|(column, rows)| column.bytes(rows.clone()))
                .sum(),
        }
    }

    /// A column of strings, each a part of its input.
    fn text(self) -> LargeStringBuilder {
        LargeStringBuilder::with_capacity(self.rows, self.bytes)
    }

    /// A column of short strings (names, or values that are seldom there).
    fn short_text(self) -> LargeStringBuilder {
        LargeStringBuilder::with_capacity(self.rows, 1024)
    }

    fn bools(self) -> BooleanBuilder {
        BooleanBuilder::with_capacity(self.rows)
    }

    fn nulls(self) -> NullBufferBuilder {
        NullBufferBuilder::new(self.rows)
    }
}

// --- the inputs -----------------------------------------------------------------------------

/// One Arrow array of the input, moved in through the C data interface (not copied), with the
/// keys of a dictionary array read once.
pub(crate) struct Imported {
    array: ArrayRef,
    /// A dictionary's keys as indexes into its values (Arrow's normalized keys).
    keys: Option<Vec<usize>>,
}

impl Imported {
    pub(crate) fn new(array: ArrayRef) -> Self {
        let keys = array
            .as_any_dictionary_opt()
            .filter(|d| !d.values().is_empty())
            .map(|d| d.normalized_keys());
        Imported { array, keys }
    }
}

/// The strings of a string array, whichever of Arrow's string layouts it has.
#[derive(Clone, Copy)]
pub(crate) enum Strs<'a> {
    Utf8(&'a StringArray),
    LargeUtf8(&'a LargeStringArray),
    Utf8View(&'a StringViewArray),
}

impl<'a> Strs<'a> {
    fn of(array: &'a dyn Array) -> Option<Self> {
        let any = array.as_any();
        if let Some(a) = any.downcast_ref::<StringArray>() {
            Some(Strs::Utf8(a))
        } else if let Some(a) = any.downcast_ref::<LargeStringArray>() {
            Some(Strs::LargeUtf8(a))
        } else {
            any.downcast_ref::<StringViewArray>().map(Strs::Utf8View)
        }
    }

    #[inline]
    fn get(self, i: usize) -> Option<&'a str> {
        match self {
            Strs::Utf8(a) => a.is_valid(i).then(|| a.value(i)),
            Strs::LargeUtf8(a) => a.is_valid(i).then(|| a.value(i)),
            Strs::Utf8View(a) => a.is_valid(i).then(|| a.value(i)),
        }
    }
}

/// One column of the input: a string array, a dictionary of strings (pandas' categorical, a
/// Polars Categorical), an array of nulls only (Arrow's `null` type: an all-null or empty
/// column), or a Python list's strings.
#[derive(Clone, Copy)]
pub(crate) enum Column<'a> {
    Strings(Strs<'a>),
    Dictionary {
        /// The dictionary array itself, for its keys' validity.
        array: &'a dyn Array,
        keys: &'a [usize],
        values: Strs<'a>,
    },
    Nulls(usize),
    List(&'a [Option<String>]),
}

impl<'a> Column<'a> {
    fn len(&self) -> usize {
        match self {
            Column::Strings(Strs::Utf8(a)) => a.len(),
            Column::Strings(Strs::LargeUtf8(a)) => a.len(),
            Column::Strings(Strs::Utf8View(a)) => a.len(),
            Column::Dictionary { array, .. } => array.len(),
            Column::Nulls(n) => *n,
            Column::List(l) => l.len(),
        }
    }

    /// The bytes of the strings of `rows`.
    fn bytes(&self, rows: Range<usize>) -> usize {
        match self {
            Column::Strings(Strs::Utf8(a)) => {
                let offsets = a.value_offsets();
                usize::try_from(offsets[rows.end] - offsets[rows.start]).unwrap_or(0)
            }
            Column::Strings(Strs::LargeUtf8(a)) => {
                let offsets = a.value_offsets();
                usize::try_from(offsets[rows.end] - offsets[rows.start]).unwrap_or(0)
            }
            Column::Strings(Strs::Utf8View(_)) | Column::Dictionary { .. } => {
                rows.map(|i| self.get(i).map_or(0, str::len)).sum()
            }
            Column::Nulls(_) => 0,
            Column::List(l) => l[rows].iter().flatten().map(String::len).sum(),
        }
    }

    /// Row `i`, `None` for a null, and for a row over the limit on one input
    /// (`urlscope::MAX_INPUT`): with `errors="raise"` a batch has refused those first
    /// ([`first_too_long`]), with `errors="null"` they are null rows.
    #[inline]
    fn get(&self, i: usize) -> Option<&'a str> {
        self.get_any(i).filter(|s| s.len() <= MAX_INPUT)
    }

    /// Row `i` whatever its length.
    #[inline]
    fn get_any(&self, i: usize) -> Option<&'a str> {
        match self {
            Column::Strings(s) => s.get(i),
            Column::Dictionary {
                array,
                keys,
                values,
            } => {
                if array.is_valid(i) {
                    values.get(keys[i])
                } else {
                    None
                }
            }
            Column::Nulls(_) => None,
            Column::List(l) => l[i].as_deref(),
        }
    }

    /// The first row longer than the limit on one input, with its length.
    fn first_too_long(&self) -> Option<(usize, usize)> {
        // Strings that fit in the limit all together need no look at each row.
        let all = match self {
            Column::Strings(Strs::Utf8(a)) => Some(a.value_data().len()),
            Column::Strings(Strs::LargeUtf8(a)) => Some(a.value_data().len()),
            Column::Nulls(_) => Some(0),
            _ => None,
        };
        if all.is_some_and(|bytes| bytes <= MAX_INPUT) {
            return None;
        }
        (0..self.len()).find_map(|i| {
            self.get_any(i)
                .map(str::len)
                .filter(|len| *len > MAX_INPUT)
                .map(|len| (i, len))
        })
    }

    /// The column of an imported array, or a `TypeError` naming its type.
    pub(crate) fn of(imported: &'a Imported) -> PyResult<Self> {
        let array = imported.array.as_ref();
        if array.data_type() == &DataType::Null {
            return Ok(Column::Nulls(array.len()));
        }
        if let Some(strings) = Strs::of(array) {
            return Ok(Column::Strings(strings));
        }
        if let Some(dictionary) = array.as_any_dictionary_opt() {
            let values = dictionary.values();
            match (&imported.keys, Strs::of(values.as_ref())) {
                (Some(keys), Some(values)) => {
                    return Ok(Column::Dictionary {
                        array,
                        keys,
                        values,
                    });
                }
                // No value: every row is null.
                (None, _) if values.is_empty() || values.data_type() == &DataType::Null => {
                    return Ok(Column::Nulls(array.len()));
                }
                _ => {}
            }
        }
        Err(PyTypeError::new_err(format!(
            "expected an array of strings (string, large_string or string_view, a dictionary \
             of them, or nulls), not {}",
            array.data_type()
        )))
    }
}

/// What a batch does with a row it cannot read: a list item that is not a string, or a `str`
/// that is not UTF-8; a row longer than the limit on one input (`urlscope.MAX_INPUT`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum BadRows {
    /// Raise an error naming the row and why.
    Raise,
    /// Make the row null.
    Null,
}

impl BadRows {
    pub fn from_name(name: &str) -> PyResult<Self> {
        match name {
            "raise" => Ok(BadRows::Raise),
            "null" => Ok(BadRows::Null),
            other => Err(PyValueError::new_err(format!(
                "errors is \"raise\" or \"null\", not {other:?}"
            ))),
        }
    }
}

/// The error for row `row`, longer than the limit on one input.
fn row_too_long(row: usize, len: usize) -> PyErr {
    over_limit(&format!("row {row}: the input"), len)
}

/// The string of list item `i`, `None` for `None`; an item that is not a `str`, a `str`
/// that is not valid UTF-8 (a lone surrogate), or one longer than the limit on one input, is
/// an error naming the row and the reason.
fn list_item(py: Python<'_>, i: usize, item: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
    if item.is_none() {
        return Ok(None);
    }
    if !item.is_instance_of::<PyString>() {
        let why = if item.is_instance_of::<PyBytes>() {
            "bytes, not a string (decode them first)".to_owned()
        } else {
            format!("not a string or None but {}", crate::type_name(item))
        };
        return Err(PyTypeError::new_err(format!("row {i}: {why}")));
    }
    let text = item
        .extract::<String>()
        .map_err(|e| not_utf8(py, e, &format!("row {i}")))?;
    if text.len() > MAX_INPUT {
        return Err(row_too_long(i, text.len()));
    }
    Ok(Some(text))
}

/// The strings of list items `rows`. With [`BadRows::Null`] a bad item is a null row.
fn list_strings(
    list: &Bound<'_, PyList>,
    rows: Range<usize>,
    bad: BadRows,
) -> PyResult<Vec<Option<String>>> {
    let py = list.py();
    let mut out = Vec::with_capacity(rows.len());
    for i in rows {
        let item = list.get_item(i)?;
        match list_item(py, i, &item) {
            Ok(s) => out.push(s),
            Err(_) if bad == BadRows::Null => out.push(None),
            Err(e) => return Err(e),
        }
    }
    Ok(out)
}

/// A batch's input: a Python list (its strings copied out under the GIL, a window of pieces at
/// a time) or Arrow arrays (the chunks of one column), and what to do with a row it cannot
/// read.
enum Input<'a, 'py> {
    List(&'a Bound<'py, PyList>, BadRows),
    Arrow(&'a Bound<'py, PyList>, BadRows),
}

/// How a batch is cut: its threads and the most rows of a piece.
#[derive(Clone, Copy)]
struct Plan {
    jobs: usize,
    piece_rows: usize,
    /// Whether the caller named `piece_rows` (`chunk_rows`).
    named: bool,
}

impl Plan {
    /// `jobs` threads (all the cores by default), pieces of `piece_rows` rows at most
    /// ([`PIECE_ROWS`] by default); anything else than a positive number, or `jobs` over
    /// [`MAX_JOBS`], is a `ValueError`.
    pub fn new(jobs: Option<i64>, piece_rows: Option<i64>) -> PyResult<Self> {
        let jobs = match jobs {
            None => cores(),
            Some(n) if n < 1 => {
                return Err(PyValueError::new_err(format!(
                    "jobs must be at least 1, not {n}"
                )));
            }
            Some(n) => usize::try_from(n)
                .ok()
                .filter(|n| *n <= MAX_JOBS)
                .ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "jobs must be at most urlscope.MAX_JOBS ({MAX_JOBS}), not {n} (this \
                         machine has {} cores; None uses them all)",
                        cores()
                    ))
                })?,
        };
        let named = piece_rows.is_some();
        let piece_rows = match piece_rows {
            None => PIECE_ROWS,
            Some(n) => usize::try_from(n).ok().filter(|n| *n >= 1).ok_or_else(|| {
                PyValueError::new_err(format!("chunk_rows must be at least 1, not {n}"))
            })?,
        };
        Ok(Plan {
            jobs,
            piece_rows,
            named,
        })
    }

    /// The rows of a piece of a batch of `rows` rows: one piece per thread, of [`CHUNK`] rows
    /// at least, and of `piece_rows` at most.
    fn piece_len(self, rows: usize) -> usize {
        rows.div_ceil(self.jobs)
            .max(CHUNK)
            .min(self.piece_rows)
            .max(1)
    }

    /// [`Plan::piece_len`] for an Arrow column, which is read where it is: on one thread, unless
    /// the caller names the pieces' length, a column is one piece, whose arrays are the result
    /// (a batch of one piece is not copied, see [`Joined`]): no piece is held beside the
    /// result, and nothing is copied into it.
    fn arrow_piece_len(self, rows: usize) -> usize {
        match self.jobs == 1 && !self.named {
            true => rows.max(1),
            false => self.piece_len(rows),
        }
    }
}

/// Consecutive rows of the input: a column and a range of its rows.
pub(crate) type Segment<'a> = (Column<'a>, Range<usize>);

/// The pieces of `columns`, each of `len` rows at most and within one column, each built into
/// arrays of its own by one worker.
pub(crate) fn pieces<'a>(columns: &[Column<'a>], len: usize) -> Vec<Vec<Segment<'a>>> {
    columns
        .iter()
        .flat_map(|c| {
            (0..c.len())
                .step_by(len)
                .map(move |start| vec![(*c, start..(start + len).min(c.len()))])
        })
        .collect()
}

/// Runs `work` on every piece of the input, on the plan's threads with the GIL released, and
/// writes the pieces' arrays in order into the batch's ([`Joined`]), a window of as many
/// pieces as threads at a time: beside the result, only the window's pieces (and, from a list,
/// the window's strings) are held.
fn run(
    py: Python<'_>,
    input: Input<'_, '_>,
    plan: Plan,
    work: impl Fn(&[Segment<'_>], Capacity) -> Result<ArrayRef, ArrowError> + Sync,
) -> PyResult<ArrowArray> {
    // Builds the pieces of a window and writes them into the batch's arrays.
    let build = |threads: Option<&ThreadPool>,
                 pieces: &[Vec<Segment<'_>>],
                 joined: &mut Joined|
     -> PyResult<()> {
        py.detach(|| {
            guarded(|| {
                let each = |piece: &Vec<Segment<'_>>| work(piece, Capacity::of(piece));
                let built = match (threads, pieces.len()) {
                    (Some(pool), 2..) => {
                        pool.install(|| pieces.par_iter().map(each).collect::<Result<Vec<_>, _>>())
                    }
                    _ => pieces.iter().map(each).collect(),
                };
                built
                    .and_then(|parts| joined.add(parts))
                    .map_err(arrow_error)
            })
        })
    };
    // A window of as many pieces as `jobs` at a time, each on a thread of its own: at most
    // `jobs` threads work at once.
    let window = plan.jobs.max(1);
    let mut joined;
    match input {
        Input::Arrow(arrays, bad) => {
            let imported = arrays
                .iter()
                .map(|a| arrow_ffi::import(&a).map(Imported::new))
                .collect::<PyResult<Vec<_>>>()?;
            let columns = imported
                .iter()
                .map(Column::of)
                .collect::<PyResult<Vec<_>>>()?;
            if bad == BadRows::Raise {
                let mut before = 0;
                for column in &columns {
                    if let Some((row, len)) = column.first_too_long() {
                        return Err(row_too_long(before + row, len));
                    }
                    before += column.len();
                }
            }
            let rows = columns.iter().map(Column::len).sum();
            joined = Joined::new(rows);
            let pieces = pieces(&columns, plan.arrow_piece_len(rows));
            let threads = Threads::start(plan.jobs.min(pieces.len()))?;
            for window in pieces.chunks(window) {
                build(threads.pool(), window, &mut joined)?;
            }
        }
        Input::List(list, bad) => {
            let rows = list.len();
            joined = Joined::new(rows);
            let len = plan.piece_len(rows);
            let threads = Threads::start(plan.jobs.min(rows.div_ceil(len)))?;
            // As many pieces as threads, copied out of the list at a time.
            let window = len.saturating_mul(window);
            let mut start = 0;
            while start < rows {
                let end = start.saturating_add(window).min(rows);
                let strings = list_strings(list, start..end, bad)?;
                build(
                    threads.pool(),
                    &pieces(&[Column::List(&strings)], len),
                    &mut joined,
                )?;
                start = end;
            }
        }
    }
    let (array, pieces) = match py.detach(|| guarded(|| joined.finish().map_err(arrow_error)))? {
        Some(done) => done,
        // No row: one empty piece gives the batch's (empty) arrays.
        None => (work(&[], Capacity::of(&[])).map_err(arrow_error)?, 1),
    };
    Ok(ArrowArray::new(array, pieces))
}

/// The machine's cores: the threads of a batch by default, and the most of the pool kept
/// between batches. (Not rayon's global pool's size, which would start that pool.)
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// The threads of the last batch that used the kept pool, with the process they are for. The
/// next batch takes them: threads started for each batch would allocate from other glibc
/// arenas than the last batch's threads freed to, and the peak resident set grew with the
/// number of batches. It has as many threads as the machine has cores, and serves every batch
/// on as many threads or fewer (a window of `jobs` pieces keeps `jobs` of them busy). After a
/// fork the threads are not there: the child (another process id) starts its own.
static POOL: Mutex<Option<(u32, Arc<ThreadPool>)>> = Mutex::new(None);

/// The threads of one batch.
enum Threads {
    /// One piece at a time, on the calling thread.
    None,
    /// The kept pool ([`POOL`]).
    Kept(Arc<ThreadPool>),
    /// More threads than the cores (`jobs` above them, with as many pieces): a pool of the
    /// batch's own, which ends with the batch.
    Own(OwnPool),
}

impl Threads {
    /// Threads for a batch that runs `threads` pieces at once.
    fn start(threads: usize) -> PyResult<Self> {
        let started = match threads {
            0 | 1 => Ok(Threads::None),
            n if n <= cores() => kept_pool().map(Threads::Kept),
            n => OwnPool::start(n).map(Threads::Own),
        };
        started.map_err(|e| PyRuntimeError::new_err(format!("urlscope: starting threads: {e}")))
    }

    fn pool(&self) -> Option<&ThreadPool> {
        match self {
            Threads::None => None,
            Threads::Kept(pool) => Some(pool),
            Threads::Own(own) => own.pool.as_ref(),
        }
    }
}

/// The kept pool, started on first use (or in a forked child).
fn kept_pool() -> Result<Arc<ThreadPool>, ThreadPoolBuildError> {
    let start = || {
        ThreadPoolBuilder::new()
            .num_threads(cores())
            .build()
            .map(Arc::new)
    };
    let process = std::process::id();
    // Held by a batch on another thread (or, in a child, by a thread of the parent that the
    // fork did not copy): this batch starts threads of its own.
    let Ok(mut kept) = POOL.try_lock() else {
        return start();
    };
    if let Some((p, pool)) = kept.as_ref() {
        if *p == process {
            return Ok(Arc::clone(pool));
        }
    }
    let pool = start()?;
    *kept = Some((process, Arc::clone(&pool)));
    Ok(pool)
}

/// A pool for one batch, whose threads have all ended when it is dropped: rayon ends a
/// dropped pool's threads without waiting for them, so the pool's threads are started here
/// ([`ThreadPoolBuilder::spawn_handler`]) and joined when it is dropped.
struct OwnPool {
    pool: Option<ThreadPool>,
    threads: Arc<Mutex<Vec<JoinHandle<()>>>>,
}

impl OwnPool {
    fn start(threads: usize) -> Result<Self, ThreadPoolBuildError> {
        let handles = Arc::new(Mutex::new(Vec::with_capacity(threads)));
        let kept = Arc::clone(&handles);
        let pool = ThreadPoolBuilder::new()
            .num_threads(threads)
            .spawn_handler(move |thread| {
                let handle = std::thread::Builder::new().spawn(move || thread.run())?;
                kept.lock()
                    .map_err(|_| std::io::Error::other("a batch's thread list is poisoned"))?
                    .push(handle);
                Ok(())
            })
            .build()?;
        Ok(OwnPool {
            pool: Some(pool),
            threads: handles,
        })
    }
}

impl Drop for OwnPool {
    fn drop(&mut self) {
        // The pool's threads end once it is dropped, after the work they hold (none: the
        // batch has ended).
        drop(self.pool.take());
        let handles = match self.threads.lock() {
            Ok(mut handles) => std::mem::take(&mut *handles),
            Err(_) => return,
        };
        for handle in handles {
            let _ = handle.join();
        }
    }
}

/// The result of a batch, written a piece at a time: each finished piece is copied into
/// buffers of the whole batch's (one offsets and one data buffer per string column, one
/// validity bitmap per column, the list columns' offsets and items) and let go at once, so
/// that beside the result a batch holds only the pieces being built, never all of them.
///
/// The buffers are `Vec`s, of an alignment `realloc` keeps (a large one grows by remapping its
/// pages, not by a copy), reserved for the whole batch from the bytes per row of the pieces
/// written so far; the pages reserved and not written to are never resident.
struct Joined {
    /// The rows of the whole batch.
    rows: usize,
    /// The rows written so far.
    done: usize,
    pieces: usize,
    /// The first piece, kept as it is until a second comes: a batch of one piece is not copied.
    first: Option<ArrayRef>,
    columns: Option<Grow>,
}

impl Joined {
    fn new(rows: usize) -> Self {
        Joined {
            rows,
            done: 0,
            pieces: 0,
            first: None,
            columns: None,
        }
    }

    /// Writes the pieces `parts`, in order, each let go once written.
    fn add(&mut self, parts: Vec<ArrayRef>) -> Result<(), ArrowError> {
        for part in parts {
            self.pieces += 1;
            if self.columns.is_none() {
                match self.first.take() {
                    None => {
                        self.done += part.len();
                        self.first = Some(part);
                        continue;
                    }
                    Some(first) => {
                        let mut columns = Grow::new(first.data_type())?;
                        columns.append(first.as_ref(), Scale::new(first.len(), self.rows))?;
                        self.columns = Some(columns);
                    }
                }
            }
            self.done += part.len();
            let scale = Scale::new(self.done, self.rows);
            if let Some(columns) = self.columns.as_mut() {
                columns.append(part.as_ref(), scale)?;
            }
        }
        Ok(())
    }

    /// The batch's array and the number of pieces it was built in.
    fn finish(self) -> Result<Option<(ArrayRef, usize)>, ArrowError> {
        Ok(match (self.columns, self.first) {
            (Some(columns), _) => Some((columns.finish()?, self.pieces)),
            (None, Some(first)) => Some((first, self.pieces)),
            (None, None) => None,
        })
    }
}

/// How far a batch is written: a buffer that must grow reserves what the whole batch will
/// need at the bytes per row so far (and a sixteenth more).
#[derive(Clone, Copy)]
struct Scale {
    done: usize,
    rows: usize,
}

impl Scale {
    fn new(done: usize, rows: usize) -> Self {
        Scale {
            done: done.max(1),
            rows: rows.max(done),
        }
    }

    fn reserve<T>(self, buffer: &mut Vec<T>, more: usize) {
        let need = buffer.len().saturating_add(more);
        if need <= buffer.capacity() {
            return;
        }
        let whole =
            u128::try_from(need).unwrap_or(u128::MAX) * self.rows as u128 / self.done as u128;
        let whole = usize::try_from(whole).unwrap_or(need);
        let whole = whole.saturating_add(whole / 16).max(need);
        buffer.reserve_exact(whole - buffer.len());
    }
}

/// The bits of `nulls` (all valid for `None`) after those of `into`.
fn append_nulls(into: &mut NullBufferBuilder, nulls: Option<&NullBuffer>, len: usize) {
    match nulls {
        Some(n) => into.append_buffer(n),
        None => into.append_n_non_nulls(len),
    }
}

/// One column of a batch's result as it grows, of the types a batch's columns have.
enum Grow {
    Text {
        offsets: Vec<i64>,
        values: Vec<u8>,
        nulls: NullBufferBuilder,
    },
    Bool {
        values: BooleanBufferBuilder,
        nulls: NullBufferBuilder,
    },
    UInt32 {
        values: Vec<u32>,
        nulls: NullBufferBuilder,
    },
    UInt64 {
        values: Vec<u64>,
        nulls: NullBufferBuilder,
    },
    List {
        field: FieldRef,
        offsets: Vec<i32>,
        nulls: NullBufferBuilder,
        items: Box<Grow>,
    },
    Struct {
        fields: ArrowFields,
        len: usize,
        nulls: NullBufferBuilder,
        children: Vec<Grow>,
    },
}

fn unexpected(what: &str) -> ArrowError {
    ArrowError::InvalidArgumentError(format!("a piece of a batch is not {what}"))
}

impl Grow {
    fn new(ty: &DataType) -> Result<Self, ArrowError> {
        let nulls = NullBufferBuilder::new(0);
        Ok(match ty {
            DataType::LargeUtf8 => Grow::Text {
                offsets: vec![0],
                values: Vec::new(),
                nulls,
            },
            DataType::Boolean => Grow::Bool {
                values: BooleanBufferBuilder::new(0),
                nulls,
            },
            DataType::UInt32 => Grow::UInt32 {
                values: Vec::new(),
                nulls,
            },
            DataType::UInt64 => Grow::UInt64 {
                values: Vec::new(),
                nulls,
            },
            DataType::List(field) => Grow::List {
                field: Arc::clone(field),
                offsets: vec![0],
                nulls,
                items: Box::new(Grow::new(field.data_type())?),
            },
            DataType::Struct(fields) => Grow::Struct {
                fields: fields.clone(),
                len: 0,
                nulls,
                children: fields
                    .iter()
                    .map(|f| Grow::new(f.data_type()))
                    .collect::<Result<_, _>>()?,
            },
            other => {
                return Err(ArrowError::NotYetImplemented(format!(
                    "a batch column of type {other}"
                )));
            }
        })
    }

    /// Writes the rows of `array` (of this column's type) after those written so far.
    fn append(&mut self, array: &dyn Array, scale: Scale) -> Result<(), ArrowError> {
        let len = array.len();
        match self {
            Grow::Text {
                offsets,
                values,
                nulls,
            } => {
                let a = array
                    .as_any()
                    .downcast_ref::<LargeStringArray>()
                    .ok_or_else(|| unexpected("large_string"))?;
                let piece = a.value_offsets();
                let (start, end) = (piece[0], piece[len]);
                let bytes = a
                    .values()
                    .get(to_usize(start)?..to_usize(end)?)
                    .ok_or_else(|| unexpected("large_string of valid offsets"))?;
                let shift = offsets.last().copied().unwrap_or(0) - start;
                scale.reserve(offsets, len);
                offsets.extend(piece[1..].iter().map(|o| o + shift));
                scale.reserve(values, bytes.len());
                values.extend_from_slice(bytes);
                append_nulls(nulls, a.nulls(), len);
            }
            Grow::Bool { values, nulls } => {
                let a = array
                    .as_any()
                    .downcast_ref::<BooleanArray>()
                    .ok_or_else(|| unexpected("bool"))?;
                values.append_buffer(a.values());
                append_nulls(nulls, a.nulls(), len);
            }
            Grow::UInt32 { values, nulls } => {
                let a = array
                    .as_any()
                    .downcast_ref::<UInt32Array>()
                    .ok_or_else(|| unexpected("uint32"))?;
                scale.reserve(values, len);
                values.extend_from_slice(a.values());
                append_nulls(nulls, a.nulls(), len);
            }
            Grow::UInt64 { values, nulls } => {
                let a = array
                    .as_any()
                    .downcast_ref::<UInt64Array>()
                    .ok_or_else(|| unexpected("uint64"))?;
                scale.reserve(values, len);
                values.extend_from_slice(a.values());
                append_nulls(nulls, a.nulls(), len);
            }
            Grow::List {
                offsets,
                nulls,
                items,
                ..
            } => {
                let a = array
                    .as_any()
                    .downcast_ref::<ListArray>()
                    .ok_or_else(|| unexpected("list"))?;
                let piece = a.value_offsets();
                let (start, end) = (piece[0], piece[len]);
                let shift = offsets.last().copied().unwrap_or(0) - start;
                scale.reserve(offsets, len);
                for o in &piece[1..] {
                    // Past i32::MAX items the offsets would wrap: an error, as a join's.
                    offsets.push(o.checked_add(shift).ok_or_else(|| {
                        ArrowError::OffsetOverflowError(usize::try_from(*o).unwrap_or(0))
                    })?);
                }
                let values = a.values().slice(to_usize(start)?, to_usize(end - start)?);
                items.append(values.as_ref(), scale)?;
                append_nulls(nulls, a.nulls(), len);
            }
            Grow::Struct {
                len: rows,
                nulls,
                children,
                ..
            } => {
                let a = array
                    .as_any()
                    .downcast_ref::<StructArray>()
                    .ok_or_else(|| unexpected("struct"))?;
                if a.num_columns() != children.len() {
                    return Err(unexpected("a struct of the batch's fields"));
                }
                for (child, column) in children.iter_mut().zip(a.columns()) {
                    child.append(column.as_ref(), scale)?;
                }
                append_nulls(nulls, a.nulls(), len);
                *rows += len;
            }
        }
        Ok(())
    }

    fn finish(self) -> Result<ArrayRef, ArrowError> {
        Ok(match self {
            Grow::Text {
                offsets,
                mut values,
                mut nulls,
            } => {
                values.shrink_to_fit();
                Arc::new(LargeStringArray::try_new(
                    OffsetBuffer::new(ScalarBuffer::from(offsets)),
                    Buffer::from_vec(values),
                    nulls.finish(),
                )?)
            }
            Grow::Bool {
                mut values,
                mut nulls,
            } => Arc::new(BooleanArray::new(values.finish(), nulls.finish())),
            Grow::UInt32 { values, mut nulls } => Arc::new(UInt32Array::try_new(
                ScalarBuffer::from(values),
                nulls.finish(),
            )?),
            Grow::UInt64 { values, mut nulls } => Arc::new(UInt64Array::try_new(
                ScalarBuffer::from(values),
                nulls.finish(),
            )?),
            Grow::List {
                field,
                offsets,
                mut nulls,
                items,
            } => Arc::new(ListArray::try_new(
                field,
                OffsetBuffer::new(ScalarBuffer::from(offsets)),
                items.finish()?,
                nulls.finish(),
            )?),
            Grow::Struct {
                fields,
                len,
                mut nulls,
                children,
            } => {
                let children = children
                    .into_iter()
                    .map(Grow::finish)
                    .collect::<Result<Vec<_>, _>>()?;
                Arc::new(StructArray::try_new_with_length(
                    fields,
                    children,
                    nulls.finish(),
                    len,
                )?)
            }
        })
    }
}

fn to_usize<T: TryInto<usize>>(n: T) -> Result<usize, ArrowError> {
    n.try_into()
        .map_err(|_| ArrowError::InvalidArgumentError("a negative offset in a piece".into()))
}

fn arrow_error(e: ArrowError) -> PyErr {
    PyRuntimeError::new_err(format!("urlscope: building the Arrow array: {e}"))
}

// --- the Arrow types of the fields ----------------------------------------------------------

fn text() -> DataType {
    DataType::LargeUtf8
}

fn list_of(item: DataType) -> DataType {
    DataType::List(Arc::new(Field::new_list_field(item, false)))
}

fn struct_fields(fields: &[(&str, DataType, bool)]) -> ArrowFields {
    fields
        .iter()
        .map(|(name, ty, nullable)| Field::new(*name, ty.clone(), *nullable))
        .collect()
}

fn pair_fields() -> ArrowFields {
    struct_fields(&[("name", text(), false), ("value", text(), false)])
}

fn error_fields() -> ArrowFields {
    struct_fields(&[
        ("type", text(), false),
        ("start", DataType::UInt32, false),
        ("end", DataType::UInt32, false),
    ])
}

fn finding_fields() -> ArrowFields {
    struct_fields(&[("id", text(), false), ("severity", text(), false)])
}

fn writing_fields() -> ArrowFields {
    struct_fields(&[
        ("valid", DataType::Boolean, false),
        ("production_path", list_of(text()), false),
        ("position", DataType::UInt64, true),
        ("expected", text(), true),
    ])
}

fn host_analysis_fields() -> ArrowFields {
    struct_fields(&[
        ("host", text(), false),
        ("unicode", text(), false),
        ("public_suffix", text(), true),
        ("registrable_domain", text(), true),
        ("imitates", list_of(text()), false),
        (
            "findings",
            list_of(DataType::Struct(finding_fields())),
            false,
        ),
    ])
}

/// The Arrow type of a field of the library's description.
fn data_type(ty: FieldType) -> DataType {
    match ty {
        FieldType::Text | FieldType::OptionalText => text(),
        FieldType::Bool => DataType::Boolean,
        FieldType::Pairs => list_of(DataType::Struct(pair_fields())),
        FieldType::Errors => list_of(DataType::Struct(error_fields())),
        FieldType::Writing => DataType::Struct(writing_fields()),
        FieldType::HostAnalysis => DataType::Struct(host_analysis_fields()),
    }
}

// --- builders -------------------------------------------------------------------------------

/// The offsets and validity of a list column, whose items another builder holds.
struct Lists {
    offsets: Vec<i32>,
    nulls: NullBufferBuilder,
}

impl Lists {
    fn new(rows: usize) -> Self {
        let mut offsets = Vec::with_capacity(rows + 1);
        offsets.push(0);
        Lists {
            offsets,
            nulls: NullBufferBuilder::new(rows),
        }
    }

    /// Ends a list whose items end at `items` in the item builder.
    fn close(&mut self, items: usize) {
        // Past i32::MAX items the offsets are wrong, and `ListArray::try_new` says so.
        self.offsets.push(i32::try_from(items).unwrap_or(-1));
        self.nulls.append_non_null();
    }

    fn null(&mut self) {
        let last = self.offsets.last().copied().unwrap_or(0);
        self.offsets.push(last);
        self.nulls.append_null();
    }

    fn finish(mut self, item: DataType, values: ArrayRef) -> Result<ArrayRef, ArrowError> {
        let offsets = OffsetBuffer::new(ScalarBuffer::from(self.offsets));
        Ok(Arc::new(ListArray::try_new(
            Arc::new(Field::new_list_field(item, false)),
            offsets,
            values,
            self.nulls.finish(),
        )?))
    }
}

fn finish_struct(
    fields: ArrowFields,
    arrays: Vec<ArrayRef>,
    nulls: &mut NullBufferBuilder,
) -> Result<ArrayRef, ArrowError> {
    Ok(Arc::new(StructArray::try_new(
        fields,
        arrays,
        nulls.finish(),
    )?))
}

/// A list of strings.
struct StrList {
    lists: Lists,
    items: LargeStringBuilder,
}

impl StrList {
    /// Lists for `rows` rows, with room for `items` strings of `bytes` bytes in all.
    fn new(rows: usize, items: usize, bytes: usize) -> Self {
        StrList {
            lists: Lists::new(rows),
            items: LargeStringBuilder::with_capacity(items, bytes),
        }
    }

    fn push<'a>(&mut self, items: impl IntoIterator<Item = &'a str>) {
        for item in items {
            self.items.append_value(item);
        }
        self.lists.close(self.items.len());
    }

    fn finish(mut self) -> Result<ArrayRef, ArrowError> {
        let items = Arc::new(self.items.finish());
        self.lists.finish(text(), items)
    }
}

/// A list of structs of strings (and, for errors, spans).
struct StructList {
    lists: Lists,
    strings: Vec<LargeStringBuilder>,
    numbers: Vec<UInt32Builder>,
    len: usize,
    fields: ArrowFields,
}

impl StructList {
    /// Lists for `rows` rows; their items (a few per hundred rows) grow as they come.
    fn new(fields: ArrowFields, rows: usize) -> Self {
        let strings = fields
            .iter()
            .filter(|f| f.data_type() == &text())
            .map(|_| LargeStringBuilder::new())
            .collect();
        let numbers = fields
            .iter()
            .filter(|f| f.data_type() == &DataType::UInt32)
            .map(|_| UInt32Builder::new())
            .collect();
        StructList {
            lists: Lists::new(rows),
            strings,
            numbers,
            len: 0,
            fields,
        }
    }

    /// One item: its strings, then its numbers, in the fields' order within each kind.
    fn item<const S: usize, const N: usize>(&mut self, strings: [&str; S], numbers: [u32; N]) {
        for (b, s) in self.strings.iter_mut().zip(strings) {
            b.append_value(s);
        }
        for (b, n) in self.numbers.iter_mut().zip(numbers) {
            b.append_value(n);
        }
        self.len += 1;
    }

    fn close(&mut self) {
        self.lists.close(self.len);
    }

    fn null(&mut self) {
        self.lists.null();
    }

    fn finish(self) -> Result<ArrayRef, ArrowError> {
        let mut strings = self.strings.into_iter();
        let mut numbers = self.numbers.into_iter();
        let mut arrays: Vec<ArrayRef> = Vec::with_capacity(self.fields.len());
        for f in self.fields.iter() {
            let array: Option<ArrayRef> = if f.data_type() == &DataType::UInt32 {
                numbers.next().map(|mut b| Arc::new(b.finish()) as ArrayRef)
            } else {
                strings.next().map(|mut b| Arc::new(b.finish()) as ArrayRef)
            };
            arrays.push(array.ok_or_else(|| {
                ArrowError::InvalidArgumentError(format!("no builder for {}", f.name()))
            })?);
        }
        let values = Arc::new(StructArray::try_new(self.fields.clone(), arrays, None)?);
        self.lists.finish(DataType::Struct(self.fields), values)
    }
}

fn span(n: usize) -> u32 {
    // Inputs are at most 4 GiB less one byte (`urlscope::MAX_PARSED_INPUT`), so offsets fit.
    u32::try_from(n).unwrap_or(u32::MAX)
}

fn push_findings(list: &mut StructList, findings: &[Finding]) {
    for f in findings {
        list.item([f.id, f.severity.name()], []);
    }
    list.close();
}

/// `writing`.
struct WritingColumn {
    nulls: NullBufferBuilder,
    valid: BooleanBuilder,
    path: StrList,
    position: UInt64Builder,
    expected: LargeStringBuilder,
}

impl WritingColumn {
    fn new(capacity: Capacity) -> Self {
        let rows = capacity.rows;
        WritingColumn {
            nulls: capacity.nulls(),
            valid: capacity.bools(),
            // Room for the path of a typical URL: in kasztp.txt, nine productions of 22 bytes
            // on average, eleven at most.
            path: StrList::new(rows, rows * 12, rows * 12 * 24),
            position: UInt64Builder::with_capacity(rows),
            expected: capacity.short_text(),
        }
    }

    fn push(&mut self, writing: &Writing) {
        self.nulls.append_non_null();
        self.valid.append_value(writing.valid);
        self.path.push(writing.production_path.iter().copied());
        self.position
            .append_option(writing.position.map(|p| p as u64));
        self.expected.append_option(writing.expected.as_deref());
    }

    fn null(&mut self) {
        self.nulls.append_null();
        self.valid.append_value(false);
        self.path.push([]);
        self.position.append_null();
        self.expected.append_null();
    }

    fn finish(mut self) -> Result<ArrayRef, ArrowError> {
        let arrays: Vec<ArrayRef> = vec![
            Arc::new(self.valid.finish()),
            self.path.finish()?,
            Arc::new(self.position.finish()),
            Arc::new(self.expected.finish()),
        ];
        finish_struct(writing_fields(), arrays, &mut self.nulls)
    }
}

/// `host_analysis`.
struct HostColumn {
    nulls: NullBufferBuilder,
    host: LargeStringBuilder,
    unicode: LargeStringBuilder,
    public_suffix: LargeStringBuilder,
    registrable_domain: LargeStringBuilder,
    imitates: StrList,
    findings: StructList,
}

impl HostColumn {
    fn new(capacity: Capacity) -> Self {
        let rows = capacity.rows;
        HostColumn {
            nulls: capacity.nulls(),
            host: capacity.text(),
            // Domain to Unicode seldom makes a host longer in bytes: an "xn--" label's
            // Unicode is mostly shorter.
            unicode: capacity.text(),
            public_suffix: capacity.text(),
            registrable_domain: capacity.text(),
            imitates: StrList::new(rows, 0, 0),
            findings: StructList::new(finding_fields(), rows),
        }
    }

    fn push(&mut self, analysis: Option<&HostAnalysis>) {
        let Some(a) = analysis else {
            // A struct's null still takes a place in each child, which must then be valid
            // where the child is not nullable.
            self.nulls.append_null();
            self.host.append_value("");
            self.unicode.append_value("");
            self.public_suffix.append_null();
            self.registrable_domain.append_null();
            self.imitates.push([]);
            self.findings.close();
            return;
        };
        self.nulls.append_non_null();
        self.host.append_value(&a.host);
        self.unicode.append_value(&a.unicode);
        self.public_suffix.append_option(a.public_suffix.as_deref());
        self.registrable_domain
            .append_option(a.registrable_domain.as_deref());
        self.imitates.push(a.imitates.iter().map(|i| i.domain));
        push_findings(&mut self.findings, &a.findings);
    }

    fn finish(mut self) -> Result<ArrayRef, ArrowError> {
        let arrays: Vec<ArrayRef> = vec![
            Arc::new(self.host.finish()),
            Arc::new(self.unicode.finish()),
            Arc::new(self.public_suffix.finish()),
            Arc::new(self.registrable_domain.finish()),
            self.imitates.finish()?,
            self.findings.finish()?,
        ];
        finish_struct(host_analysis_fields(), arrays, &mut self.nulls)
    }
}

/// Where a text column's value comes from.
#[derive(Clone, Copy)]
enum Source {
    Input,
    Base,
    Origin,
    Getter(Component),
}

/// One column of a parse batch.
enum Builder {
    Text(Source, LargeStringBuilder),
    Valid(BooleanBuilder),
    SearchParams(StructList),
    Errors(StructList),
    Writing(Box<WritingColumn>),
    HostAnalysis(Box<HostColumn>),
}

/// One parse of a row, with what the batch's fields need of it.
struct Row<'a> {
    input: &'a str,
    url: Option<&'a Url>,
    errors: &'a [ValidationError],
    writing: Option<&'a Writing>,
    host_analysis: Option<&'a HostAnalysis>,
}

/// What every row of a parse batch shares.
pub(crate) struct Context {
    base: Option<Url>,
    encoding: &'static Encoding,
    /// The columns, in the order the caller named them (the library's order by default).
    order: Vec<&'static fields::Field>,
    /// Where `failure` goes among them: where it was named, else last.
    failure_at: Option<usize>,
    needs: Needs,
    parts: Parts,
}

impl Context {
    fn new(
        py: Python<'_>,
        base: Option<&str>,
        fields: Option<Vec<String>>,
        label: &str,
    ) -> PyResult<Self> {
        Self::with_base(parse_base(py, base)?, fields, label)
    }

    /// [`Context::new`] with the base already parsed, which needs no Python: the Polars
    /// plugin's (python/src/polars_plugin.rs) runs on Polars' threads, without the GIL.
    pub(crate) fn with_base(
        base: Option<Url>,
        fields: Option<Vec<String>>,
        label: &str,
    ) -> PyResult<Self> {
        let (order, failure_at) = match fields {
            None => (fields::FIELDS.iter().collect(), None),
            Some(names) if names.is_empty() => {
                return Err(PyValueError::new_err(format!(
                    "fields is empty: name at least one of {}",
                    KEYS.join(", ")
                )));
            }
            Some(names) => {
                let mut order: Vec<&'static fields::Field> = Vec::new();
                let mut failure_at = None;
                for name in &names {
                    let name = name.trim();
                    // `failure` is in every batch; naming it places it.
                    if name == "failure" {
                        failure_at.get_or_insert(order.len());
                        continue;
                    }
                    let field =
                        fields::FIELDS
                            .iter()
                            .find(|f| f.name == name)
                            .ok_or_else(|| {
                                PyValueError::new_err(format!(
                                    "{name:?} is not a field; the fields are {}, and failure",
                                    KEYS.join(", ")
                                ))
                            })?;
                    if !order.iter().any(|f| f.name == field.name) {
                        order.push(field);
                    }
                }
                (order, failure_at)
            }
        };
        // What the fields need computed. `failure` alone needs the URL only, as href does:
        // the least any field needs.
        let names: Vec<&str> = order.iter().map(|f| f.name).collect();
        let names = if names.is_empty() {
            "href".to_owned()
        } else {
            names.join(",")
        };
        let fields = Fields::from_str(&names).map_err(PyValueError::new_err)?;
        Ok(Context {
            base,
            encoding: encoding(label)?,
            needs: fields.needs(),
            // The Arrow column of the host analysis has no label table (`parse --json`'s
            // `labels`): it is not built.
            parts: Parts {
                host_labels: false,
                ..fields.parts()
            },
            order,
            failure_at,
        })
    }

    fn columns(&self, capacity: Capacity) -> Vec<(&'static str, Builder)> {
        let rows = capacity.rows;
        self.order
            .iter()
            .map(|f| {
                let builder = match f.ty {
                    FieldType::Text | FieldType::OptionalText => {
                        let source = match f.name {
                            "input" => Source::Input,
                            "base" => Source::Base,
                            "origin" => Source::Origin,
                            name => Component::from_str(name).map_or(Source::Input, Source::Getter),
                        };
                        let builder = match source {
                            Source::Base => LargeStringBuilder::with_capacity(
                                rows,
                                rows * self.base.as_ref().map_or(0, |b| b.href().len()),
                            ),
                            Source::Getter(
                                Component::Protocol
                                | Component::Username
                                | Component::Password
                                | Component::Port,
                            ) => capacity.short_text(),
                            _ => capacity.text(),
                        };
                        Builder::Text(source, builder)
                    }
                    FieldType::Bool => Builder::Valid(capacity.bools()),
                    FieldType::Pairs => Builder::SearchParams(StructList::new(pair_fields(), rows)),
                    FieldType::Errors => Builder::Errors(StructList::new(error_fields(), rows)),
                    FieldType::Writing => Builder::Writing(Box::new(WritingColumn::new(capacity))),
                    FieldType::HostAnalysis => {
                        Builder::HostAnalysis(Box::new(HostColumn::new(capacity)))
                    }
                };
                (f.name, builder)
            })
            .collect()
    }
}

/// The columns of one chunk of a parse batch.
struct ParseColumns<'a> {
    context: &'a Context,
    base_href: Option<&'a str>,
    columns: Vec<(&'static str, Builder)>,
    /// Whether the columns read nothing of a URL but its href (and the input and the base):
    /// then no URL is built ([`Url::parse_href`]).
    href_only: bool,
    failure: BooleanBuilder,
    nulls: NullBufferBuilder,
}

impl<'a> ParseColumns<'a> {
    fn new(context: &'a Context, capacity: Capacity) -> Self {
        let columns = context.columns(capacity);
        let href_only = columns.iter().all(|(_, builder)| {
            matches!(
                builder,
                Builder::Text(
                    Source::Input | Source::Base | Source::Getter(Component::Href),
                    _
                )
            )
        });
        ParseColumns {
            context,
            base_href: context.base.as_ref().map(Url::href),
            columns,
            href_only,
            failure: capacity.bools(),
            nulls: capacity.nulls(),
        }
    }

    fn input(&mut self, input: Option<&str>) {
        let Some(input) = input else {
            return self.null();
        };
        let context = self.context;
        if context.needs == Needs::Url && self.href_only {
            // The href alone, borrowed from the input where it is the input as typed.
            let href = Url::parse_href(input, context.base.as_ref(), context.encoding);
            return self.href_row(input, href.as_deref().ok());
        }
        if context.needs == Needs::Url {
            // Only the URL API's values: no validation error collected, nothing derived.
            let url = Url::parse_with_encoding(input, context.base.as_ref(), context.encoding);
            return self.row(&Row {
                input,
                url: url.as_ref().ok(),
                errors: &[],
                writing: None,
                host_analysis: None,
            });
        }
        let report =
            Report::untraced_parts(input, context.base.clone(), context.encoding, context.parts);
        self.row(&Row {
            input,
            url: report.url.as_ref(),
            errors: &report.errors,
            writing: Some(&report.writing),
            host_analysis: report.host_analysis.as_ref(),
        });
    }

    /// [`ParseColumns::row`] for columns that read no more of a URL than its href (`None`:
    /// the input is not a URL).
    fn href_row(&mut self, input: &str, href: Option<&str>) {
        self.nulls.append_non_null();
        self.failure.append_value(href.is_none());
        for (_, builder) in &mut self.columns {
            if let Builder::Text(source, b) = builder {
                match (*source, href) {
                    (Source::Input, _) => b.append_value(input),
                    (Source::Base, _) => b.append_option(self.base_href),
                    (Source::Getter(Component::Href), Some(href)) => b.append_value(href),
                    _ => b.append_null(),
                }
            }
        }
    }

    fn row(&mut self, row: &Row<'_>) {
        self.nulls.append_non_null();
        self.failure.append_value(row.url.is_none());
        for (_, builder) in &mut self.columns {
            match builder {
                Builder::Text(source, b) => match (*source, row.url) {
                    (Source::Input, _) => b.append_value(row.input),
                    (Source::Base, _) => b.append_option(self.base_href),
                    (Source::Origin, Some(url)) => b.append_value(url.origin()),
                    (Source::Getter(c), Some(url)) => b.append_value(url.component(c)),
                    (_, None) => b.append_null(),
                },
                Builder::Valid(b) => b.append_value(row.url.is_some() && row.errors.is_empty()),
                Builder::SearchParams(list) => match row.url {
                    Some(url) => {
                        for (name, value) in url.search_params().iter() {
                            list.item([name, value], []);
                        }
                        list.close();
                    }
                    None => list.null(),
                },
                Builder::Errors(list) => {
                    for e in row.errors {
                        list.item([e.kind.name()], [span(e.span.start), span(e.span.end)]);
                    }
                    list.close();
                }
                Builder::Writing(w) => match row.writing {
                    Some(writing) => w.push(writing),
                    None => w.null(),
                },
                // As `parse --json`: an input that is not a URL has no host analysis.
                Builder::HostAnalysis(h) => h.push(row.url.and(row.host_analysis)),
            }
        }
    }

    fn null(&mut self) {
        self.nulls.append_null();
        self.failure.append_null();
        for (_, builder) in &mut self.columns {
            match builder {
                Builder::Text(_, b) => b.append_null(),
                Builder::Valid(b) => b.append_null(),
                Builder::SearchParams(list) | Builder::Errors(list) => list.null(),
                Builder::Writing(w) => w.null(),
                Builder::HostAnalysis(h) => h.push(None),
            }
        }
    }

    fn finish(mut self) -> Result<ArrayRef, ArrowError> {
        let mut fields = Vec::new();
        let mut arrays = Vec::new();
        for (name, builder) in self.columns {
            let ty = fields::FIELDS
                .iter()
                .find(|f| f.name == name)
                .map_or(FieldType::Text, |f| f.ty);
            fields.push(Field::new(name, data_type(ty), true));
            arrays.push(match builder {
                Builder::Text(_, mut b) => Arc::new(b.finish()) as ArrayRef,
                Builder::Valid(mut b) => Arc::new(b.finish()),
                Builder::SearchParams(list) | Builder::Errors(list) => list.finish()?,
                Builder::Writing(w) => (*w).finish()?,
                Builder::HostAnalysis(h) => (*h).finish()?,
            });
        }
        let at = self.context.failure_at.unwrap_or(fields.len());
        fields.insert(at, Field::new("failure", DataType::Boolean, true));
        arrays.insert(at, Arc::new(self.failure.finish()));
        finish_struct(fields.into(), arrays, &mut self.nulls)
    }
}

pub(crate) fn parse_rows(
    context: &Context,
    piece: &[Segment<'_>],
    capacity: Capacity,
) -> Result<ArrayRef, ArrowError> {
    let mut columns = ParseColumns::new(context, capacity);
    for (column, rows) in piece {
        for i in rows.clone() {
            columns.input(column.get(i));
        }
    }
    columns.finish()
}

/// `parse_batch` on a Python list of strings (and `None`).
#[pyfunction]
#[pyo3(signature = (urls, base = None, fields = None, jobs = None, encoding = "utf-8", errors = "raise", chunk_rows = None))]
#[allow(clippy::too_many_arguments)]
pub fn parse_list(
    py: Python<'_>,
    urls: &Bound<'_, PyList>,
    base: Option<&str>,
    fields: Option<Vec<String>>,
    jobs: Option<i64>,
    encoding: &str,
    errors: &str,
    chunk_rows: Option<i64>,
) -> PyResult<ArrowArray> {
    guarded(|| {
        let context = Context::new(py, base, fields, encoding)?;
        let input = Input::List(urls, BadRows::from_name(errors)?);
        parse_input(py, &context, input, Plan::new(jobs, chunk_rows)?)
    })
}

/// `parse_batch` on Arrow string arrays (the chunks of one column).
#[pyfunction]
#[pyo3(signature = (arrays, base = None, fields = None, jobs = None, encoding = "utf-8", errors = "raise", chunk_rows = None))]
#[allow(clippy::too_many_arguments)]
pub fn parse_arrays(
    py: Python<'_>,
    arrays: &Bound<'_, PyList>,
    base: Option<&str>,
    fields: Option<Vec<String>>,
    jobs: Option<i64>,
    encoding: &str,
    errors: &str,
    chunk_rows: Option<i64>,
) -> PyResult<ArrowArray> {
    guarded(|| {
        let context = Context::new(py, base, fields, encoding)?;
        let input = Input::Arrow(arrays, BadRows::from_name(errors)?);
        parse_input(py, &context, input, Plan::new(jobs, chunk_rows)?)
    })
}

fn parse_input(
    py: Python<'_>,
    context: &Context,
    input: Input<'_, '_>,
    plan: Plan,
) -> PyResult<ArrowArray> {
    run(py, input, plan, |piece, capacity| {
        parse_rows(context, piece, capacity)
    })
}

// --- check ----------------------------------------------------------------------------------

/// What `check` shares between rows: the gate and the severity that fails a URL.
pub(crate) struct Check {
    gate: Gate,
    /// The parsers the gate judges a row on, when a gate is asked: the command line's
    /// ([`Lab::for_gate`]), built-in and external, so that `check_batch` and `urlscope check`
    /// give one verdict. Reading takes the lab whole (`&mut`), so the rows it reads are judged
    /// one at a time, in order, on one thread.
    lab: Option<Mutex<Lab>>,
    /// With `resolve`, the lookups of every reading's name (`urlscope check --resolve`).
    resolver: Option<SystemResolver>,
    fail_on: Severity,
}

fn check_data_type() -> ArrowFields {
    struct_fields(&[
        ("href", text(), true),
        ("host", text(), true),
        (
            "findings",
            list_of(DataType::Struct(finding_fields())),
            true,
        ),
        ("imitates", list_of(text()), true),
        ("worst", text(), true),
        ("fail", DataType::Boolean, true),
    ])
}

pub(crate) fn check_rows(
    check: &Check,
    piece: &[Segment<'_>],
    capacity: Capacity,
) -> Result<ArrayRef, ArrowError> {
    let rows = capacity.rows;
    let mut nulls = capacity.nulls();
    let mut href = capacity.text();
    let mut host = capacity.text();
    let mut findings = StructList::new(finding_fields(), rows);
    let mut imitates = StrList::new(rows, 0, 0);
    let mut worst = capacity.short_text();
    let mut fail = capacity.bools();
    let parts = Parts {
        host_analysis: true,
        ..Parts::NONE
    };
    let inputs = piece
        .iter()
        .flat_map(|(column, rows)| rows.clone().map(move |i| column.get(i)));
    for input in inputs {
        let Some(input) = input else {
            nulls.append_null();
            href.append_null();
            host.append_null();
            findings.null();
            imitates.lists.null();
            worst.append_null();
            fail.append_null();
            continue;
        };
        nulls.append_non_null();
        let report = Report::untraced_parts(input, None, UTF_8, parts);
        let url = report.url.as_ref();
        href.append_option(url.map(Url::href));
        host.append_option(url.map(Url::hostname));
        let analysis = report.host_analysis.as_ref();
        let mut worst_seen: Option<Severity> = None;
        for f in analysis.map_or(&[][..], |a| &a.findings[..]) {
            findings.item([f.id, f.severity.name()], []);
            worst_seen = worst_seen.max(Some(f.severity));
        }
        // As `urlscope check`: an input that is not a URL is a finding of its own.
        if url.is_none() {
            findings.item(["failure", Severity::Warn.name()], []);
            worst_seen = worst_seen.max(Some(Severity::Warn));
        }
        // The gate of `urlscope check --allow-host`/`--deny-internal`, the same function on the
        // same readings: every parser's, the runtimes' included (one that is not installed is
        // an unavailable reading, as on the command line).
        let gate_findings = match &check.lab {
            None => Vec::new(),
            Some(lab) => {
                let mut lab = lab.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                let readings = lab.read(input, None).parsers;
                let lookups = check
                    .resolver
                    .as_ref()
                    .map(|r| r.lookup(&resolve::names(&readings)))
                    .unwrap_or_default();
                check.gate.judge_looked_up(&readings, &lookups)
            }
        };
        for finding in gate_findings {
            findings.item([finding.id, finding.severity.name()], []);
            worst_seen = worst_seen.max(Some(finding.severity));
        }
        findings.close();
        imitates.push(
            analysis
                .map_or(&[][..], |a| &a.imitates[..])
                .iter()
                .map(|i| i.domain),
        );
        worst.append_option(worst_seen.map(Severity::name));
        fail.append_value(worst_seen.is_some_and(|w| w >= check.fail_on));
    }
    let arrays: Vec<ArrayRef> = vec![
        Arc::new(href.finish()),
        Arc::new(host.finish()),
        findings.finish()?,
        imitates.finish()?,
        Arc::new(worst.finish()),
        Arc::new(fail.finish()) as Arc<BooleanArray>,
    ];
    finish_struct(check_data_type(), arrays, &mut nulls)
}

/// `check_batch`'s lookups: `resolve`, `dns_server` and `resolve_timeout`, as
/// `urlscope check --resolve`, `--dns-server` and `--resolve-timeout` take them.
pub(crate) struct Lookups {
    pub(crate) resolve: bool,
    pub(crate) dns_server: Option<String>,
    pub(crate) resolve_timeout: f64,
}

impl Lookups {
    fn config(&self) -> PyResult<Option<resolve::system::Config>> {
        use resolve::system::{Config, Server};
        if !(0.01..=60.0).contains(&self.resolve_timeout) {
            return Err(PyValueError::new_err(format!(
                "resolve_timeout is from 0.01 to 60 seconds, not {}",
                self.resolve_timeout
            )));
        }
        let server = match &self.dns_server {
            None => Server::System,
            Some(text) => Server::Dns(text.parse().map_err(|_| {
                PyValueError::new_err(format!(
                    "dns_server is an IP address and a port (\"127.0.0.1:53\", \"[::1]:53\"), not {text:?}"
                ))
            })?),
        };
        Ok((self.resolve || self.dns_server.is_some()).then(|| Config {
            server,
            timeout: std::time::Duration::from_secs_f64(self.resolve_timeout),
            ..Config::default()
        }))
    }
}

pub(crate) fn check_context(
    allow_hosts: Option<Vec<String>>,
    deny_internal: bool,
    fail_on: &str,
    lookups: Lookups,
) -> PyResult<Check> {
    let fail_on = match fail_on {
        "info" => Severity::Info,
        "warn" => Severity::Warn,
        "danger" => Severity::Danger,
        other => {
            return Err(PyValueError::new_err(format!(
                "fail_on is \"info\", \"warn\" or \"danger\", not {other:?}"
            )));
        }
    };
    let allowlist = allow_hosts
        .map(|hosts| Allowlist::parse(&hosts))
        .transpose()
        .map_err(PyValueError::new_err)?;
    let gate = Gate {
        allowlist,
        deny_internal,
    };
    let resolver = lookups.config()?.map(SystemResolver::new);
    // No gate, no lab: the runtimes are started only when a row is to be judged on them (the
    // lookups are of every reading's name, as the gate's).
    let lab = match gate.allowlist.is_some() || gate.deny_internal || resolver.is_some() {
        false => None,
        true => Some(Mutex::new(
            Lab::for_gate().map_err(PyRuntimeError::new_err)?,
        )),
    };
    Ok(Check {
        gate,
        lab,
        resolver,
        fail_on,
    })
}

fn check_input(
    py: Python<'_>,
    check: &Check,
    input: Input<'_, '_>,
    mut plan: Plan,
) -> PyResult<ArrowArray> {
    // With a gate (or lookups), the rows are read through the one lab in order, on one thread (as
    // `urlscope check` reads them); `run` releases the GIL while they are read.
    if check.lab.is_some() {
        plan.jobs = 1;
    }
    run(py, input, plan, |piece, capacity| {
        check_rows(check, piece, capacity)
    })
}

/// `check_batch` on a Python list of strings (and `None`).
#[pyfunction]
#[pyo3(signature = (urls, allow_hosts = None, fail_on = "danger", jobs = None, errors = "raise", chunk_rows = None, deny_internal = false, resolve = false, dns_server = None, resolve_timeout = 2.0))]
// The Python signature's keywords, one argument each.
#[allow(clippy::too_many_arguments)]
pub fn check_list(
    py: Python<'_>,
    urls: &Bound<'_, PyList>,
    allow_hosts: Option<Vec<String>>,
    fail_on: &str,
    jobs: Option<i64>,
    errors: &str,
    chunk_rows: Option<i64>,
    deny_internal: bool,
    resolve: bool,
    dns_server: Option<String>,
    resolve_timeout: f64,
) -> PyResult<ArrowArray> {
    guarded(|| {
        let lookups = Lookups {
            resolve,
            dns_server,
            resolve_timeout,
        };
        let check = check_context(allow_hosts, deny_internal, fail_on, lookups)?;
        let input = Input::List(urls, BadRows::from_name(errors)?);
        check_input(py, &check, input, Plan::new(jobs, chunk_rows)?)
    })
}

/// `check_batch` on Arrow string arrays (the chunks of one column).
#[pyfunction]
#[pyo3(signature = (arrays, allow_hosts = None, fail_on = "danger", jobs = None, errors = "raise", chunk_rows = None, deny_internal = false, resolve = false, dns_server = None, resolve_timeout = 2.0))]
#[allow(clippy::too_many_arguments)]
pub fn check_arrays(
    py: Python<'_>,
    arrays: &Bound<'_, PyList>,
    allow_hosts: Option<Vec<String>>,
    fail_on: &str,
    jobs: Option<i64>,
    errors: &str,
    chunk_rows: Option<i64>,
    deny_internal: bool,
    resolve: bool,
    dns_server: Option<String>,
    resolve_timeout: f64,
) -> PyResult<ArrowArray> {
    guarded(|| {
        let lookups = Lookups {
            resolve,
            dns_server,
            resolve_timeout,
        };
        let check = check_context(allow_hosts, deny_internal, fail_on, lookups)?;
        let input = Input::Arrow(arrays, BadRows::from_name(errors)?);
        check_input(py, &check, input, Plan::new(jobs, chunk_rows)?)
    })
}
