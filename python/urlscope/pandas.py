"""``Series.urlscope``: urlscope on a pandas Series of URLs, through the Arrow batches.

``import urlscope.pandas`` registers the accessor (``import urlscope`` registers it too when
pandas is already imported). Each method gives a Series with the input's index and name, of an
Arrow dtype (``pd.ArrowDtype``): a struct for ``parse`` and ``check``, strings for ``href`` and
``host``. Nulls (``None``, ``NaN``, ``pd.NA``) stay null, each in its row; an input that is not a
URL is a row with ``failure`` set, never an exception. The rows are read as
:func:`urlscope.parse_batch` and :func:`urlscope.check_batch` read them, which take the same
options.
"""

from __future__ import annotations

from typing import Iterable, Optional, Sequence, Union

import pandas as pd

import urlscope


def _series(source: pd.Series, array) -> pd.Series:
    return pd.Series(array, dtype=pd.ArrowDtype(array.type), index=source.index, name=source.name)


@pd.api.extensions.register_series_accessor("urlscope")
class UrlscopeAccessor:
    """``series.urlscope.parse()``, ``.check()``, ``.href()``, ``.host()``."""

    def __init__(self, series: pd.Series):
        self._series = series

    def parse(
        self,
        fields: Union[None, str, Iterable[str]] = None,
        base: Union[None, str, urlscope.URL] = None,
        jobs: Optional[int] = None,
    ) -> pd.Series:
        """`parse_batch` of the Series: one struct per row (`fields`, all by default)."""
        return _series(self._series, urlscope.parse_batch(self._series, fields=fields, base=base, jobs=jobs))

    def href(self, base: Union[None, str, urlscope.URL] = None, jobs: Optional[int] = None) -> pd.Series:
        """Each URL's href (null where the input is null or not a URL)."""
        result = urlscope.parse_batch(self._series, fields=["href"], base=base, jobs=jobs)
        return _series(self._series, result.field("href"))

    def host(self, base: Union[None, str, urlscope.URL] = None, jobs: Optional[int] = None) -> pd.Series:
        """Each URL's hostname (null where the input is null or not a URL)."""
        result = urlscope.parse_batch(self._series, fields=["hostname"], base=base, jobs=jobs)
        return _series(self._series, result.field("hostname"))

    def check(
        self,
        allow_hosts: Union[None, str, Sequence[str]] = None,
        fail_on: str = "danger",
        jobs: Optional[int] = None,
        deny_internal: bool = False,
        resolve: bool = False,
        dns_server: Optional[str] = None,
        resolve_timeout: float = 2.0,
    ) -> pd.Series:
        """`check_batch` of the Series: href, host, findings, imitates, worst and fail per row,
        with the gate and lookups of `urlscope check`."""
        result = urlscope.check_batch(
            self._series,
            allow_hosts=allow_hosts,
            fail_on=fail_on,
            jobs=jobs,
            deny_internal=deny_internal,
            resolve=resolve,
            dns_server=dns_server,
            resolve_timeout=resolve_timeout,
        )
        return _series(self._series, result)
