//! The Python package's native module, `urlscope._urlscope`: the engine's URL API, validation
//! errors, host analysis, trace and parser differential, and the Arrow batches, called
//! in-process through PyO3.
//!
//! Every entry point runs inside [`guarded`], so that nothing in the engine can unwind into
//! the interpreter: a panic becomes a `RuntimeError` with its message.

mod arrow_ffi;
mod batch;

use std::panic::{catch_unwind, AssertUnwindSafe};

use encoding_rs::{Encoding, UTF_8};
use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use urlscope::diff::builtin::Builtin;
use urlscope::report::{Parts, Report};
use urlscope::url::Component;
use urlscope::validation::Span;
use urlscope::Url;

create_exception!(
    urlscope,
    URLError,
    PyValueError,
    "The input is not a URL (the basic URL parser returned failure). `.errors` lists the \
     validation errors its parse raised; `.step` names what returned failure (\"domain parser \
     step 8\"), `.span` the (start, end) code points it is about, `.explanation` why, and \
     `.fix` the input rewritten so that it parses (None when none is known). For a base that \
     is not a URL only `.errors` is set."
);

/// Runs `f`, turning a panic into a Python `RuntimeError` that says what happened.
pub(crate) fn guarded<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(result) => result,
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "no message".to_owned());
            Err(PyRuntimeError::new_err(format!(
                "urlscope: internal error: {what}"
            )))
        }
    }
}

/// The query encoding named by a WHATWG Encoding label.
pub(crate) fn encoding(label: &str) -> PyResult<&'static Encoding> {
    Encoding::for_label(label.trim().as_bytes())
        .ok_or_else(|| PyValueError::new_err(format!("{label:?} is not an encoding label")))
}

/// A validation error, by the standard's name, with its span in code points of the input.
#[pyclass(module = "urlscope", frozen, eq, from_py_object)]
#[derive(Clone, PartialEq, Eq)]
struct ValidationError {
    /// The standard's name, e.g. "invalid-credentials".
    #[pyo3(get, name = "type")]
    kind: &'static str,
    #[pyo3(get)]
    start: usize,
    #[pyo3(get)]
    end: usize,
    #[pyo3(get)]
    message: &'static str,
}

impl From<&urlscope::ValidationError> for ValidationError {
    fn from(e: &urlscope::ValidationError) -> Self {
        let Span { start, end } = e.span;
        ValidationError {
            kind: e.kind.name(),
            start,
            end,
            message: e.message,
        }
    }
}

#[pymethods]
impl ValidationError {
    /// A validation error named by the standard; its message is the standard's description.
    #[new]
    fn new(r#type: &str, start: usize, end: usize) -> PyResult<Self> {
        let kind = urlscope::ValidationErrorKind::ALL
            .iter()
            .find(|k| k.name() == r#type)
            .ok_or_else(|| {
                PyValueError::new_err(format!("{type:?} is not a validation error's name"))
            })?;
        Ok(ValidationError {
            kind: kind.name(),
            start,
            end,
            message: kind.description(),
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "ValidationError(type={:?}, start={}, end={}, message={:?})",
            self.kind, self.start, self.end, self.message
        )
    }
}

/// A finding of the host analysis: a stable id, a severity, a title and why.
#[pyclass(module = "urlscope", frozen, eq, from_py_object)]
#[derive(Clone, PartialEq, Eq)]
struct Finding {
    #[pyo3(get)]
    id: &'static str,
    /// "info", "warn" or "danger".
    #[pyo3(get)]
    severity: &'static str,
    #[pyo3(get)]
    title: &'static str,
    #[pyo3(get)]
    detail: String,
}

#[pymethods]
impl Finding {
    fn __repr__(&self) -> String {
        format!(
            "Finding(id={:?}, severity={:?}, title={:?}, detail={:?})",
            self.id, self.severity, self.title, self.detail
        )
    }
}

fn error_list<'py>(
    py: Python<'py>,
    errors: &[urlscope::ValidationError],
) -> PyResult<Bound<'py, PyList>> {
    PyList::new(py, errors.iter().map(ValidationError::from))
}

