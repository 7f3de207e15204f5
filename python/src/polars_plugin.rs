//! The Polars expression plugin behind `urlscope.polars` (`pl.col("url").urlscope.parse()`,
//! `.href()`, `.host()`, `.check()`): C functions that Polars looks up in this extension
//! (`register_plugin_function(plugin_path=…)`) and calls on its own threads, a column's chunks
//! or a streaming morsel at a time, with no Python and no GIL. The rows are built by the
//! batches' own code (`batch.rs`), so a plugin column is `parse_batch`'s (`check_batch`'s).
//!
//! The interface is Polars' plugin interface, version 0.1 (polars-plan's plugin loader and
//! polars-ffi's `version_0`, the same from Polars 1.0 to 2.1):
//!
//! - `_polars_plugin_get_version() -> u32`: major << 16 | minor. Minor 1 passes the keyword
//!   arguments to the field functions too.
//! - `_polars_plugin_<name>(inputs, n, kwargs, kwargs_len, out, context)`: `inputs` are `n`
//!   Series exports ([`SeriesExport`]: an Arrow C schema and an Arrow C array per chunk), which
//!   the plugin owns from then on and releases; `kwargs` the keyword arguments, pickled
//!   (protocol 5); `out` an empty export that the plugin fills with the result, or leaves
//!   empty to say that the call failed.
//! - `_polars_plugin_field_<name>(fields, n, out, kwargs, kwargs_len)`: the output field (name
//!   and type) for the input fields, which Polars keeps; this is how a query knows the output's
//!   type before it runs, without `return_dtype`.
//! - `_polars_plugin_get_last_error_message() -> *const c_char`: the message of the last call
//!   that failed on the calling thread, which Polars raises as a `ComputeError`.
//!
//! Arrow's C data interface carries the arrays: each has its own release callback, so neither
//! side frees the other's memory, and no Polars crate is linked in (pyo3-polars would compile
//! the whole `polars` crate, a second copy of the engine, whose version must match the Python
//! package's).

use std::cell::RefCell;
use std::ffi::{c_char, c_void, CString};
use std::mem::ManuallyDrop;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex};

use arrow_array::builder::LargeStringBuilder;
use arrow_array::ffi::{from_ffi, FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::{make_array, new_null_array, Array, ArrayRef, StructArray};
use arrow_schema::{DataType, Field};
use pyo3::PyErr;
use serde::Deserialize;

use urlscope::inspect::gate::Allowlist;
use urlscope::Url;

use crate::batch::{
    check_context, check_rows, parse_rows, pieces, Capacity, Check, Column, Context, Imported,
    Lookups, Segment, Strs,
};

// --- the interface's structs ----------------------------------------------------------------

/// A Series across the interface (polars-ffi's `SeriesExport`): its field, and its chunks as a
/// pointer to `len` pointers to arrays. `release` frees what the producer allocated for the
/// export (the field, the list, the boxes the arrays were in), not the arrays, which the
/// consumer moves out first; `private_data` is null in an empty export.
#[repr(C)]
pub struct SeriesExport {
    field: *mut FFI_ArrowSchema,
    arrays: *mut *mut FFI_ArrowArray,
    len: usize,
    release: Option<unsafe extern "C" fn(*mut SeriesExport)>,
    private_data: *mut c_void,
}

/// What Polars says of the call (polars-ffi's `CallerContext`: whether Polars runs the call in
/// parallel with others). Not read: a call's rows are always built on the calling thread, one of
/// Polars' own, which spreads a query's chunks and morsels over its threads.
#[repr(C)]
pub struct CallerContext {
    bitflags: u64,
}

// --- errors ---------------------------------------------------------------------------------

thread_local! {
    /// The message of the last call that failed on this thread: Polars asks for it on the
    /// thread that made the call, right after it.
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

fn set_error(message: &str) {
    let message = CString::new(message.replace('\0', " ")).unwrap_or_default();
    LAST_ERROR.with(|last| *last.borrow_mut() = message);
}

/// The message of an error made by the batches' code, which makes Python exceptions. Only
/// this path (a bad option, a parsers.conf that cannot be read) takes the GIL, to format it;
/// Polars has released it while its query runs.
fn py_message(e: PyErr) -> String {
    e.to_string()
}

/// Runs `f`; an error or a panic becomes the thread's last error message, which Polars raises.
fn guarded<T>(f: impl FnOnce() -> Result<T, String>) -> Option<T> {
    let outcome = catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|payload| {
        let what = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "no message".to_owned());
        Err(format!("internal error: {what}"))
    });
    match outcome {
        Ok(value) => Some(value),
        Err(message) => {
            set_error(&format!("urlscope: {message}"));
            None
        }
    }
}

