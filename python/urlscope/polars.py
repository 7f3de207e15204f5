"""``Expr.urlscope``: urlscope in Polars expressions, run by Polars itself.

``import urlscope.polars`` registers the ``urlscope`` expression namespace:
``pl.col("url").urlscope.parse()``, ``.href()``, ``.host()`` and ``.check()``. Each is an
expression plugin, which Polars calls in this package's extension on its own threads, a
column's chunks or a streaming morsel at a time, with no Python in the loop and the GIL free:
in ``select``, ``with_columns``, ``filter``, lazy queries, ``collect(engine="streaming")`` and
``sink_parquet``. The output type is known before the query runs (``collect_schema()``), with
no ``return_dtype``: a struct for ``parse`` and ``check``, ``String`` for ``href`` and ``host``.

The rows are those of :func:`urlscope.parse_batch` and :func:`urlscope.check_batch`, which take
the same options: a null stays null, and a row that is not a URL (or is longer than
:data:`urlscope.MAX_INPUT`) never raises: it has ``failure`` set and null URL columns
(``parse``), the ``failure`` finding (``check``), or is null (``href``, ``host``). The column
is a ``String`` column (a ``Categorical`` or ``Enum`` too, or all ``Null``); another type is a
``ComputeError`` when the query's schema is resolved. Needs pyarrow no more than Polars does;
Polars 1.0 or later.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, Sequence, Union

import polars as pl
from polars.plugins import register_plugin_function

import urlscope
from urlscope import _urlscope

# The extension is the plugin: Polars looks its functions up in this file.
_LIBRARY = Path(_urlscope.__file__)

_FAIL_ON = ("info", "warn", "danger")


def _call(expr: pl.Expr, name: str, kwargs: dict) -> pl.Expr:
    return register_plugin_function(
        plugin_path=_LIBRARY,
        function_name=f"urlscope_{name}",
        args=expr,
        kwargs=kwargs,
        is_elementwise=True,
    )


def _parse_options(fields, base) -> dict:
    fields = urlscope._fields(fields)
    base = urlscope._base(base)
    # Bad fields or a base that is not a URL raise here, as parse_batch raises them, rather than
    # when the query runs.
    _urlscope.parse_list([], base=base, fields=fields)
    return {"fields": fields, "base": base}


@pl.api.register_expr_namespace("urlscope")
class UrlscopeNamespace:
    """``expr.urlscope.parse()``, ``.href()``, ``.host()``, ``.check()``."""

    def __init__(self, expr: pl.Expr):
        self._expr = expr

    def parse(
        self,
        fields: Union[None, str, Iterable[str]] = None,
        base: Union[None, str, urlscope.URL] = None,
    ) -> pl.Expr:
        """`parse_batch` of the column: one struct per row, of `fields` (all by default, in the
        order named) and ``failure``."""
        return _call(self._expr, "parse", _parse_options(fields, base))

    def href(self, base: Union[None, str, urlscope.URL] = None) -> pl.Expr:
        """Each URL's href (null where the input is null or not a URL)."""
        return _call(self._expr, "href", _parse_options(["href"], base))

    def host(self, base: Union[None, str, urlscope.URL] = None) -> pl.Expr:
        """Each URL's hostname (null where the input is null or not a URL)."""
        return _call(self._expr, "host", _parse_options(["hostname"], base))

    def check(
        self,
        allow_hosts: Union[None, str, Sequence[str]] = None,
        fail_on: str = "danger",
        deny_internal: bool = False,
    ) -> pl.Expr:
        """`check_batch` of the column: href, host, findings, imitates, worst and fail per row,
        with the gate of ``urlscope check`` (`allow_hosts`, `deny_internal`).

        With a gate, the parsers' runtimes are started once for these options (about a second)
        and kept for the next calls with them: Polars calls the plugin once per chunk or morsel.
        An entry of `allow_hosts` that cannot be a host is a ``ComputeError`` when the query's
        schema is resolved. The lookups of ``check --resolve`` are :func:`urlscope.check_batch`'s
        (``resolve=True``), whose resolver's answers last one call.
        """
        if fail_on not in _FAIL_ON:
            raise ValueError(f'fail_on is "info", "warn" or "danger", not {fail_on!r}')
        kwargs = {
            "allow_hosts": urlscope._allow_hosts(allow_hosts),
            "fail_on": fail_on,
            "deny_internal": bool(deny_internal),
        }
        return _call(self._expr, "check", kwargs)
