from typing import Any, Iterable, Literal, Optional, Sequence, Tuple, Union

from urlscope._urlscope import (
    MAX_INPUT as MAX_INPUT,
    MAX_JOBS as MAX_JOBS,
    URL as URL,
    Finding as Finding,
    SetterIgnored as SetterIgnored,
    URLError as URLError,
    URLSearchParams as URLSearchParams,
    __version__ as __version__,
    ValidationError as ValidationError,
    can_parse as can_parse,
    diff as diff,
    parse as parse,
    trace as trace,
)

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

FIELDS: Tuple[str, ...]

def parse_batch(
    urls: Any,
    base: Union[None, str, URL] = None,
    fields: Union[None, str, Iterable[str]] = None,
    jobs: Optional[int] = None,
    encoding: str = "utf-8",
    errors: Literal["raise", "null"] = "raise",
    chunk_rows: Optional[int] = None,
) -> Any: ...
# With allow_hosts, deny_internal or resolve, every parser's reading (the runtimes' adapters included,
# as `urlscope check` reads them), one row at a time; without, the built-in checks on `jobs`.
def check_batch(
    urls: Any,
    allow_hosts: Union[None, str, Sequence[str]] = None,
    fail_on: str = "danger",
    jobs: Optional[int] = None,
    errors: Literal["raise", "null"] = "raise",
    chunk_rows: Optional[int] = None,
    deny_internal: bool = False,
    resolve: bool = False,
    dns_server: Optional[str] = None,
    resolve_timeout: float = 2.0,
) -> Any: ...
def polars_parse(series: Any, fields: Any = None, base: Union[None, str, URL] = None, jobs: Optional[int] = None) -> Any: ...
def pandas_parse(series: Any, fields: Any = None, base: Union[None, str, URL] = None, jobs: Optional[int] = None) -> Any: ...
def duckdb_register(connection: Any, name: str = "urlscope_parse", fields: Any = None) -> Any: ...
