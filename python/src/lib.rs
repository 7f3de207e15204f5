//! The Python package's native module, `urlscope._urlscope`: the engine's URL API, validation
//! errors, host analysis, trace and parser differential, and the Arrow batches, called
//! in-process through PyO3.
//!
//! Every entry point runs inside [`guarded`], so that nothing in the engine can unwind into
//! the interpreter: a panic becomes a `RuntimeError` with its message.

mod arrow_ffi;
mod batch;
mod polars_plugin;

use std::borrow::Cow;
use std::panic::{catch_unwind, AssertUnwindSafe};

use encoding_rs::{Encoding, UTF_8};
use pyo3::create_exception;
use pyo3::exceptions::{
    PyRuntimeError, PyTypeError, PyUnicodeEncodeError, PyUserWarning, PyValueError,
};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyList, PyString, PyTuple, PyType};

use urlscope::diff::builtin::Builtin;
use urlscope::inspect::{FindingId, Severity};
use urlscope::report::{Parts, Report};
use urlscope::url::{Component, UrlSearchParams};
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

create_exception!(
    urlscope,
    SetterIgnored,
    PyUserWarning,
    "A URL setter left the URL as it was (the standard's setters fail silently): the message \
     names the step of the standard that decided, as the command line's `--set` does."
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

/// The error for a `str` that UTF-8 cannot encode: it holds a lone surrogate, which is not a
/// scalar value (the URL Standard's input is a string of scalar values, a USVString), so
/// urlscope cannot read it. `what` names the argument or row ("the input", "row 3"); the
/// codec's error says where. Another error is returned as it is.
pub(crate) fn not_utf8(py: Python<'_>, e: PyErr, what: &str) -> PyErr {
    if !e.is_instance_of::<PyUnicodeEncodeError>(py) {
        return e;
    }
    let at = e
        .value(py)
        .getattr("start")
        .and_then(|s| s.extract::<usize>())
        .map(|s| format!(" at index {s}"))
        .unwrap_or_default();
    PyValueError::new_err(format!("{what}: not valid UTF-8 (a lone surrogate{at})"))
}

/// The text of a `str` argument, or a `ValueError` for one that holds a lone surrogate.
pub(crate) fn text<'a>(value: &'a Bound<'_, PyString>, what: &str) -> PyResult<Cow<'a, str>> {
    value.to_cow().map_err(|e| not_utf8(value.py(), e, what))
}

/// The error for a text over the library's limit on one input (`urlscope::MAX_INPUT`, the
/// command line's: 16 MiB), which every entry point refuses before parsing it.
pub(crate) fn over_limit(what: &str, len: usize) -> PyErr {
    PyValueError::new_err(format!(
        "{what} is {len} bytes, over urlscope.MAX_INPUT ({} bytes)",
        urlscope::MAX_INPUT
    ))
}

/// `text` within the limit on one input, or the `ValueError` of [`over_limit`].
pub(crate) fn within_limit(text: &str, what: &str) -> PyResult<()> {
    if text.len() > urlscope::MAX_INPUT {
        return Err(over_limit(what, text.len()));
    }
    Ok(())
}

/// The text of a `str` argument that urlscope parses: UTF-8 and within the limit.
fn input_text<'a>(value: &'a Bound<'_, PyString>, what: &str) -> PyResult<Cow<'a, str>> {
    let text = text(value, what)?;
    within_limit(&text, what)?;
    Ok(text)
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

    /// Pickled as its constructor's arguments: the message is the kind's description, which
    /// the constructor gives again.
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> (Bound<'py, PyType>, (&'static str, usize, usize)) {
        (
            py.get_type::<ValidationError>(),
            (self.kind, self.start, self.end),
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

    /// A finding again from what `__reduce__` kept: the title is the id's (the library's table
    /// of findings); the severity is kept as it was given, as the analysis can grade one id
    /// by its context.
    #[classmethod]
    fn _restore(
        _cls: &Bound<'_, PyType>,
        id: &str,
        severity: &str,
        detail: String,
    ) -> PyResult<Self> {
        let kind = FindingId::ALL
            .iter()
            .find(|k| k.id() == id)
            .ok_or_else(|| PyValueError::new_err(format!("{id:?} is not a finding's id")))?;
        let severity = [Severity::Info, Severity::Warn, Severity::Danger]
            .into_iter()
            .find(|s| s.name() == severity)
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "severity is \"info\", \"warn\" or \"danger\", not {severity:?}"
                ))
            })?;
        Ok(Finding {
            id: kind.id(),
            severity: severity.name(),
            title: kind.title(),
            detail,
        })
    }

    /// Pickled as its id, severity and detail (a process that unpickles it has the same table
    /// of findings: the same package).
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> Reduced<'py, (&'static str, &'static str, String)> {
        Ok((
            py.get_type::<Finding>().getattr("_restore")?,
            (self.id, self.severity, self.detail.clone()),
        ))
    }
}