/// A `URLError` carrying `errors`.
fn url_error(py: Python<'_>, message: String, errors: &[urlscope::ValidationError]) -> PyErr {
    let err = URLError::new_err(message);
    let value = err.value(py);
    let set = || -> PyResult<()> {
        value.setattr("errors", error_list(py, errors)?)?;
        // Set by `not_a_url_error` for an input that is not a URL.
        for name in ["step", "span", "explanation", "fix"] {
            value.setattr(name, py.None())?;
        }
        Ok(())
    };
    match set() {
        Ok(()) => err,
        Err(e) => e,
    }
}

/// The base parsed as the API URL parser parses it, or a `URLError` saying why it is not one.
fn parse_base(py: Python<'_>, base: Option<&str>) -> PyResult<Option<Url>> {
    let Some(base) = base else {
        return Ok(None);
    };
    match Url::parse(base, None) {
        Ok(url) => Ok(Some(url)),
        Err(e) => {
            let report = Report::untraced_parts(base, None, UTF_8, Parts::NONE);
            Err(url_error(
                py,
                format!("the base URL is not a URL: {e}"),
                &report.errors,
            ))
        }
    }
}

/// A parsed URL: the URL API's getters and setters, the parse's validation errors, and the
/// host analysis.
#[pyclass(module = "urlscope", name = "URL")]
struct PyUrl {
    url: Url,
    /// The input as given, and what its parse found.
    input: String,
    errors: Vec<urlscope::ValidationError>,
    host_span: Option<Span>,
    has_base: bool,
    /// A setter ran: the analysis reads the URL's href, not the input.
    edited: bool,
}

impl PyUrl {
    fn set(&mut self, component: Component, value: &str) {
        // URL Standard, "API": a setter that the basic URL parser fails leaves the URL as the
        // standard leaves it, which the browsers report as no change.
        let _ = self
            .url
            .set(component, value, &mut urlscope::trace::NoTrace);
        self.edited = true;
    }

    fn analysis(&self) -> Option<urlscope::inspect::HostAnalysis> {
        if self.edited {
            let href = self.url.href();
            let report = Report::untraced_parts(
                href,
                None,
                UTF_8,
                Parts {
                    host_analysis: true,
                    host_labels: true,
                    ..Parts::NONE
                },
            );
            return report.host_analysis;
        }
        urlscope::inspect::analyse(&urlscope::inspect::Subject {
            input: &self.input,
            url: Some(&self.url),
            errors: &self.errors,
            host_span: self.host_span,
            has_base: self.has_base,
            label_table: true,
        })
    }
}

/// The URL class's methods, with a getter and a setter per component of `$component`.
macro_rules! url_methods {
    ($($getter:ident, $setter:ident, $component:ident;)* { $($methods:tt)* }) => {
        #[pymethods]
        impl PyUrl {
            $(
                #[getter]
                fn $getter(&self) -> &str {
                    self.url.component(Component::$component)
                }

                #[setter]
                fn $setter(&mut self, value: &str) -> PyResult<()> {
                    guarded(|| {
                        self.set(Component::$component, value);
                        Ok(())
                    })
                }
            )*

            $($methods)*
        }
    };
}

