"""urlscope: the WHATWG URL Standard, with its validation errors, host analysis and trace.

The per-URL API (:class:`URL`, :func:`parse`, :class:`URLSearchParams`, :func:`can_parse`,
:func:`trace`, :func:`diff`) needs nothing but this package. The batch functions
(:func:`parse_batch`, :func:`check_batch`) take and return Arrow arrays and need pyarrow
(``pip install 'urlscope-whatwg[arrow]'``); :mod:`urlscope.spark` runs them on a Spark DataFrame's
executors (``urlscope-whatwg[spark]``: pyarrow and pandas 2.2 or later, which Spark's Arrow path
needs).
"""

from __future__ import annotations

from typing import Any, Iterable, List, Optional, Sequence, Union

from urlscope._urlscope import (
    MAX_INPUT,
    URL,
    Finding,
    SetterIgnored,
    URLError,
    URLSearchParams,
    ValidationError,
    __version__,
    can_parse,
    diff,
    field_names,
    parse,
    trace,
)
from urlscope import _urlscope

__all__ = [
    "MAX_INPUT",
    "URL",
    "Finding",
    "SetterIgnored",
    "URLError",
    "URLSearchParams",
    "ValidationError",
    "FIELDS",
    "can_parse",
    "check_batch",
    "diff",
    "parse",
    "parse_batch",
    "trace",
    "polars_parse",
    "pandas_parse",
    "duckdb_register",
]

#: The fields `parse_batch` can give (the keys of `urlscope parse --json`), in column order.
#: Every batch also has `failure`.
FIELDS: tuple = field_names()


def _fields(fields: Union[None, str, Iterable[str]]) -> Optional[list]:
    if fields is None:
        return None
    if isinstance(fields, str):
        names = [f.strip() for f in fields.split(",") if f.strip()]
    else:
        names = list(fields)
        for name in names:
            if not isinstance(name, str):
                raise TypeError(f"fields must be names (str), not {type(name).__name__}")
    if not names:
        raise ValueError(f"fields is empty: name at least one of {', '.join(FIELDS)}")
    return names


def _jobs(jobs: Optional[int]) -> Optional[int]:
    if jobs is None:
        return None
    if isinstance(jobs, bool) or not isinstance(jobs, int):
        raise TypeError(f"jobs must be an int or None, not {type(jobs).__name__}")
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    return jobs


def _errors(errors: str) -> str:
    if errors not in ("raise", "null"):
        raise ValueError(f'errors is "raise" or "null", not {errors!r}')
    return errors


def _base(base: Any) -> Optional[str]:
    if base is None or isinstance(base, str):
        return base
    if isinstance(base, URL):
        return base.href
    raise TypeError(f"base must be a URL, a str or None, not {type(base).__name__}")


def _pyarrow():
    try:
        import pyarrow
    except ModuleNotFoundError as e:
        raise ModuleNotFoundError(
            "urlscope's batch functions need pyarrow, which is not installed: "
            "pip install 'urlscope-whatwg[arrow]' (or pip install pyarrow)",
            name="pyarrow",
        ) from e
    return pyarrow


def _arrays(urls: Any) -> list:
    """The Arrow arrays of `urls` (a column's chunks), for the native functions."""
    pa = _pyarrow()
    if isinstance(urls, pa.ChunkedArray):
        return list(urls.chunks)
    if isinstance(urls, pa.Array) or hasattr(urls, "__arrow_c_array__"):
        return [urls]
    if hasattr(urls, "__arrow_c_stream__"):
        # A Polars Series, a pyarrow RecordBatchReader of one column, …
        return list(pa.chunked_array(urls).chunks)
    if _is_pandas(urls):
        # NaN and None (and pandas.NA) are nulls; a categorical is a dictionary array.
        return [pa.array(urls, from_pandas=True)]
    raise TypeError(
        "urls must be a list of strings, a pyarrow string array or a chunked array, a Polars "
        f"or pandas Series, not {type(urls).__name__}"
    )


def _is_pandas(value: Any) -> bool:
    module = type(value).__module__
    return module.startswith("pandas") and hasattr(value, "to_numpy")


def _dispatch(urls: Any, on_list, on_arrays, kwargs: dict, errors: str, chunk_rows):
    """Calls `on_list` for a Python list, `on_arrays` with the chunks of an Arrow array."""
    pa = _pyarrow()
    if isinstance(urls, list):
        result = on_list(urls, errors=errors, chunk_rows=chunk_rows, **kwargs)
    else:
        result = on_arrays(_arrays(urls), chunk_rows=chunk_rows, **kwargs)
    return pa.array(result)


