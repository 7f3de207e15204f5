"""urlscope: the WHATWG URL Standard, with its validation errors, host analysis and trace.

The per-URL API (:func:`parse`, :class:`URL`, :func:`can_parse`, :func:`trace`, :func:`diff`)
needs nothing but this package. The batch functions (:func:`parse_batch`, :func:`check_batch`)
take and return Arrow arrays and need pyarrow; :mod:`urlscope.spark` runs them on a Spark
DataFrame's executors.
"""

from __future__ import annotations

from typing import Any, Iterable, List, Optional, Sequence, Union

from urlscope._urlscope import (
    URL,
    Finding,
    URLError,
    ValidationError,
    can_parse,
    diff,
    field_names,
    parse,
    trace,
)
from urlscope import _urlscope

__all__ = [
    "URL",
    "Finding",
    "URLError",
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
        return [f.strip() for f in fields.split(",") if f.strip()]
    return list(fields)


def _dispatch(urls: Any, on_list, on_arrays, kwargs: dict):
    """Calls `on_list` for a Python list, `on_arrays` with the chunks of an Arrow array."""
    import pyarrow as pa

    if isinstance(urls, list):
        result = on_list(urls, **kwargs)
    elif isinstance(urls, pa.ChunkedArray):
        result = on_arrays(list(urls.chunks), **kwargs)
    elif isinstance(urls, pa.Array) or hasattr(urls, "__arrow_c_array__"):
        result = on_arrays([urls], **kwargs)
    elif hasattr(urls, "__arrow_c_stream__"):
        # A Polars Series, a pyarrow RecordBatchReader of one column, …
        result = on_arrays(list(pa.chunked_array(urls).chunks), **kwargs)
    else:
        raise TypeError(
            "urls must be a list of strings, a pyarrow string array or a chunked array, "
            f"not {type(urls).__name__}"
        )
    return pa.array(result)


def parse_batch(
    urls: Any,
    base: Optional[str] = None,
    fields: Union[None, str, Iterable[str]] = None,
    jobs: Optional[int] = None,
    encoding: str = "utf-8",
):
    """Parses every URL of `urls` into a ``pyarrow.StructArray``, one row per URL.

    `urls` is a list of strings (or None), a pyarrow ``string``, ``large_string`` or
    ``string_view`` array, or a chunked array. A null stays a null row. `fields` names the
    columns wanted (see :data:`FIELDS`); only what they need is computed, so ``["href"]``
    collects no validation errors and analyses no host. Every row also has ``failure``: true
    when the input is not a URL (its URL columns are then null). The GIL is released and the
    rows are spread over `jobs` threads (all the cores by default).
    """
    return _dispatch(
        urls,
        _urlscope.parse_list,
        _urlscope.parse_arrays,
        dict(base=base, fields=_fields(fields), jobs=jobs, encoding=encoding),
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
    """
    return _dispatch(
        urls,
        _urlscope.check_list,
        _urlscope.check_arrays,
        dict(
            allow_hosts=_allow_hosts(allow_hosts),
            fail_on=fail_on,
            jobs=jobs,
            deny_internal=deny_internal,
        ),
    )


def polars_parse(series, fields=None, base=None, jobs=None):
    """A Polars ``Series`` of URLs parsed into a struct ``Series`` (`parse_batch`'s columns)."""
    import polars as pl

    result = parse_batch(series.to_arrow(), base=base, fields=fields, jobs=jobs)
    return pl.Series(series.name, result)


def pandas_parse(series, fields=None, base=None, jobs=None):
    """A pandas ``Series`` of URLs parsed into a ``Series`` of Arrow struct dtype."""
    import pandas as pd
    import pyarrow as pa

    # NaN and None (and pandas.NA) are nulls.
    arrow = pa.array(series, from_pandas=True)
    result = parse_batch(arrow, base=base, fields=fields, jobs=jobs)
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