// --- the functions and their options ----------------------------------------------------------

/// The keyword arguments of `parse`, `href` and `host`, as `urlscope.polars` pickles them.
#[derive(Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
struct ParseOptions {
    fields: Option<Vec<String>>,
    /// The base URL's href: `urlscope.polars` passes a `URL` as its href.
    base: Option<String>,
}

/// The keyword arguments of `check`: `check_batch`'s gate and verdict. Not its lookups
/// (`resolve`): the resolver keeps its answers for the run it is made for, and the plugin's
/// checks are kept for the process ([`GATES`]).
#[derive(Deserialize)]
#[serde(default, deny_unknown_fields)]
struct CheckOptions {
    allow_hosts: Option<Vec<String>>,
    deny_internal: bool,
    fail_on: String,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            allow_hosts: None,
            deny_internal: false,
            fail_on: "danger".to_owned(),
        }
    }
}

fn options<'de, T: Deserialize<'de> + Default>(kwargs: &'de [u8]) -> Result<T, String> {
    // Polars passes no bytes for no keyword arguments.
    if kwargs.is_empty() {
        return Ok(T::default());
    }
    serde_pickle::from_slice(kwargs, serde_pickle::DeOptions::new())
        .map_err(|e| format!("the plugin's keyword arguments: {e}"))
}

/// What a call computes.
#[derive(Clone, Copy)]
enum Function {
    /// `parse_batch`'s struct of the fields asked for.
    Parse,
    /// One field of it, as a column of strings: `href` or `hostname`.
    Field(&'static str),
    /// `check_batch`'s struct.
    Check,
}

/// What a call builds its rows with: the parse's fields, the hostname alone, or the check's
/// gate.
enum Work {
    Parse(Context),
    Field(Context),
    /// `hostname`, with the base: `Url::parse_hostname`, which builds no URL and reads nothing
    /// past the host where the host parser keeps it as typed (the same value as `parse_batch`'s
    /// `hostname`, which tests/shortcut.rs holds the library to).
    Hostname(Option<Url>),
    Check(Arc<Check>),
}

impl Work {
    /// The work of `function` with the options `kwargs`. With `for_type`, only what the output's
    /// type depends on: a check's gate and lookups are not set up, so that asking a query's
    /// schema starts no runtime.
    fn new(function: Function, kwargs: &[u8], for_type: bool) -> Result<Self, String> {
        match function {
            Function::Parse | Function::Field(_) => {
                let options: ParseOptions = options(kwargs)?;
                let base = options.base.as_deref().map(base_url).transpose()?;
                Ok(match function {
                    Function::Field("hostname") => Work::Hostname(base),
                    Function::Field(name) => {
                        let fields = Some(vec![name.to_owned()]);
                        Work::Field(Context::with_base(base, fields, "utf-8").map_err(py_message)?)
                    }
                    _ => Work::Parse(
                        Context::with_base(base, options.fields, "utf-8").map_err(py_message)?,
                    ),
                })
            }
            Function::Check if for_type => {
                let options: CheckOptions = options(kwargs)?;
                // An entry that cannot be a host is refused when the query's schema is
                // resolved, before any row (the call's `check_context` parses it again).
                if let Some(hosts) = &options.allow_hosts {
                    Allowlist::parse(hosts)?;
                }
                let check = check_context(None, false, &options.fail_on, no_lookups())
                    .map_err(py_message)?;
                Ok(Work::Check(Arc::new(check)))
            }
            Function::Check => gate(kwargs).map(Work::Check),
        }
    }

