//! Arrow arrays across the boundary, through the Arrow PyCapsule interface: the C data
//! interface's `ArrowSchema` and `ArrowArray` structs, each in a capsule, which pyarrow,
//! Polars, DuckDB and Spark's Arrow path all speak. arrow-array does the C data interface; this
//! module only moves its structs in and out of the capsules.

use std::ffi::CStr;

use arrow_array::ffi::{from_ffi, to_ffi, FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::{make_array, Array, ArrayRef};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyCapsuleMethods, PyTuple};

const SCHEMA: &CStr = c"arrow_schema";
const ARRAY: &CStr = c"arrow_array";

/// An array made in Rust, for a consumer of `__arrow_c_array__` (`pyarrow.array(obj)`).
#[pyclass(module = "urlscope")]
pub struct ArrowArray {
    array: Option<ArrayRef>,
    /// The pieces the batch was built in (each at most `chunk_rows` rows).
    #[pyo3(get)]
    pieces: usize,
}

impl ArrowArray {
    pub fn new(array: ArrayRef, pieces: usize) -> Self {
        ArrowArray {
            array: Some(array),
            pieces,
        }
    }
}

#[pymethods]
impl ArrowArray {
    /// The Arrow PyCapsule interface: the schema and the array, each in its capsule. The
    /// array is exported once; its consumer owns it.
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_array__<'py>(
        &mut self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        // The interface lets a producer ignore the requested schema; the consumer casts.
        let _ = requested_schema;
        let array = self
            .array
            .take()
            .ok_or_else(|| PyValueError::new_err("this Arrow array was already exported"))?;
        let (array, schema) =
            to_ffi(&array.to_data()).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        let schema = PyCapsule::new_with_value(py, schema, SCHEMA)?;
        let array = PyCapsule::new_with_value(py, array, ARRAY)?;
        PyTuple::new(py, [schema.into_any(), array.into_any()])
    }
}

/// The array behind `obj`'s `__arrow_c_array__` (a pyarrow `Array`, a Polars `Series`' chunk…),
/// moved out of its capsule.
pub fn import(obj: &Bound<'_, PyAny>) -> PyResult<ArrayRef> {
    let capsules = obj.call_method0("__arrow_c_array__").map_err(|_| {
        PyTypeError::new_err("expected an Arrow array (an object with __arrow_c_array__)")
    })?;
    let (schema, array): (Bound<'_, PyCapsule>, Bound<'_, PyCapsule>) = capsules.extract()?;
    let schema = schema.pointer_checked(Some(SCHEMA))?;
    let array = array.pointer_checked(Some(ARRAY))?;
    // SAFETY: the capsules are named as the Arrow PyCapsule interface names them, so their
    // pointers are an `ArrowSchema` and an `ArrowArray` of the C data interface. The schema is
    // borrowed while the capsule lives; the array is moved out (its source marked released),
    // as the interface asks of a consumer, so the capsule's destructor does not release it
    // again.
    let data = unsafe {
        let schema = &*schema.as_ptr().cast::<FFI_ArrowSchema>();
        let array = FFI_ArrowArray::from_raw(array.as_ptr().cast::<FFI_ArrowArray>());
        from_ffi(array, schema)
    }
    .map_err(|e| PyValueError::new_err(format!("cannot import the Arrow array: {e}")))?;
    Ok(make_array(data))
}