/// What `__reduce__` returns: the callable that makes the object again, and its arguments.
type Reduced<'py, A> = PyResult<(Bound<'py, PyAny>, A)>;

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
pub(crate) fn parse_base(py: Python<'_>, base: Option<&str>) -> PyResult<Option<Url>> {
    let Some(base) = base else {
        return Ok(None);
    };
    within_limit(base, "the base")?;
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

/// A `base=` argument: a `URL` (taken as it is) or a string (parsed as a URL), or `None`.
fn base_argument(py: Python<'_>, base: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Url>> {
    let Some(base) = base.filter(|b| !b.is_none()) else {
        return Ok(None);
    };
    if let Ok(url) = base.cast::<PyUrl>() {
        return Ok(Some(url.borrow().url.clone()));
    }
    if let Ok(base) = base.cast::<PyString>() {
        return parse_base(py, Some(&text(base, "the base")?));
    }
    Err(base_type_error(base))
}

fn base_type_error(base: &Bound<'_, PyAny>) -> PyErr {
    PyTypeError::new_err(format!(
        "base must be a URL, a str or None, not {}",
        type_name(base)
    ))
}

/// A `base=` argument as text, for the functions that read it with other parsers than the
/// URL class's (`trace`, `diff`): a `URL`'s href, or a string within the limit.
fn base_text(base: Option<&Bound<'_, PyAny>>) -> PyResult<Option<String>> {
    let Some(base) = base.filter(|b| !b.is_none()) else {
        return Ok(None);
    };
    if let Ok(url) = base.cast::<PyUrl>() {
        return Ok(Some(url.borrow().url.href().to_owned()));
    }
    if let Ok(base) = base.cast::<PyString>() {
        return Ok(Some(input_text(base, "the base")?.into_owned()));
    }
    Err(base_type_error(base))
}

/// The name of `value`'s type, for a message.
pub(crate) fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| "?".to_owned(), |n| n.to_string())
}

/// A URL made by the API URL parser, with what its parse found.
fn parse_url(
    py: Python<'_>,
    input: &str,
    base: Option<Url>,
    encoding: &'static Encoding,
) -> PyResult<PyUrl> {
    let report = Report::untraced_parts(input, base.clone(), encoding, Parts::NONE);
    match report.url {
        Some(url) => Ok(PyUrl {
            url,
            input: report.input,
            errors: report.errors,
            host_span: report.host_span,
            base,
            encoding,
        }),
        None => Err(not_a_url_error(py, &report)),
    }
}