    /// The rows of `piece`, built into one array.
    fn rows(&self, piece: &[Segment<'_>]) -> Result<ArrayRef, String> {
        let capacity = Capacity::of(piece);
        let built = match self {
            Work::Parse(context) => parse_rows(context, piece, capacity),
            Work::Check(check) => check_rows(check, piece, capacity),
            Work::Hostname(base) => Ok(hostnames(base.as_ref(), piece)),
            Work::Field(context) => parse_rows(context, piece, capacity).map(|parsed| {
                // The struct's first column is the field; its nulls are the rows' own (a null
                // input, an input that is not a URL), as `parse_batch(...).field(name)`.
                match parsed.as_any().downcast_ref::<StructArray>() {
                    Some(s) => Arc::clone(s.column(0)),
                    None => parsed,
                }
            }),
        };
        built.map_err(|e| format!("building the Arrow array: {e}"))
    }
}

/// Row `i` of a column as the batches read it (`batch.rs`'s `Column::get`): `None` for a null,
/// and for a row over the limit on one input (`urlscope::MAX_INPUT`), which `parse_batch`
/// makes a null row too.
#[inline]
fn row<'a>(column: &Column<'a>, i: usize) -> Option<&'a str> {
    fn of<'a>(strings: &Strs<'a>, i: usize) -> Option<&'a str> {
        match strings {
            Strs::Utf8(a) => a.is_valid(i).then(|| a.value(i)),
            Strs::LargeUtf8(a) => a.is_valid(i).then(|| a.value(i)),
            Strs::Utf8View(a) => a.is_valid(i).then(|| a.value(i)),
        }
    }
    let text = match column {
        Column::Strings(strings) => of(strings, i),
        Column::Dictionary {
            array,
            keys,
            values,
        } => array.is_valid(i).then(|| of(values, keys[i])).flatten(),
        Column::Nulls(_) => None,
        Column::List(list) => list[i].as_deref(),
    };
    text.filter(|s| s.len() <= urlscope::MAX_INPUT)
}