url_methods! {
    protocol, set_protocol, Protocol;
    username, set_username, Username;
    password, set_password, Password;
    host, set_host, Host;
    hostname, set_hostname, Hostname;
    port, set_port, Port;
    pathname, set_pathname, Pathname;
    search, set_search, Search;
    hash, set_hash, Hash;
{
    #[getter]
    fn href(&self) -> &str {
        self.url.href()
    }

    /// URL Standard: the href setter. Unlike the other setters it fails when the value is not
    /// a URL (a TypeError in the browsers; here a `URLError`), and the URL is unchanged.
    #[setter]
    fn set_href(&mut self, py: Python<'_>, value: &str) -> PyResult<()> {
        guarded(|| {
            let report = Report::untraced_parts(value, None, UTF_8, Parts::NONE);
            match report.url.clone() {
                Some(url) => {
                    self.url = url;
                    self.input = value.to_owned();
                    self.errors = report.errors;
                    self.host_span = report.host_span;
                    self.has_base = false;
                    self.edited = false;
                    Ok(())
                }
                None => Err(not_a_url_error(py, &report)),
            }
        })
    }

    #[getter]
    fn origin(&self) -> String {
        self.url.origin()
    }

    /// The query's name-value pairs (URLSearchParams), in order.
    #[getter]
    fn search_params(&self) -> Vec<(String, String)> {
        self.url.search_params().into_pairs()
    }

    /// The validation errors of the parse that made this URL, in the order raised.
    #[getter]
    fn errors<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        error_list(py, &self.errors)
    }

    /// The parse raised no validation error.
    #[getter]
    fn valid(&self) -> bool {
        self.errors.is_empty()
    }

    /// What the host is and how it could mislead: the keys of `parse --json`'s `host_analysis`
    /// (None for a URL without a host).
    fn host_analysis<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        guarded(|| match self.analysis() {
            Some(analysis) => {
                let value = serde_json::to_value(&analysis)
                    .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
                json_to_py(py, &value)
            }
            None => Ok(py.None().into_bound(py)),
        })
    }

    /// The host analysis's findings.
    fn findings(&self) -> PyResult<Vec<Finding>> {
        guarded(|| {
            Ok(self
                .analysis()
                .map(|a| a.findings.iter().map(finding).collect())
                .unwrap_or_default())
        })
    }

    fn __str__(&self) -> &str {
        self.url.href()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let href = pyo3::types::PyString::new(py, self.url.href()).repr()?;
        Ok(format!("URL({href})"))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyUrl>()
            .is_ok_and(|o| o.borrow().url.href() == self.url.href())
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        self.url.href().hash(&mut hasher);
        hasher.finish()
    }
}
}

fn finding(f: &urlscope::inspect::Finding) -> Finding {
    Finding {
        id: f.id,
        severity: f.severity.name(),
        title: f.title,
        detail: f.detail.clone(),
    }
}

/// A `URLError` for an input that is not a URL, worded by the library's one answer
/// ([`Report::not_a_url`]): its message, `.errors`, and `.step`, `.span` (a `(start, end)`
/// pair of code point offsets, or `None`), `.explanation` and `.fix` (the input rewritten so
/// that it parses, or `None`).
fn not_a_url_error(py: Python<'_>, report: &Report) -> PyErr {
    let Some(why) = report.not_a_url() else {
        return url_error(py, "not a URL".to_owned(), &report.errors);
    };
    let err = url_error(py, why.message.clone(), &report.errors);
    let value = err.value(py);
    let set = || -> PyResult<()> {
        value.setattr("step", &why.step)?;
        value.setattr("span", why.span.map(|s| (s.start, s.end)))?;
        value.setattr("explanation", &why.explanation)?;
        value.setattr("fix", why.fixed.as_deref())?;
        Ok(())
    };
    match set() {
        Ok(()) => err,
        Err(e) => e,
    }
}

/// URL Standard: the API URL parser. Raises `URLError` when `input` (or `base`) is not a URL.
#[pyfunction]
#[pyo3(signature = (input, base = None, encoding = "utf-8"))]
fn parse(py: Python<'_>, input: &str, base: Option<&str>, encoding: &str) -> PyResult<PyUrl> {
    guarded(|| {
        let encoding = self::encoding(encoding)?;
        let base_url = parse_base(py, base)?;
        let has_base = base_url.is_some();
        let report = Report::untraced_parts(input, base_url, encoding, Parts::NONE);
        match report.url {
            Some(url) => Ok(PyUrl {
                url,
                input: report.input,
                errors: report.errors,
                host_span: report.host_span,
                has_base,
                edited: false,
            }),
            None => Err(not_a_url_error(py, &report)),
        }
    })
}