/// URL Standard: the URL class. A URL parsed by the API URL parser, with the URL API's getters
/// and setters, the parse's validation errors, and the host analysis. Like the web's URL it is
/// mutable, so it is not hashable; two URLs are equal when their hrefs are.
#[pyclass(module = "urlscope", name = "URL")]
#[derive(Clone)]
struct PyUrl {
    url: Url,
    /// The input as given, and what its parse found. After a setter (or an edit of
    /// `search_params`) changed the URL, its href parsed on its own ([`PyUrl::described_anew`]).
    input: String,
    errors: Vec<urlscope::ValidationError>,
    host_span: Option<Span>,
    /// The base and the query encoding the input was parsed with, so that a pickled URL is
    /// parsed again as it was (its errors are the input's, not the href's).
    base: Option<Url>,
    encoding: &'static Encoding,
}

impl PyUrl {
    /// Runs the setter of `component`; one that leaves the URL as it was warns with
    /// `SetterIgnored`, in the words of the command line's `--set` (the library's).
    fn set(&mut self, py: Python<'_>, component: Component, value: &str) -> PyResult<()> {
        within_limit(value, "the value")?;
        let unchanged = guarded(|| {
            Ok(urlscope::report::setter::set(
                &mut self.url,
                component,
                value,
            ))
        })?;
        match unchanged {
            None => {
                self.described_anew();
                Ok(())
            }
            Some(unchanged) => {
                let message = std::ffi::CString::new(unchanged.to_string().replace('\0', "\\0"))
                    .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
                PyErr::warn(py, &py.get_type::<SetterIgnored>(), &message, 1)
            }
        }
    }

    /// After an edit changed the URL: `errors`, `valid` and the analysis describe the URL as
    /// it is now, its href parsed on its own. The standard's setters run the basic URL parser
    /// with a state override on the value alone, and the errors of the input the URL was first
    /// parsed from no longer describe it.
    fn described_anew(&mut self) {
        let href = self.url.href().to_owned();
        let report = Report::untraced_parts(&href, None, UTF_8, Parts::NONE);
        self.errors = report.errors;
        self.host_span = report.host_span;
        self.input = href;
        self.base = None;
        self.encoding = UTF_8;
    }

    fn analysis(&self) -> Option<urlscope::inspect::HostAnalysis> {
        urlscope::inspect::analyse(&urlscope::inspect::Subject {
            input: &self.input,
            url: Some(&self.url),
            errors: &self.errors,
            host_span: self.host_span,
            has_base: self.base.is_some(),
            label_table: true,
            forms: true,
        })
    }
}

/// The URL class's methods, with a getter and a setter per component of `$component`; `$doc`
/// is the property's docstring (`help(urlscope.URL)`).
macro_rules! url_methods {
    ($($doc:literal $getter:ident, $setter:ident, $component:ident;)* { $($methods:tt)* }) => {
        #[pymethods]
        impl PyUrl {
            $(
                #[doc = $doc]
                #[getter]
                fn $getter(&self) -> &str {
                    self.url.component(Component::$component)
                }

                #[setter]
                fn $setter(&mut self, py: Python<'_>, value: Bound<'_, PyString>) -> PyResult<()> {
                    self.set(py, Component::$component, &text(&value, "the value")?)
                }
            )*

            $($methods)*
        }
    };
}