/// The hostnames of `piece`'s rows, a null for a null row and for an input that is not a URL:
/// `parse_batch(fields="hostname")`'s column, without a URL built for nearly every row.
fn hostnames(base: Option<&Url>, piece: &[Segment<'_>]) -> ArrayRef {
    let rows: usize = piece.iter().map(|(_, rows)| rows.len()).sum();
    // A hostname is a part of its input, usually under a third of it; a builder that must grow
    // copies what it holds once more.
    let mut out = LargeStringBuilder::with_capacity(rows, rows * 24);
    for (column, range) in piece {
        for i in range.clone() {
            let hostname = row(column, i)
                .and_then(|input| Url::parse_hostname(input, base, encoding_rs::UTF_8).ok());
            out.append_option(hostname);
        }
    }
    Arc::new(out.finish())
}

/// The base URL of the options, which must be a URL.
fn base_url(base: &str) -> Result<Url, String> {
    if base.len() > urlscope::MAX_INPUT {
        return Err(format!(
            "the base is {} bytes, over urlscope.MAX_INPUT ({} bytes)",
            base.len(),
            urlscope::MAX_INPUT
        ));
    }
    Url::parse(base, None).map_err(|e| format!("the base URL is not a URL: {e}"))
}

fn no_lookups() -> Lookups {
    Lookups {
        resolve: false,
        dns_server: None,
        resolve_timeout: 2.0,
    }
}

/// The checks with a gate made so far, by their pickled options, the most recent last. A gate reads every row through the parsers' runtimes, which take about a second to
/// start: Polars calls the plugin once per chunk or morsel, and each call finds them started.
/// The allowlist is parsed once per options, not per call or row.
static GATES: Mutex<Vec<(Vec<u8>, Arc<Check>)>> = Mutex::new(Vec::new());

/// The most checks with a gate kept at once (each has its runtimes' processes).
const KEPT_GATES: usize = 4;

/// The check of the options `kwargs`, kept if it has a gate.
fn gate(kwargs: &[u8]) -> Result<Arc<Check>, String> {
    let mut gates = GATES
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(at) = gates.iter().position(|(key, _)| key == kwargs) {
        let kept = gates.remove(at);
        let check = Arc::clone(&kept.1);
        gates.push(kept);
        return Ok(check);
    }
    let options: CheckOptions = options(kwargs)?;
    // What makes `check_context` start the parsers' runtimes.
    let gated = options.allow_hosts.is_some() || options.deny_internal;
    let check = Arc::new(
        check_context(
            options.allow_hosts,
            options.deny_internal,
            &options.fail_on,
            no_lookups(),
        )
        .map_err(py_message)?,
    );
    if gated {
        if gates.len() >= KEPT_GATES {
            gates.remove(0);
        }
        gates.push((kwargs.to_vec(), Arc::clone(&check)));
    }
    Ok(check)
}

// --- the input and the output ---------------------------------------------------------------

/// An input Series, moved in: its name and type, and its chunks.
struct Input {
    name: String,
    ty: DataType,
    chunks: Vec<ArrayRef>,
}

/// An input export that the plugin owns: its arrays moved out at once, and the export
/// released when dropped, so that nothing Polars handed over is leaked or released twice,
/// whatever fails after.
struct Taken {
    export: SeriesExport,
    arrays: Vec<FFI_ArrowArray>,
}

impl Taken {
    /// # Safety
    /// `export` is a Series export of Polars', handed to the plugin.
    unsafe fn new(export: SeriesExport) -> Self {
        let arrays = match export.arrays.is_null() {
            true => Vec::new(),
            // SAFETY: `arrays` points at `len` pointers to C data interface arrays; each is
            // moved out (its place left released), and the export's release frees only the
            // places.
            false => (0..export.len)
                .map(|i| *export.arrays.add(i))
                .filter(|array| !array.is_null())
                .map(|array| FFI_ArrowArray::from_raw(array))
                .collect(),
        };
        Taken { export, arrays }
    }

    /// The Series, its arrays imported (each released when the last array that uses it is
    /// dropped).
    fn import(mut self) -> Result<Input, String> {
        // SAFETY: the field is the export's Arrow C schema, alive until the export is released
        // (when `self` is dropped, after the import).
        let schema = unsafe { self.export.field.as_ref() }
            .ok_or("the input Series has no field (an empty export)")?;
        let field = Field::try_from(schema).map_err(|e| format!("the input's type: {e}"))?;
        let arrays = std::mem::take(&mut self.arrays).into_iter();
        let chunks = match field.data_type() {
            // Polars exports a column of nulls with a buffer that Arrow's `null` layout does not
            // have, which arrow-array refuses; its length is all there is to read (the array is
            // released when dropped).
            DataType::Null => arrays
                .map(|array| new_null_array(&DataType::Null, array.len()))
                .collect(),
            _ => arrays
                // SAFETY: each array is of the schema's type (the export's contract).
                .map(|array| unsafe { from_ffi(array, schema) }.map(make_array))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| format!("cannot import the input's arrays: {e}"))?,
        };
        Ok(Input {
            name: field.name().clone(),
            ty: field.data_type().clone(),
            chunks,
        })
    }
}