/// URL Standard: `URL.canParse(url, base)`.
#[pyfunction]
#[pyo3(signature = (input, base = None))]
fn can_parse(input: &str, base: Option<&str>) -> PyResult<bool> {
    guarded(|| Ok(Url::can_parse(input, base)))
}

/// The steps of the basic URL parser's run, as `urlscope trace --json` gives them.
#[pyfunction]
#[pyo3(signature = (input, base = None))]
fn trace<'py>(py: Python<'py>, input: &str, base: Option<&str>) -> PyResult<Bound<'py, PyAny>> {
    guarded(|| {
        parse_base(py, base)?;
        let report = Report::new(input, base);
        let value = serde_json::to_value(&report.trace)
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        json_to_py(py, &value)
    })
}

/// The parsers built into urlscope, read in-process, compared as `urlscope diff --json`
/// compares them.
#[pyfunction]
#[pyo3(signature = (input, parsers = None, base = None))]
fn diff<'py>(
    py: Python<'py>,
    input: &str,
    parsers: Option<Vec<String>>,
    base: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    guarded(|| {
        let chosen = match parsers {
            None => Builtin::ALL.to_vec(),
            Some(names) => names
                .iter()
                .map(|name| {
                    Builtin::from_name(name).ok_or_else(|| {
                        let known: Vec<&str> = Builtin::ALL.iter().map(|b| b.name()).collect();
                        PyValueError::new_err(format!(
                            "{name:?} is not a built-in parser; they are {}",
                            known.join(", ")
                        ))
                    })
                })
                .collect::<PyResult<_>>()?,
        };
        let readings = chosen
            .into_iter()
            .map(|b| (b.name().to_owned(), b.read(input, base)))
            .collect();
        let comparison = urlscope::diff::compare(input, base, readings);
        json_to_py(py, &comparison.to_json())
    })
}

/// A JSON value as the Python value `json.loads` would give, built directly.
fn json_to_py<'py>(py: Python<'py>, value: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    use serde_json::Value;
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u.into_pyobject(py)?.into_any(),
            (_, Some(i)) => i.into_pyobject(py)?.into_any(),
            _ => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        Value::String(s) => s.into_pyobject(py)?.into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(json_to_py(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, v) in map {
                dict.set_item(k, json_to_py(py, v)?)?;
            }
            dict.into_any()
        }
    })
}

/// The names of the fields `parse_batch` can give, in their order.
#[pyfunction]
fn field_names<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(py, urlscope::report::fields::KEYS)
}

#[pymodule]
fn _urlscope(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("URLError", m.py().get_type::<URLError>())?;
    m.add_class::<ValidationError>()?;
    m.add_class::<Finding>()?;
    m.add_class::<PyUrl>()?;
    m.add_function(wrap_pyfunction!(parse, m)?)?;
    m.add_function(wrap_pyfunction!(can_parse, m)?)?;
    m.add_function(wrap_pyfunction!(trace, m)?)?;
    m.add_function(wrap_pyfunction!(diff, m)?)?;
    m.add_function(wrap_pyfunction!(field_names, m)?)?;
    m.add_function(wrap_pyfunction!(batch::parse_list, m)?)?;
    m.add_function(wrap_pyfunction!(batch::parse_arrays, m)?)?;
    m.add_function(wrap_pyfunction!(batch::check_list, m)?)?;
    m.add_function(wrap_pyfunction!(batch::check_arrays, m)?)?;
    m.add_class::<arrow_ffi::ArrowArray>()?;
    Ok(())
}
