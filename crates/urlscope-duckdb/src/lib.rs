//! urlscope as a DuckDB extension: `LOAD 'urlscope.duckdb_extension'` registers SQL scalar
//! functions that parse URLs with urlscope's URL Standard parser, give its fields, validation
//! errors and host analysis, and judge a URL by the gate (docs/duckdb.md).
//!
//! It is a C API extension: DuckDB calls [`urlscope_init_c_api`] with a struct of its C API's
//! function pointers (src/api.rs), and the extension registers its functions through them. It
//! links no DuckDB, so one file serves every DuckDB release from 1.2 on (on one platform), and
//! building it compiles no C++. scripts/duckdb-extension builds the library and appends the
//! metadata footer DuckDB reads before it loads a file.
//!
//! Every callback runs inside `catch_unwind`: nothing may unwind into DuckDB, and a panic is the
//! query's error, with its message.

mod api;
pub mod functions;
pub mod types;
mod vector;

use std::ffi::{c_void, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

use libduckdb_sys::{
    duckdb_connection, duckdb_data_chunk, duckdb_ext_api_v1, duckdb_extension_access,
    duckdb_extension_info, duckdb_function_info, duckdb_scalar_function_set, duckdb_vector,
    DuckDBSuccess,
};

use crate::api::ddb;
use crate::functions::Function;
use crate::types::Ty;
use crate::vector::{Chunk, Out};

pub use crate::api::C_API_VERSION;

/// One SQL function: its name, its overloads' parameters, its result, and whether it reads
/// NULL arguments itself (otherwise a NULL constant argument makes the result NULL before it is
/// called; it still writes NULL for a NULL row).
struct Definition {
    name: &'static str,
    function: Function,
    overloads: Vec<Vec<Ty>>,
    result: Ty,
    reads_nulls: bool,
}

/// The extension's functions (docs/duckdb.md describes each).
fn definitions() -> Vec<Definition> {
    let url = || vec![Ty::Varchar];
    let url_and_base = || vec![Ty::Varchar, Ty::Varchar];
    let of_url = |name, function, result| Definition {
        name,
        function,
        overloads: vec![url(), url_and_base()],
        result,
        reads_nulls: false,
    };
    let hosts = || Ty::List(Box::new(Ty::Varchar));
    let mut definitions = vec![
        of_url("urlscope_parse", Function::Parse, types::parse()),
        of_url("urlscope_href", Function::Href, Ty::Varchar),
        of_url("urlscope_host", Function::Host, Ty::Varchar),
        of_url(
            "urlscope_registrable_domain",
            Function::RegistrableDomain,
            Ty::Varchar,
        ),
        of_url("urlscope_valid", Function::Valid, Ty::Boolean),
        Definition {
            name: "urlscope_check",
            function: Function::Check,
            overloads: vec![
                url(),
                vec![Ty::Varchar, hosts()],
                vec![Ty::Varchar, hosts(), Ty::Boolean],
                vec![Ty::Varchar, hosts(), Ty::Boolean, Ty::Varchar],
            ],
            result: types::check(),
            // A NULL allowlist is no allowlist (`check_batch`'s `allow_hosts=None`), so that
            // `urlscope_check(url, NULL, true)` denies internal destinations alone.
            reads_nulls: true,
        },
        Definition {
            name: "urlscope_gate_parsers",
            function: Function::GateParsers,
            overloads: vec![vec![]],
            result: types::parsers(),
            reads_nulls: false,
        },
    ];
    // The tests' count of allowlist parses (tests/sql.rs), in debug builds only: a release
    // build has no such function.
    #[cfg(debug_assertions)]
    definitions.push(Definition {
        name: "urlscope_allowlist_parses",
        function: Function::AllowlistParses,
        overloads: vec![vec![]],
        result: Ty::UBigInt,
        reads_nulls: false,
    });
    definitions
}

/// DuckDB's entry point for the C API extension `urlscope` (the file's name, without
/// `.duckdb_extension`, then `_init_c_api`).
///
/// # Safety
///
/// Called by DuckDB only, with the `info` and `access` of the extension being loaded.
#[no_mangle]
pub unsafe extern "C" fn urlscope_init_c_api(
    info: duckdb_extension_info,
    access: *const duckdb_extension_access,
) -> bool {
    // SAFETY: DuckDB's contract for a C API extension's entry point.
    let result = catch_unwind(AssertUnwindSafe(|| unsafe { init(info, access) }));
    let error = match result {
        Ok(Ok(loaded)) => return loaded,
        Ok(Err(error)) => error,
        Err(payload) => format!("urlscope: internal error: {}", panic_message(&*payload)),
    };
    // SAFETY: `set_error` copies the message (DuckDB's ExtensionAccess::SetError).
    unsafe {
        if let Some(set_error) = access.as_ref().and_then(|a| a.set_error) {
            let message = c_string(&error);
            set_error(info, message.as_ptr());
        }
    }
    false
}

/// `Ok(false)` when DuckDB gave no function struct: it refused the version asked for, and has
/// set the error itself.
///
/// # Safety
///
/// As [`urlscope_init_c_api`].
unsafe fn init(
    info: duckdb_extension_info,
    access: *const duckdb_extension_access,
) -> Result<bool, String> {
    // SAFETY: DuckDB passes a valid access struct.
    let access = unsafe { access.as_ref() }.ok_or("DuckDB gave no extension access")?;
    let get_api = access.get_api.ok_or("DuckDB gave no get_api")?;
    let get_database = access.get_database.ok_or("DuckDB gave no get_database")?;
    let version = c_string(C_API_VERSION);
    // SAFETY: get_api with the extension's info and a C API version string.
    let given = unsafe { get_api(info, version.as_ptr()) }.cast::<duckdb_ext_api_v1>();
    if given.is_null() {
        return Ok(false);
    }
    // SAFETY: DuckDB's struct for the version asked for.
    unsafe { api::load(given) }?;
    // SAFETY: the database that loads the extension, valid during the call.
    let database = unsafe { get_database(info) };
    if database.is_null() {
        return Ok(false);
    }
    let mut connection: duckdb_connection = std::ptr::null_mut();
    // SAFETY: a database DuckDB gave, and an out pointer.
    if unsafe { ddb!(duckdb_connect(*database, &mut connection)) } != DuckDBSuccess {
        return Err("urlscope: could not connect to the database to register its functions".into());
    }
    let registered = definitions()
        .iter()
        .try_for_each(|definition| register(connection, definition));
    // SAFETY: the connection made above, closed once.
    unsafe { ddb!(duckdb_disconnect(&mut connection)) };
    registered.map(|()| true)
}

/// Registers one function, its overloads in one set.
fn register(connection: duckdb_connection, definition: &Definition) -> Result<(), String> {
    let name = c_string(definition.name);
    let result = definition.result.logical();
    // SAFETY: each object made here is DuckDB's, passed to the calls its C API documents for
    // it, and destroyed once; the set copies each overload when it is added, and registering
    // copies the set.
    unsafe {
        let mut set: duckdb_scalar_function_set =
            ddb!(duckdb_create_scalar_function_set(name.as_ptr()));
        let mut outcome = Ok(());
        for parameters in &definition.overloads {
            let mut function = ddb!(duckdb_create_scalar_function());
            ddb!(duckdb_scalar_function_set_name(function, name.as_ptr()));
            for parameter in parameters {
                let ty = parameter.logical();
                ddb!(duckdb_scalar_function_add_parameter(function, ty.0));
            }
            ddb!(duckdb_scalar_function_set_return_type(function, result.0));
            ddb!(duckdb_scalar_function_set_function(function, Some(invoke)));
            let extra = Box::into_raw(Box::new((definition.function, definition.name)));
            ddb!(duckdb_scalar_function_set_extra_info(
                function,
                extra.cast::<c_void>(),
                Some(drop_function),
            ));
            if definition.reads_nulls {
                ddb!(duckdb_scalar_function_set_special_handling(function));
            }
            let added = ddb!(duckdb_add_scalar_function_to_set(set, function));
            ddb!(duckdb_destroy_scalar_function(&mut function));
            if added != DuckDBSuccess {
                outcome = Err(format!(
                    "urlscope: could not add an overload of {}",
                    definition.name
                ));
                break;
            }
        }
        if outcome.is_ok()
            && ddb!(duckdb_register_scalar_function_set(connection, set)) != DuckDBSuccess
        {
            outcome = Err(format!(
                "urlscope: could not register {} (is another function of that name loaded?)",
                definition.name
            ));
        }
        ddb!(duckdb_destroy_scalar_function_set(&mut set));
        outcome
    }
}

/// What a function's callback is told: which function, and its SQL name for its errors.
type Extra = (Function, &'static str);

/// Frees a function's extra info (DuckDB calls it when the last copy of the function goes).
unsafe extern "C" fn drop_function(data: *mut c_void) {
    if !data.is_null() {
        // SAFETY: made by `Box::into_raw` in `register`, freed once.
        drop(unsafe { Box::from_raw(data.cast::<Extra>()) });
    }
}

/// The one callback of every function: reads which function from the extra info and computes
/// the chunk. An error (or a panic) is set as the query's error.
unsafe extern "C" fn invoke(
    info: duckdb_function_info,
    input: duckdb_data_chunk,
    output: duckdb_vector,
) {
    let result = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: the extra info `register` set, a `Function`; the chunk and vector DuckDB
        // passes for this call, of the function's signature and result type.
        unsafe {
            let (function, name) =
                *ddb!(duckdb_scalar_function_get_extra_info(info)).cast::<Extra>();
            let chunk = Chunk::new(input);
            function
                .run(&chunk, Out::new(output))
                .map_err(|e| format!("{name}: {e}"))
        }
    }));
    let error = match result {
        Ok(Ok(())) => return,
        Ok(Err(error)) => error,
        Err(payload) => format!("urlscope: internal error: {}", panic_message(&*payload)),
    };
    let message = c_string(&error);
    // SAFETY: DuckDB copies the message and fails the query with it.
    unsafe { ddb!(duckdb_scalar_function_set_error(info, message.as_ptr())) }
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_owned())
}

/// `text` as a C string, a NUL in it (none of the extension's texts has one) cut there.
fn c_string(text: &str) -> CString {
    let end = text.find('\0').unwrap_or(text.len());
    CString::new(&text[..end]).unwrap_or_default()
}