impl Drop for Taken {
    fn drop(&mut self) {
        if let Some(release) = self.export.release.take() {
            // SAFETY: the export's own release, called once.
            unsafe { release(&mut self.export) }
        }
    }
}

/// What an output export holds until Polars releases it.
struct Exported {
    field: Box<FFI_ArrowSchema>,
    arrays: Box<[*mut FFI_ArrowArray]>,
}

/// The result as a Series export: a field named `name` and one array per chunk.
fn export(name: &str, chunks: &[ArrayRef]) -> Result<SeriesExport, String> {
    let ty = chunks
        .first()
        .map_or(DataType::Null, |c| c.data_type().clone());
    let field = FFI_ArrowSchema::try_from(&Field::new(name, ty, true))
        .map_err(|e| format!("exporting the output's type: {e}"))?;
    let arrays: Box<[*mut FFI_ArrowArray]> = chunks
        .iter()
        .map(|chunk| Box::into_raw(Box::new(FFI_ArrowArray::new(&chunk.to_data()))))
        .collect();
    let mut private = Box::new(Exported {
        field: Box::new(field),
        arrays,
    });
    Ok(SeriesExport {
        field: &mut *private.field,
        arrays: private.arrays.as_mut_ptr(),
        len: private.arrays.len(),
        release: Some(release_export),
        private_data: Box::into_raw(private).cast(),
    })
}

/// Polars' release of an output export, once it has moved the arrays out (bitwise: each now
/// owns its buffers and its release): frees the boxes the arrays were in, without releasing
/// them, and the field, which it releases.
unsafe extern "C" fn release_export(export: *mut SeriesExport) {
    let Some(export) = export.as_mut() else {
        return;
    };
    if export.private_data.is_null() {
        return;
    }
    // SAFETY: `private_data` is the `Exported` that `export` leaked, taken back once.
    let private = Box::from_raw(export.private_data.cast::<Exported>());
    for &array in private.arrays.iter() {
        drop(Box::from_raw(array.cast::<ManuallyDrop<FFI_ArrowArray>>()));
    }
    drop(private);
    export.private_data = std::ptr::null_mut();
    export.release = None;
}

/// Whether a column of `ty` is one the batches read: strings in any of Arrow's layouts
/// (Polars' String is `string_view`), a dictionary of them (Categorical, Enum), or nulls only.
fn is_text(ty: &DataType) -> bool {
    let strings =
        |t: &DataType| matches!(t, DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View);
    match ty {
        DataType::Null => true,
        DataType::Dictionary(_, values) => strings(values) || values.as_ref() == &DataType::Null,
        t => strings(t),
    }
}

/// The one input's name and type, or why the call cannot take its inputs.
fn one_input(inputs: &[(String, DataType)]) -> Result<&(String, DataType), String> {
    let [input] = inputs else {
        return Err(format!(
            "expected one column of URLs, not {} columns",
            inputs.len()
        ));
    };
    if !is_text(&input.1) {
        return Err(format!(
            "expected a column of strings (String, Categorical, Enum or Null), not {} (the Arrow \
             type of {:?})",
            input.1, input.0
        ));
    }
    Ok(input)
}

/// The output's chunks: one per input chunk, of its rows. Polars' engines read an elementwise
/// result by the input's chunks (the streaming engine of Polars 1.x joins them into record
/// batches chunk by chunk), and a chunk built whole is built in place: its arrays reserved for
/// its rows at the start, never copied.
fn compute(function: Function, kwargs: &[u8], input: Input) -> Result<Vec<ArrayRef>, String> {
    let work = Work::new(function, kwargs, false)?;
    let lens: Vec<usize> = input.chunks.iter().map(|chunk| chunk.len()).collect();
    let imported: Vec<Imported> = input.chunks.into_iter().map(Imported::new).collect();
    let columns = imported
        .iter()
        .map(Column::of)
        .collect::<Result<Vec<_>, _>>()
        .map_err(py_message)?;
    let mut out = Vec::with_capacity(columns.len().max(1));
    for (column, len) in columns.iter().zip(lens) {
        // The chunk as one piece (none for an empty chunk: no row).
        let piece = pieces(std::slice::from_ref(column), len.max(1));
        out.push(work.rows(piece.first().map_or(&[][..], Vec::as_slice))?);
    }
    if out.is_empty() {
        // No chunk: an empty one of the output's type.
        out.push(work.rows(&[])?);
    }
    Ok(out)
}