def parse_batch(
    urls: Any,
    base: Union[None, str, URL] = None,
    fields: Union[None, str, Iterable[str]] = None,
    jobs: Optional[int] = None,
    encoding: str = "utf-8",
    errors: str = "raise",
    chunk_rows: Optional[int] = None,
):
    """Parses every URL of `urls` into a ``pyarrow.StructArray``, one row per URL.

    `urls` is a list of strings (or None), a pyarrow ``string``, ``large_string`` or
    ``string_view`` array (or a dictionary of them, or a ``null`` array), a chunked array, or a
    Polars or pandas Series (a categorical too). A null stays a null row. `fields` names the
    columns wanted (see :data:`FIELDS`); only what they need is computed, so ``["href"]``
    collects no validation errors and analyses no host. Every row also has ``failure``: true
    when the input is not a URL (its URL columns are then null).

    A list item that is not a string (or a ``str`` with a lone surrogate, which is not UTF-8)
    raises ``TypeError`` (``ValueError``) naming its row with ``errors="raise"`` (the default),
    and is a null row with ``errors="null"``.

    The GIL is released, and the rows are spread over `jobs` threads (all the cores by
    default) in pieces of at most `chunk_rows` rows (65,536 by default), so that a large input
    takes little more memory than its result.
    """
    _errors(errors)
    return _dispatch(
        urls,
        _urlscope.parse_list,
        _urlscope.parse_arrays,
        dict(base=_base(base), fields=_fields(fields), jobs=_jobs(jobs), encoding=encoding),
        errors,
        chunk_rows,
    )


def _allow_hosts(allow_hosts: Union[None, str, Sequence[str]]) -> Optional[List[str]]:
    """The allowlist as a list: a bare ``str`` is one host, not its letters."""
    if allow_hosts is None:
        return None
    if isinstance(allow_hosts, str):
        return [allow_hosts]
    return list(allow_hosts)


def check_batch(
    urls: Any,
    allow_hosts: Union[None, str, Sequence[str]] = None,
    fail_on: str = "danger",
    jobs: Optional[int] = None,
    errors: str = "raise",
    chunk_rows: Optional[int] = None,
    deny_internal: bool = False,
):
    """What ``urlscope check`` says of each URL, as a ``pyarrow.StructArray``.

    Each row has ``href``, ``host``, ``findings`` (id and severity), ``imitates`` (the known
    domains the host imitates), ``worst`` (the highest severity, or null) and ``fail`` (a
    finding at or above `fail_on`). An input that is not a URL has the finding ``failure``.

    `allow_hosts` (a host, or a sequence of them: ``example.com``, ``example.com:8443``,
    ``*.example.com`` for the subdomains only, ``[::1]``) and `deny_internal` are the gate of
    ``urlscope check --allow-host``/``--deny-internal``, decided by the same library function,
    on the readings of the parsers built into urlscope (whatwg, rust-url, curl, rfc3986, http;
    the external runtimes are not started per row, as the command line does). A URL passes the
    allowlist only when every reading that has a destination goes to an allowed host:
    ``allowlist-bypass`` (some readings allowed, others not) and ``not-allowed`` (none, or no
    reading has a destination) are danger; ``internal-destination`` (danger) when a reading
    goes to an internal host. An entry that cannot be a host raises ``ValueError``.
    `urls`, `jobs`, `errors` and `chunk_rows` are as :func:`parse_batch` takes them.
    """
    _errors(errors)
    return _dispatch(
        urls,
        _urlscope.check_list,
        _urlscope.check_arrays,
        dict(
            allow_hosts=_allow_hosts(allow_hosts),
            fail_on=fail_on,
            jobs=_jobs(jobs),
            deny_internal=deny_internal,
        ),
        errors,
        chunk_rows,
    )


def polars_parse(series, fields=None, base=None, jobs=None):
    """A Polars ``Series`` of URLs parsed into a struct ``Series`` (`parse_batch`'s columns)."""
    import polars as pl

    result = parse_batch(series, base=base, fields=fields, jobs=jobs)
    return pl.Series(series.name, result)


def pandas_parse(series, fields=None, base=None, jobs=None):
    """A pandas ``Series`` of URLs parsed into a ``Series`` of Arrow struct dtype."""
    import pandas as pd

    result = parse_batch(series, base=base, fields=fields, jobs=jobs)
    return pd.Series(result, dtype=pd.ArrowDtype(result.type), index=series.index, name=series.name)


def duckdb_register(connection, name: str = "urlscope_parse", fields=None):
    """Registers a DuckDB scalar function `name(url)` returning `parse_batch`'s struct.

    It is an Arrow UDF: DuckDB hands it a vector of URLs at a time.
    """
    import duckdb
    import pyarrow as pa

    result_type = parse_batch([], fields=fields).type

    def udf(urls):
        return parse_batch(urls, fields=fields)

    connection.create_function(
        name,
        udf,
        [duckdb.sqltype("VARCHAR")],
        duckdb.sqltype(_duckdb_type(result_type)),
        type="arrow",
    )
    return connection


def _duckdb_type(t) -> str:
    import pyarrow as pa

    if pa.types.is_struct(t):
        inner = ", ".join(f'"{t.field(i).name}" {_duckdb_type(t.field(i).type)}' for i in range(t.num_fields))
        return f"STRUCT({inner})"
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return f"{_duckdb_type(t.value_type)}[]"
    if pa.types.is_boolean(t):
        return "BOOLEAN"
    if pa.types.is_uint32(t):
        return "UINTEGER"
    if pa.types.is_uint64(t):
        return "UBIGINT"
    return "VARCHAR"
