//! The SQL types of the extension's results, described once as a tree ([`Ty`]) from which both
//! DuckDB's logical types and the writers' NULLs are made.
//!
//! `urlscope_parse`'s struct has the library's fields (`urlscope::report::fields::FIELDS`, the
//! keys of `parse --json` and the columns of the Python package's `parse_batch`), each typed by
//! [`field_type`], the one mapping of a field's type to SQL: a field added to the library is a
//! member of the struct at once. The nested structs are the Python batches' (python/src/batch.rs),
//! member for member, so that a row reads the same in both.

use std::ffi::CString;

use libduckdb_sys::{
    duckdb_logical_type, idx_t, DUCKDB_TYPE, DUCKDB_TYPE_DUCKDB_TYPE_BOOLEAN,
    DUCKDB_TYPE_DUCKDB_TYPE_UBIGINT, DUCKDB_TYPE_DUCKDB_TYPE_UINTEGER,
    DUCKDB_TYPE_DUCKDB_TYPE_VARCHAR,
};
use urlscope::report::fields::{FieldType, FIELDS};

use crate::api::ddb;

/// A SQL type of the extension's results.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ty {
    Varchar,
    Boolean,
    /// 32 bits unsigned: the offsets of a validation error's span.
    UInteger,
    /// 64 bits unsigned: the position in the writing grammar.
    UBigInt,
    List(Box<Ty>),
    Struct(Vec<(&'static str, Ty)>),
}

fn list(item: Ty) -> Ty {
    Ty::List(Box::new(item))
}

/// A finding: its stable id and its severity's name.
pub fn finding() -> Ty {
    Ty::Struct(vec![("id", Ty::Varchar), ("severity", Ty::Varchar)])
}

/// The SQL type of a field of the library's description.
pub fn field_type(ty: FieldType) -> Ty {
    match ty {
        FieldType::Text | FieldType::OptionalText => Ty::Varchar,
        FieldType::Bool => Ty::Boolean,
        FieldType::Pairs => list(Ty::Struct(vec![
            ("name", Ty::Varchar),
            ("value", Ty::Varchar),
        ])),
        FieldType::Errors => list(Ty::Struct(vec![
            ("type", Ty::Varchar),
            ("start", Ty::UInteger),
            ("end", Ty::UInteger),
        ])),
        FieldType::Writing => Ty::Struct(vec![
            ("valid", Ty::Boolean),
            ("production_path", list(Ty::Varchar)),
            ("position", Ty::UBigInt),
            ("expected", Ty::Varchar),
        ]),
        FieldType::HostAnalysis => Ty::Struct(vec![
            ("host", Ty::Varchar),
            ("unicode", Ty::Varchar),
            ("public_suffix", Ty::Varchar),
            ("registrable_domain", Ty::Varchar),
            ("imitates", list(Ty::Varchar)),
            ("findings", list(finding())),
        ]),
    }
}

/// `failure`, after the library's fields: whether the input is not a URL (as `parse_batch`).
pub const FAILURE: &str = "failure";

/// `urlscope_parse`'s result: every field, then `failure`.
pub fn parse() -> Ty {
    Ty::Struct(
        FIELDS
            .iter()
            .map(|f| (f.name, field_type(f.ty)))
            .chain([(FAILURE, Ty::Boolean)])
            .collect(),
    )
}

/// `urlscope_check`'s result, `check_batch`'s struct.
pub fn check() -> Ty {
    Ty::Struct(vec![
        ("href", Ty::Varchar),
        ("host", Ty::Varchar),
        ("findings", list(finding())),
        ("imitates", list(Ty::Varchar)),
        ("worst", Ty::Varchar),
        ("fail", Ty::Boolean),
    ])
}

/// `urlscope_gate_parsers()`: the parsers the gate reads, with their versions.
pub fn parsers() -> Ty {
    list(Ty::Struct(vec![
        ("name", Ty::Varchar),
        ("version", Ty::Varchar),
    ]))
}

impl Ty {
    /// The member types of a struct (empty for another type).
    pub fn members(&self) -> &[(&'static str, Ty)] {
        match self {
            Ty::Struct(members) => members,
            _ => &[],
        }
    }

    /// DuckDB's logical type, owned by the caller (who destroys it).
    pub fn logical(&self) -> LogicalType {
        let primitive = |id: DUCKDB_TYPE| {
            // SAFETY: a primitive type's id; DuckDB allocates the type.
            LogicalType(unsafe { ddb!(duckdb_create_logical_type(id)) })
        };
        match self {
            Ty::Varchar => primitive(DUCKDB_TYPE_DUCKDB_TYPE_VARCHAR),
            Ty::Boolean => primitive(DUCKDB_TYPE_DUCKDB_TYPE_BOOLEAN),
            Ty::UInteger => primitive(DUCKDB_TYPE_DUCKDB_TYPE_UINTEGER),
            Ty::UBigInt => primitive(DUCKDB_TYPE_DUCKDB_TYPE_UBIGINT),
            Ty::List(item) => {
                let item = item.logical();
                // SAFETY: a valid logical type, which DuckDB copies.
                LogicalType(unsafe { ddb!(duckdb_create_list_type(item.0)) })
            }
            Ty::Struct(members) => {
                let types: Vec<LogicalType> = members.iter().map(|(_, t)| t.logical()).collect();
                let names: Vec<CString> = members
                    .iter()
                    .map(|(n, _)| CString::new(*n).expect("a member name has no NUL"))
                    .collect();
                let mut raw_types: Vec<duckdb_logical_type> = types.iter().map(|t| t.0).collect();
                let mut raw_names: Vec<*const std::ffi::c_char> =
                    names.iter().map(|n| n.as_ptr()).collect();
                // SAFETY: two arrays of `members.len()` valid types and NUL-terminated names,
                // which DuckDB copies before returning.
                LogicalType(unsafe {
                    ddb!(duckdb_create_struct_type(
                        raw_types.as_mut_ptr(),
                        raw_names.as_mut_ptr(),
                        members.len() as idx_t,
                    ))
                })
            }
        }
    }
}

/// A logical type DuckDB allocated, destroyed when dropped.
#[derive(Debug)]
pub struct LogicalType(pub duckdb_logical_type);

impl Drop for LogicalType {
    fn drop(&mut self) {
        // SAFETY: a type DuckDB allocated, destroyed once.
        unsafe { ddb!(duckdb_destroy_logical_type(&mut self.0)) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parse_struct_has_every_field_of_the_library_then_failure() {
        let ty = parse();
        let names: Vec<&str> = ty.members().iter().map(|(n, _)| *n).collect();
        let mut want: Vec<&str> = FIELDS.iter().map(|f| f.name).collect();
        want.push("failure");
        assert_eq!(names, want);
    }
}