url_methods! {
    "URL Standard: the protocol getter, the scheme and \":\" (\"https:\"). Setting it runs the \
     basic URL parser from the scheme start state; a value it ignores (special to non-special, \
     say) warns with SetterIgnored."
    protocol, set_protocol, Protocol;
    "URL Standard: the username getter, percent-encoded. Setting it is ignored (SetterIgnored) \
     when the URL cannot have a username (no host, or a file URL)."
    username, set_username, Username;
    "URL Standard: the password getter, percent-encoded. Setting it is ignored (SetterIgnored) \
     when the URL cannot have a password."
    password, set_password, Password;
    "URL Standard: the host getter, the serialized host and \":port\" when there is a port. \
     Setting it runs the basic URL parser from the host state; a value it refuses warns with \
     SetterIgnored."
    host, set_host, Host;
    "URL Standard: the hostname getter, the serialized host. Setting it runs the basic URL \
     parser from the hostname state; a value it refuses warns with SetterIgnored."
    hostname, set_hostname, Hostname;
    "URL Standard: the pathname getter, the serialized path. Setting it runs the basic URL \
     parser from the path start state; it is ignored (SetterIgnored) on an opaque path."
    pathname, set_pathname, Pathname;
    "URL Standard: the search getter, \"?\" and the query (\"\" when the query is null or \
     empty). Setting it runs the basic URL parser from the query state (one leading \"?\" \
     removed); \"\" makes the query null. search_params follows."
    search, set_search, Search;
    "URL Standard: the hash getter, \"#\" and the fragment (\"\" when it is null or empty). \
     Setting it runs the basic URL parser from the fragment state (one leading \"#\" removed); \
     \"\" makes the fragment null."
    hash, set_hash, Hash;
{
    /// URL Standard: the URL constructor, `new URL(url, base)`: parses `input` against `base`
    /// (a URL or a str) with the API URL parser, and raises `URLError` when either is not a URL.
    #[new]
    #[pyo3(signature = (input, base = None))]
    fn new(
        py: Python<'_>,
        input: &Bound<'_, PyString>,
        base: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let input = input_text(input, "the input")?;
        guarded(|| {
            let base = base_argument(py, base)?;
            parse_url(py, &input, base, UTF_8)
        })
    }

    /// Mutable, like the web's URL, so not hashable: a hash of the href would change under a
    /// set or dict that holds the URL. Use `u.href` as a key.
    #[classattr]
    const __hash__: Option<Py<PyAny>> = None;

    /// URL Standard: the href getter, the URL serialized. Setting it parses the value as a new
    /// URL and raises `URLError` (the URL unchanged) when it is not one, as the web's href
    /// setter throws a TypeError.
    #[getter]
    fn href(&self) -> &str {
        self.url.href()
    }

    #[setter]
    fn set_href(&mut self, py: Python<'_>, value: Bound<'_, PyString>) -> PyResult<()> {
        let value = input_text(&value, "the value")?;
        guarded(|| {
            let report = Report::untraced_parts(&value, None, UTF_8, Parts::NONE);
            match report.url.clone() {
                Some(url) => {
                    self.url = url;
                    self.input = value.into_owned();
                    self.errors = report.errors;
                    self.host_span = report.host_span;
                    self.base = None;
                    self.encoding = UTF_8;
                    Ok(())
                }
                None => Err(not_a_url_error(py, &report)),
            }
        })
    }

    /// URL Standard: the port getter, the port in decimal ("" when it is null, as it is for the
    /// scheme's default port). Setting takes a str or an int; None or "" makes the port null.
    /// A value the standard ignores (out of range, or a URL that cannot have a port) warns with
    /// SetterIgnored.
    #[getter]
    fn port(&self) -> &str {
        self.url.port()
    }

    #[setter]
    fn set_port(&mut self, py: Python<'_>, value: Option<Bound<'_, PyAny>>) -> PyResult<()> {
        let value = match value.as_ref().filter(|v| !v.is_none()) {
            None => String::new(),
            Some(v) if v.is_instance_of::<PyBool>() => {
                return Err(PyTypeError::new_err("port must be an int, a str or None, not bool"))
            }
            Some(v) if v.is_instance_of::<PyInt>() => v.str()?.to_cow()?.into_owned(),
            Some(v) => match v.cast::<PyString>() {
                Ok(s) => text(s, "the value")?.into_owned(),
                Err(_) => {
                    return Err(PyTypeError::new_err(format!(
                        "port must be an int, a str or None, not {}",
                        type_name(v)
                    )))
                }
            },
        };
        self.set(py, Component::Port, &value)
    }

    /// URL Standard: the origin getter, the serialized origin ("null" for an opaque origin).
    #[getter]
    fn origin(&self) -> String {
        self.url.origin()
    }

    /// URL Standard: the searchParams getter: the query as a URLSearchParams. Its edits update
    /// this URL's query (the standard's update steps), and a change of the query shows in it.
    #[getter]
    fn search_params(slf: &Bound<'_, Self>) -> SearchParams {
        SearchParams {
            owner: Some(slf.clone().unbind()),
            list: UrlSearchParams::new(),
        }
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
        let href = PyString::new(py, self.url.href()).repr()?;
        Ok(format!("URL({href})"))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyUrl>()
            .is_ok_and(|o| o.borrow().url.href() == self.url.href())
    }

    /// Pickled as its input, base and query encoding, parsed again when unpickled: the same
    /// URL with the same errors (`valid` stays what it was). The href is kept too, and is the
    /// URL's should the input's parse ever give another.
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> Reduced<'py, (String, Option<String>, &'static str, String)> {
        Ok((
            py.get_type::<PyUrl>().getattr("_restore")?,
            (
                self.input.clone(),
                self.base.as_ref().map(|b| b.href().to_owned()),
                self.encoding.name(),
                self.url.href().to_owned(),
            ),
        ))
    }

    /// A URL again from what `__reduce__` kept.
    #[classmethod]
    fn _restore(
        _cls: &Bound<'_, PyType>,
        py: Python<'_>,
        input: &str,
        base: Option<&str>,
        encoding: &str,
        href: &str,
    ) -> PyResult<Self> {
        guarded(|| {
            let base = parse_base(py, base)?;
            let mut url = parse_url(py, input, base, self::encoding(encoding)?)?;
            if url.url.href() != href {
                url.url = Url::parse(href, None)
                    .map_err(|e| PyValueError::new_err(format!("{href:?} is not a URL: {e}")))?;
            }
            Ok(url)
        })
    }

    /// A copy: the same URL, errors and input, edited apart from this one.
    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }
}
}