/// Fixes glibc malloc's mmap threshold at its starting value (128 KiB), once per process.
///
/// The plugin's arrays are allocated by this extension's allocator, the C library's malloc,
/// and let go of by Polars on its own threads once written. glibc raises its threshold to the
/// size of each large block given back (up to 32 MiB), after which a chunk's buffers of a few
/// MiB come from its heaps rather than from pages of their own, and heaps fragmented by blocks
/// of ever-different sizes are not given back: a streaming `sink_parquet` of 32 million URLs
/// through `parse` and `host` held 1,450 MiB at its peak against 930 MiB with the threshold
/// fixed, and the peak grew with the file (benches/python/polars_plugin.py `--bounded`). Fixed,
/// each large block is mapped and unmapped on its own, and the peak stays what the streaming
/// engine has in flight.
fn fixed_mmap_threshold() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        static FIXED: std::sync::Once = std::sync::Once::new();
        FIXED.call_once(|| {
            extern "C" {
                fn mallopt(param: std::ffi::c_int, value: std::ffi::c_int) -> std::ffi::c_int;
            }
            /// glibc's `M_MMAP_THRESHOLD` (malloc.h).
            const M_MMAP_THRESHOLD: std::ffi::c_int = -3;
            // Setting it by the environment (MALLOC_MMAP_THRESHOLD_, or glibc.malloc's
            // tunable) also fixes it: then it is the user's.
            let set_by_user = std::env::var_os("MALLOC_MMAP_THRESHOLD_").is_some()
                || std::env::var("GLIBC_TUNABLES")
                    .is_ok_and(|t| t.contains("glibc.malloc.mmap_threshold"));
            if !set_by_user {
                // SAFETY: mallopt takes any parameter and value, and refuses what it does not
                // know; 128 KiB is the threshold glibc starts with.
                unsafe { mallopt(M_MMAP_THRESHOLD, 128 * 1024) };
            }
        });
    }
}

/// A call of `function`: Polars' arguments, as the interface passes them.
///
/// # Safety
/// The interface's contract: `inputs` points at `n` Series exports that the plugin takes over,
/// `kwargs` at `kwargs_len` bytes, `out` at an empty export.
unsafe fn call(
    function: Function,
    inputs: *mut SeriesExport,
    n: usize,
    kwargs: *const u8,
    kwargs_len: usize,
    out: *mut SeriesExport,
) {
    fixed_mmap_threshold();
    let done = guarded(|| {
        let taken: Vec<Taken> = match inputs.is_null() {
            true => Vec::new(),
            // SAFETY: the inputs are Polars' exports, which it no longer uses.
            false => (0..n)
                .map(|i| Taken::new(std::ptr::read(inputs.add(i))))
                .collect(),
        };
        let kwargs = match kwargs.is_null() {
            true => &[][..],
            false => std::slice::from_raw_parts(kwargs, kwargs_len),
        };
        let inputs = taken
            .into_iter()
            .map(Taken::import)
            .collect::<Result<Vec<_>, _>>()?;
        let described: Vec<(String, DataType)> = inputs
            .iter()
            .map(|i| (i.name.clone(), i.ty.clone()))
            .collect();
        one_input(&described)?;
        let Some(input) = inputs.into_iter().next() else {
            return Err("no input".to_owned());
        };
        let name = input.name.clone();
        let chunks = compute(function, kwargs, input)?;
        export(&name, &chunks)
    });
    if let (Some(export), false) = (done, out.is_null()) {
        std::ptr::write(out, export);
    }
}

