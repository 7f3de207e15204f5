//! The functions of DuckDB's C API that the extension calls, taken from the struct of function
//! pointers DuckDB hands a C API extension when it loads it (`duckdb_ext_api_v1`).
//!
//! DuckDB keeps that struct in bands: the functions of C API v1.2.0 first, in an order that never
//! changes, then those stabilised later (v1.5.6, after which everything else is "unstable" and
//! tied to one DuckDB release). The extension asks for v1.2.0 and reads only the pointers it
//! uses, each checked at compile time to lie in the v1.2.0 band: so the same file loads in every
//! DuckDB from 1.2 on, and no pointer past what an older DuckDB's struct holds is ever read
//! (libduckdb-sys's own loader copies the whole struct of the version it was generated from).

use std::mem::offset_of;
use std::sync::OnceLock;

use libduckdb_sys::duckdb_ext_api_v1;

/// The C API version the extension asks DuckDB for, and writes into its metadata footer
/// (scripts/duckdb-extension reads it from here).
pub const C_API_VERSION: &str = "v1.2.0";

/// The first function of the struct past the v1.2.0 band.
const STABLE_END: usize = offset_of!(duckdb_ext_api_v1, duckdb_create_instance_cache);

macro_rules! functions {
    ($($name:ident),* $(,)?) => {
        /// The names of the functions the extension calls.
        #[cfg(test)]
        pub const NAMES: &[&str] = &[$(stringify!($name)),*];

        // Each in the v1.2.0 band, or the build fails.
        const _: () = {
            $(assert!(
                offset_of!(duckdb_ext_api_v1, $name) < STABLE_END,
                concat!(stringify!($name), " is not in the C API's v1.2.0 band"),
            );)*
        };

        /// A struct with only the extension's functions copied out of DuckDB's, the others
        /// left null; `None` when DuckDB gave a null pointer for one of them.
        ///
        /// # Safety
        ///
        /// `given` is the pointer DuckDB's `get_api` returned for [`C_API_VERSION`]: a struct
        /// whose v1.2.0 band is filled in.
        unsafe fn copy(given: *const duckdb_ext_api_v1) -> Option<duckdb_ext_api_v1> {
            // SAFETY: every field is an `Option` of a function pointer, for which all-zero bytes
            // are `None`.
            let mut table: duckdb_ext_api_v1 = unsafe { std::mem::zeroed() };
            $(
                // SAFETY: the field lies in the v1.2.0 band (checked above), which the struct
                // DuckDB gave holds; a read of one field reads nothing past it.
                table.$name = unsafe { std::ptr::addr_of!((*given).$name).read() };
                table.$name?;
            )*
            Some(table)
        }
    };
}

functions!(
    duckdb_connect,
    duckdb_disconnect,
    duckdb_create_logical_type,
    duckdb_create_list_type,
    duckdb_create_struct_type,
    duckdb_destroy_logical_type,
    duckdb_create_scalar_function,
    duckdb_destroy_scalar_function,
    duckdb_scalar_function_set_name,
    duckdb_scalar_function_add_parameter,
    duckdb_scalar_function_set_return_type,
    duckdb_scalar_function_set_extra_info,
    duckdb_scalar_function_set_function,
    duckdb_scalar_function_set_special_handling,
    duckdb_scalar_function_get_extra_info,
    duckdb_scalar_function_set_error,
    duckdb_create_scalar_function_set,
    duckdb_destroy_scalar_function_set,
    duckdb_add_scalar_function_to_set,
    duckdb_register_scalar_function_set,
    duckdb_data_chunk_get_column_count,
    duckdb_data_chunk_get_vector,
    duckdb_data_chunk_get_size,
    duckdb_vector_get_data,
    duckdb_vector_get_validity,
    duckdb_vector_ensure_validity_writable,
    duckdb_vector_assign_string_element_len,
    duckdb_list_vector_get_child,
    duckdb_list_vector_get_size,
    duckdb_list_vector_set_size,
    duckdb_list_vector_reserve,
    duckdb_struct_vector_get_child,
);

static TABLE: OnceLock<duckdb_ext_api_v1> = OnceLock::new();

/// Takes the functions out of the struct DuckDB gave. Every database that loads the extension
/// in this process hands the same DuckDB's functions; the first copy is kept.
///
/// # Safety
///
/// As [`copy`].
pub unsafe fn load(given: *const duckdb_ext_api_v1) -> Result<(), String> {
    if TABLE.get().is_some() {
        return Ok(());
    }
    // SAFETY: the caller's contract.
    let table = unsafe { copy(given) }
        .ok_or("DuckDB gave a null pointer for a function of the C API v1.2.0")?;
    let _ = TABLE.set(table);
    Ok(())
}

/// The functions, after [`load`].
pub fn table() -> &'static duckdb_ext_api_v1 {
    // Only DuckDB calls into the extension, and only after its entry point has loaded them.
    TABLE
        .get()
        .expect("DuckDB's C API functions are loaded at the extension's entry point")
}

/// Calls a function of DuckDB's C API by its name: `ddb!(duckdb_vector_get_data(vector))`.
macro_rules! ddb {
    ($name:ident($($arg:expr),* $(,)?)) => {
        ($crate::api::table()
            .$name
            .expect(concat!(stringify!($name), " is loaded")))($($arg),*)
    };
}
pub(crate) use ddb;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_function_called_is_in_the_list_checked_against_the_stable_band() {
        // The calls are written `ddb!(name(...))`: each name must be one the band check covers
        // (a name missing from the list would panic at its first call).
        let sources = [
            include_str!("lib.rs"),
            include_str!("vector.rs"),
            include_str!("functions.rs"),
            include_str!("types.rs"),
        ];
        let mut called = Vec::new();
        for source in sources {
            for (at, _) in source.match_indices("ddb!(") {
                let name: String = source[at + 5..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                called.push(name);
            }
        }
        assert!(called.len() > 20, "{called:?}");
        for name in &called {
            assert!(
                NAMES.contains(&name.as_str()),
                "{name} is called but not listed"
            );
        }
        for name in NAMES {
            assert!(
                called.iter().any(|c| c == name),
                "{name} is listed but not called"
            );
        }
    }
}