/// URL Standard: the URLSearchParams class. `urlscope.URLSearchParams(init)` is a list of its
/// own; `URL.search_params` is the URL's query object, whose edits update the URL.
#[pyclass(module = "urlscope", name = "URLSearchParams")]
struct SearchParams {
    /// The URL whose query this is (the standard's URL object), or `None`.
    owner: Option<Py<PyUrl>>,
    /// The list, when there is no URL object (with one, the URL's query is the list).
    list: UrlSearchParams,
}

impl SearchParams {
    /// The list: the URL's query read as the standard initializes the query object, or this
    /// object's own.
    fn read(&self, py: Python<'_>) -> UrlSearchParams {
        match &self.owner {
            Some(owner) => owner.borrow(py).url.search_params(),
            None => self.list.clone(),
        }
    }

    /// Runs `edit` on the list, then the standard's update steps on the URL object's query.
    fn edit(
        &mut self,
        py: Python<'_>,
        edit: impl FnOnce(&mut urlscope::url::UrlSearchParamsMut<'_>),
        own: impl FnOnce(&mut UrlSearchParams),
    ) {
        match &self.owner {
            Some(owner) => {
                let mut url = owner.borrow_mut(py);
                edit(&mut url.url.search_params_mut());
                url.described_anew();
            }
            None => own(&mut self.list),
        }
    }
}

/// The pairs of a URLSearchParams init that is not a string: a mapping's items, or a sequence
/// of pairs (each of exactly two strings, or the standard's TypeError).
fn init_pairs(init: &Bound<'_, PyAny>) -> PyResult<Vec<(String, String)>> {
    let items = match init.cast::<PyDict>() {
        Ok(dict) => dict.items().into_any(),
        Err(_) if init.hasattr("items")? && !init.is_instance_of::<SearchParams>() => {
            init.call_method0("items")?
        }
        Err(_) => init.clone(),
    };
    let mut pairs = Vec::new();
    for (i, item) in items.try_iter()?.enumerate() {
        let item = item?;
        let pair: Vec<Bound<'_, PyAny>> = item
            .try_iter()
            .and_then(|it| it.collect::<PyResult<_>>())
            .map_err(|_| PyTypeError::new_err(format!("item {i} of init is not a pair")))?;
        let [name, value] = pair.as_slice() else {
            return Err(PyTypeError::new_err(format!(
                "item {i} of init has {} items, not 2 (name and value)",
                pair.len()
            )));
        };
        pairs.push((name.extract()?, value.extract()?));
    }
    Ok(pairs)
}

#[pymethods]
impl SearchParams {
    /// URL Standard: `new URLSearchParams(init)`: from a string (one leading "?" removed), a
    /// mapping, a sequence of (name, value) pairs, or another URLSearchParams.
    #[new]
    #[pyo3(signature = (init = None))]
    fn new(py: Python<'_>, init: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let list = match init.filter(|i| !i.is_none()) {
            None => UrlSearchParams::new(),
            Some(init) => match init.cast::<PyString>() {
                Ok(text) => UrlSearchParams::parse(&text.to_cow()?),
                Err(_) => match init.cast::<SearchParams>() {
                    Ok(other) => other.borrow().read(py),
                    Err(_) => UrlSearchParams::from_pairs(init_pairs(init)?),
                },
            },
        };
        Ok(SearchParams { owner: None, list })
    }