/// The output field of `function` for the input fields, as the interface asks for it.
///
/// # Safety
/// The interface's contract: `fields` points at `n` Arrow C schemas (Polars keeps them),
/// `kwargs` at `kwargs_len` bytes, `out` at an empty schema.
unsafe fn output_field(
    function: Function,
    fields: *const FFI_ArrowSchema,
    n: usize,
    out: *mut FFI_ArrowSchema,
    kwargs: *const u8,
    kwargs_len: usize,
) {
    let done = guarded(|| {
        let fields = match fields.is_null() {
            true => &[][..],
            false => std::slice::from_raw_parts(fields, n),
        };
        let kwargs = match kwargs.is_null() {
            true => &[][..],
            false => std::slice::from_raw_parts(kwargs, kwargs_len),
        };
        let inputs = fields
            .iter()
            .map(|f| {
                Field::try_from(f)
                    .map(|f| (f.name().clone(), f.data_type().clone()))
                    .map_err(|e| format!("the input's type: {e}"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let (name, _) = one_input(&inputs)?;
        // The type of the output is that of its rows': no row's.
        let ty = Work::new(function, kwargs, true)?
            .rows(&[])?
            .data_type()
            .clone();
        FFI_ArrowSchema::try_from(&Field::new(name, ty, true))
            .map_err(|e| format!("exporting the output's type: {e}"))
    });
    if let (Some(schema), false) = (done, out.is_null()) {
        std::ptr::write(out, schema);
    }
}

// --- the symbols Polars looks up ------------------------------------------------------------

/// The interface's version: 0.1 (major << 16 | minor).
///
/// # Safety
/// None: an FFI entry point, called by Polars.
#[no_mangle]
pub unsafe extern "C" fn _polars_plugin_get_version() -> u32 {
    1
}

/// The message of the last call that failed on this thread, valid until the next one fails.
///
/// # Safety
/// None: an FFI entry point, called by Polars.
#[no_mangle]
pub unsafe extern "C" fn _polars_plugin_get_last_error_message() -> *const c_char {
    LAST_ERROR.with(|last| last.borrow().as_ptr())
}

/// A function of the plugin: `_polars_plugin_<name>` and `_polars_plugin_field_<name>`.
macro_rules! plugin_function {
    ($call:ident, $field:ident, $function:expr) => {
        /// # Safety
        /// Polars' plugin interface's contract (see [`call`]).
        #[no_mangle]
        pub unsafe extern "C" fn $call(
            inputs: *mut SeriesExport,
            n: usize,
            kwargs: *const u8,
            kwargs_len: usize,
            out: *mut SeriesExport,
            _context: *const CallerContext,
        ) {
            call($function, inputs, n, kwargs, kwargs_len, out)
        }

        /// # Safety
        /// Polars' plugin interface's contract (see [`output_field`]).
        #[no_mangle]
        pub unsafe extern "C" fn $field(
            fields: *const FFI_ArrowSchema,
            n: usize,
            out: *mut FFI_ArrowSchema,
            kwargs: *const u8,
            kwargs_len: usize,
        ) {
            output_field($function, fields, n, out, kwargs, kwargs_len)
        }
    };
}

plugin_function!(
    _polars_plugin_urlscope_parse,
    _polars_plugin_field_urlscope_parse,
    Function::Parse
);
plugin_function!(
    _polars_plugin_urlscope_href,
    _polars_plugin_field_urlscope_href,
    Function::Field("href")
);
plugin_function!(
    _polars_plugin_urlscope_host,
    _polars_plugin_field_urlscope_host,
    Function::Field("hostname")
);
plugin_function!(
    _polars_plugin_urlscope_check,
    _polars_plugin_field_urlscope_check,
    Function::Check
);
