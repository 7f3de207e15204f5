"""urlscope: the WHATWG URL Standard, with its validation errors, host analysis and trace.

The per-URL API (:class:`URL`, :func:`parse`, :class:`URLSearchParams`, :func:`can_parse`,
:func:`trace`, :func:`diff`) needs nothing but this package. The batch functions
(:func:`parse_batch`, :func:`check_batch`) take and return Arrow arrays and need pyarrow
(``pip install 'urlscope-whatwg[arrow]'``); :mod:`urlscope.spark` runs them on a Spark DataFrame's
executors (``urlscope-whatwg[spark]``: pyarrow and pandas 2.2 or later, which Spark's Arrow path
needs).
"""

from __future__ import annotations

import math
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import Any, Iterable, List, Optional, Sequence, Union

from urlscope._urlscope import (
    MAX_INPUT,
    MAX_JOBS,
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
    "MAX_JOBS",
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


def _is_text(t) -> bool:
    """A type the native functions read: strings in any layout, a dictionary of them, nulls."""
    pa = _pyarrow()
    if pa.types.is_dictionary(t):
        t = t.value_type
    return (
        pa.types.is_string(t)
        or pa.types.is_large_string(t)
        or pa.types.is_string_view(t)
        or pa.types.is_null(t)
    )


def _one_column(chunk):
    """A one-field struct (a table's or a record batch's rows) is its field; a column of
    another type is itself."""
    pa = _pyarrow()
    if not pa.types.is_struct(chunk.type):
        return chunk
    if chunk.type.num_fields != 1:
        names = ", ".join(chunk.type.field(i).name for i in range(chunk.type.num_fields))
        raise TypeError(
            f"urls is a table of {chunk.type.num_fields} columns ({names}): pass its column of "
            "URLs (table['url'])"
        )
    # flatten() keeps the struct's own nulls.
    return chunk.flatten()[0]


def _all_null_as_nulls(chunk):
    """A column of another type than strings whose every row is null (what pandas makes of an
    all-empty column: float64 NaN) is a column of nulls, as an all-null column of strings is."""
    pa = _pyarrow()
    if not _is_text(chunk.type) and chunk.null_count == len(chunk):
        return pa.nulls(len(chunk))
    return chunk


def _arrays(urls: Any) -> list:
    """The Arrow arrays of `urls` (a column's chunks), for the native functions."""
    pa = _pyarrow()
    if isinstance(urls, pa.ChunkedArray):
        chunks = list(urls.chunks)
    elif isinstance(urls, (pa.Table, pa.RecordBatch)):
        if urls.num_columns != 1:
            raise TypeError(
                f"urls is a table of {urls.num_columns} columns ({', '.join(urls.column_names)}): "
                "pass its column of URLs (table['url'])"
            )
        column = urls.column(0)
        chunks = list(column.chunks) if isinstance(column, pa.ChunkedArray) else [column]
    elif isinstance(urls, pa.Array):
        chunks = [urls]
    elif hasattr(urls, "__arrow_c_array__"):
        chunks = [pa.array(urls)]
    elif hasattr(urls, "__arrow_c_stream__"):
        # A Polars Series or DataFrame, a pyarrow RecordBatchReader, …
        chunks = list(pa.chunked_array(urls).chunks)
    else:
        raise TypeError(
            "urls must be a list (or a tuple, or an iterable) of strings, a pyarrow string "
            "array, chunked array, table or record batch of one column, a Polars or pandas "
            f"Series, or a numpy array, not {type(urls).__name__}"
        )
    return [_all_null_as_nulls(_one_column(c)) for c in chunks]


def _object_items(values, isna) -> "_Items":
    """The items of an object column (numpy's or pandas'), its missing values (None, NaN,
    pandas.NA) as None: for the list path, which reads each item and names a bad one's row."""
    values = values.copy()
    values[isna] = None
    return _Items(values.tolist())


def _from_objects(values, isna):
    """An object column as a string array when pyarrow makes one of it, else its items as a
    list (a non-string item, a lone surrogate): the list path names the row, or makes it null
    with errors="null"."""
    pa = _pyarrow()
    try:
        array = pa.array(values, from_pandas=True)
    except (pa.ArrowException, UnicodeError):
        return _object_items(values, isna)
    if _is_text(array.type):
        return _arrays(array)
    return _object_items(values, isna)


class _Items:
    """A list of items for the list path, which reads them one by one and names a bad one's
    row (the list itself, not a copy)."""

    __slots__ = ("items",)

    def __init__(self, items: list):
        self.items = items


def _input(urls: Any) -> Any:
    """`urls` as :class:`_Items` or as Arrow arrays (a column's chunks)."""
    if isinstance(urls, list):
        return _Items(urls)
    if isinstance(urls, tuple):
        return _Items(list(urls))
    if isinstance(urls, (str, bytes)):
        raise TypeError(
            f"urls must be many URLs (a list of strings, a column), not one {type(urls).__name__}"
        )
    if _is_pandas(urls):
        import pandas as pd

        if urls.dtype == object:
            return _from_objects(urls.to_numpy(dtype=object), pd.isna(urls).to_numpy())
        # NaN and None (and pandas.NA) are nulls; a categorical is a dictionary array.
        return _arrays(_pyarrow().array(urls, from_pandas=True))
    if type(urls).__module__ == "numpy" and hasattr(urls, "dtype"):
        if urls.ndim != 1:
            raise TypeError(f"urls is a numpy array of {urls.ndim} dimensions, not a column")
        if urls.dtype.kind == "O":
            import numpy as np

            isna = np.fromiter((_missing(v) for v in urls), dtype=bool, count=len(urls))
            return _from_objects(urls, isna)
        return _arrays(_pyarrow().array(urls, from_pandas=True))
    if hasattr(urls, "__arrow_c_array__") or hasattr(urls, "__arrow_c_stream__"):
        return _arrays(urls)
    pa = _pyarrow()
    if isinstance(urls, (pa.Array, pa.ChunkedArray, pa.Table, pa.RecordBatch)):
        return _arrays(urls)
    if isinstance(urls, _Iterable) and not isinstance(urls, _Mapping):
        # A generator, a range, a set…: its items, in its order.
        return _Items(list(urls))
    return _arrays(urls)


def _missing(value: Any) -> bool:
    """None, NaN or pandas.NA: a null row, as pyarrow's from_pandas reads them."""
    if value is None:
        return True
    if isinstance(value, float):
        return math.isnan(value)
    return type(value).__name__ == "NAType"


def _is_pandas(value: Any) -> bool:
    module = type(value).__module__
    return module.startswith("pandas") and hasattr(value, "to_numpy")


def _dispatch(urls: Any, on_list, on_arrays, kwargs: dict, errors: str, chunk_rows):
    """Calls `on_list` with the items of a list (a tuple, an iterable, an object column), and
    `on_arrays` with the chunks of an Arrow column."""
    pa = _pyarrow()
    urls = _input(urls)
    if isinstance(urls, _Items):
        result = on_list(urls.items, errors=errors, chunk_rows=chunk_rows, **kwargs)
    else:
        result = on_arrays(urls, errors=errors, chunk_rows=chunk_rows, **kwargs)
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

    `urls` is a list, tuple or other iterable of strings (or None), a pyarrow ``string``,
    ``large_string`` or ``string_view`` array (or a dictionary of them, or a ``null`` array), a
    chunked array, a table or record batch of one column, a Polars or pandas Series (a
    categorical too), or a numpy array. A null stays a null row; a column of another type
    whose rows are all null (pandas' all-empty ``float64`` column) is all null. `fields` names
    the columns wanted (see :data:`FIELDS`), in the order wanted; only what they need is
    computed, so ``["href"]`` collects no validation errors and analyses no host. Every row
    also has ``failure``: true when the input is not a URL (its URL columns are then null).

    An item that is not a string (or a ``str`` with a lone surrogate, which is not UTF-8), or
    a row longer than :data:`MAX_INPUT`, raises ``TypeError`` (``ValueError``) naming its row
    with ``errors="raise"`` (the default), and is a null row with ``errors="null"``.

    The GIL is released, and the rows are spread over `jobs` threads (all the cores by
    default, at most :data:`MAX_JOBS`) in pieces of at most `chunk_rows` rows (65,536 by
    default), so that a large input takes little more memory than its result. Threads beyond
    the cores are the batch's own and have ended when it returns.
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
    resolve: bool = False,
    dns_server: Optional[str] = None,
    resolve_timeout: float = 2.0,
):
    """What ``urlscope check`` says of each URL, as a ``pyarrow.StructArray``.

    Each row has ``href``, ``host``, ``findings`` (id and severity), ``imitates`` (the known
    domains the host imitates), ``worst`` (the highest severity, or null) and ``fail`` (a
    finding at or above `fail_on`). An input that is not a URL has the finding ``failure``.

    `allow_hosts` (a host, or a sequence of them: ``example.com``, ``example.com:8443``,
    ``*.example.com`` for the subdomains only, ``[::1]``) and `deny_internal` are the gate of
    ``urlscope check --allow-host``/``--deny-internal``, decided by the same library function
    on the same readings, so each row gets the command line's findings and verdict: every
    parser's, the five built into urlscope (whatwg, rust-url, curl, rfc3986, http) and the
    runtimes' (python, urllib3, node, node-legacy, java, go, and those configured in
    ``$URLSCOPE_PARSERS`` or ``~/.config/urlscope/parsers.conf``). A runtime that is not
    installed is an unavailable reading, never an agreeing one. The runtimes are started once
    per call (about a second) and read the rows one at a time, in order, on one thread, with
    the GIL released: a few milliseconds a row (without a gate, `jobs` threads and no runtime
    at all). A URL passes the
    allowlist only when every reading that has a destination goes to an allowed host:
    ``allowlist-bypass`` (some readings allowed, others not) and ``not-allowed`` (none, or no
    reading has a destination) are danger; ``internal-destination`` (danger) when a reading
    goes to an internal host. An entry that cannot be a host raises ``ValueError``.

    `resolve` is ``urlscope check --resolve``: every reading's host name is looked up (the
    system resolver, or the DNS server `dns_server`, ``"127.0.0.1:53"``, over UDP; each name
    once per call; at most `resolve_timeout` seconds per row, 0.01 to 60) and every address is
    judged by the internal table: ``resolves-internal`` (warn), or with `deny_internal`
    ``internal-destination``; a lookup that gives no address is ``lookup-failed`` (danger with
    `deny_internal`, which fails closed). A check cannot stop DNS rebinding: the client must
    connect to the address that was checked (docs/check.md).
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
            resolve=resolve,
            dns_server=dns_server,
            resolve_timeout=resolve_timeout,
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


# `Series.urlscope` and `Expr.urlscope` where pandas or Polars is already imported
# (`import urlscope.pandas` and `import urlscope.polars` register them in any order).
if "pandas" in __import__("sys").modules:
    import urlscope.pandas  # noqa: E402,F401
if "polars" in __import__("sys").modules:
    import urlscope.polars  # noqa: E402,F401