    /// URL Standard: the size getter, the number of pairs.
    #[getter]
    fn size(&self, py: Python<'_>) -> usize {
        self.read(py).size()
    }

    fn __len__(&self, py: Python<'_>) -> usize {
        self.read(py).size()
    }

    /// URL Standard: `append(name, value)`.
    fn append(&mut self, py: Python<'_>, name: &str, value: &str) {
        self.edit(py, |p| p.append(name, value), |l| l.append(name, value));
    }

    /// URL Standard: `delete(name, value)`: the pairs named `name` (with `value`, only those
    /// with that value too).
    #[pyo3(signature = (name, value = None))]
    fn delete(&mut self, py: Python<'_>, name: &str, value: Option<&str>) {
        self.edit(py, |p| p.delete(name, value), |l| l.delete(name, value));
    }

    /// URL Standard: `get(name)`: the first value for `name`, or None.
    fn get(&self, py: Python<'_>, name: &str) -> Option<String> {
        self.read(py).get(name).map(str::to_owned)
    }

    /// URL Standard: `getAll(name)`: every value for `name`, in order.
    fn get_all(&self, py: Python<'_>, name: &str) -> Vec<String> {
        let list = self.read(py);
        list.get_all(name).into_iter().map(str::to_owned).collect()
    }

    /// URL Standard: `has(name, value)`.
    #[pyo3(signature = (name, value = None))]
    fn has(&self, py: Python<'_>, name: &str, value: Option<&str>) -> bool {
        self.read(py).has(name, value)
    }

    fn __contains__(&self, py: Python<'_>, name: &str) -> bool {
        self.read(py).has(name, None)
    }

    /// URL Standard: `set(name, value)`: the first pair named `name` takes `value`, the others
    /// go; without one, the pair is appended.
    fn set(&mut self, py: Python<'_>, name: &str, value: &str) {
        self.edit(py, |p| p.set(name, value), |l| l.set(name, value));
    }

    /// URL Standard: `sort()`: a stable sort by name, in UTF-16 code units.
    fn sort(&mut self, py: Python<'_>) {
        self.edit(py, |p| p.sort(), |l| l.sort());
    }

    /// The (name, value) pairs, in order.
    fn items(&self, py: Python<'_>) -> Vec<(String, String)> {
        self.read(py).into_pairs()
    }

    /// The names, in order (with repeats).
    fn keys(&self, py: Python<'_>) -> Vec<String> {
        self.read(py)
            .into_pairs()
            .into_iter()
            .map(|(n, _)| n)
            .collect()
    }

    /// The values, in order.
    fn values(&self, py: Python<'_>) -> Vec<String> {
        self.read(py)
            .into_pairs()
            .into_iter()
            .map(|(_, v)| v)
            .collect()
    }

    /// Iterates over the (name, value) pairs as they are now.
    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(PyList::new(py, self.read(py).into_pairs())?
            .try_iter()?
            .into_any())
    }

    /// URL Standard: the stringification behavior, application/x-www-form-urlencoded.
    fn __str__(&self, py: Python<'_>) -> String {
        self.read(py).serialize()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let text = PyString::new(py, &self.read(py).serialize()).repr()?;
        Ok(format!("URLSearchParams({text})"))
    }

    /// Equal to another URLSearchParams with the same pairs in the same order.
    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<SearchParams>()
            .is_ok_and(|o| o.borrow().read(py) == self.read(py))
    }

    #[classattr]
    const __hash__: Option<Py<PyAny>> = None;
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

/// URL Standard: the API URL parser. Raises `URLError` when `input` (or `base`, a URL or a
/// str) is not a URL, `ValueError` when either is longer than `urlscope.MAX_INPUT` or holds a
/// lone surrogate.
#[pyfunction]
#[pyo3(signature = (input, base = None, encoding = "utf-8"))]
fn parse(
    py: Python<'_>,
    input: &Bound<'_, PyString>,
    base: Option<&Bound<'_, PyAny>>,
    encoding: &str,
) -> PyResult<PyUrl> {
    let input = input_text(input, "the input")?;
    guarded(|| {
        let encoding = self::encoding(encoding)?;
        let base = base_argument(py, base)?;
        parse_url(py, &input, base, encoding)
    })
}

/// URL Standard: `URL.canParse(url, base)`: whether the URL constructor would return a URL.
/// False for what it would refuse: an input or base that is not a URL, longer than
/// `urlscope.MAX_INPUT`, or holding a lone surrogate.
#[pyfunction]
#[pyo3(signature = (input, base = None))]
fn can_parse(
    py: Python<'_>,
    input: &Bound<'_, PyString>,
    base: Option<&Bound<'_, PyAny>>,
) -> PyResult<bool> {
    let input = match input_text(input, "the input") {
        Ok(input) => input,
        Err(e) if e.is_instance_of::<PyValueError>(py) => return Ok(false),
        Err(e) => return Err(e),
    };
    guarded(|| match base_argument(py, base) {
        Ok(base) => Ok(Url::parse(&input, base.as_ref()).is_ok()),
        // A base that is not a URL (a `URLError`, a `ValueError`): the standard's canParse
        // returns false. A base of another type is a `TypeError`.
        Err(e) if e.is_instance_of::<PyValueError>(py) => Ok(false),
        Err(e) => Err(e),
    })
}

/// The steps of the basic URL parser's run, as `urlscope trace --json` gives them.
#[pyfunction]
#[pyo3(signature = (input, base = None))]
fn trace<'py>(
    py: Python<'py>,
    input: &Bound<'py, PyString>,
    base: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let input = input_text(input, "the input")?;
    let base = base_text(base)?;
    guarded(|| {
        parse_base(py, base.as_deref())?;
        let report = Report::new(&input, base.as_deref());
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
    input: &Bound<'py, PyString>,
    parsers: Option<Vec<String>>,
    base: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let input = input_text(input, "the input")?;
    let base = base_text(base)?;
    let (input, base) = (input.as_ref(), base.as_deref());
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
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("URLError", m.py().get_type::<URLError>())?;
    m.add("SetterIgnored", m.py().get_type::<SetterIgnored>())?;
    m.add_class::<SearchParams>()?;
    m.add("MAX_INPUT", urlscope::MAX_INPUT)?;
    m.add("MAX_JOBS", batch::MAX_JOBS)?;
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
