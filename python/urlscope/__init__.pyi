from typing import Any, Iterable, Optional, Sequence, Tuple, Union

from urlscope._urlscope import (
    URL as URL,
    Finding as Finding,
    URLError as URLError,
    ValidationError as ValidationError,
    can_parse as can_parse,
    diff as diff,
    parse as parse,
    trace as trace,
)

FIELDS: Tuple[str, ...]

def parse_batch(
    urls: Any,
    base: Optional[str] = None,
    fields: Union[None, str, Iterable[str]] = None,
    jobs: Optional[int] = None,
    encoding: str = "utf-8",
) -> Any: ...
def check_batch(
    urls: Any,
    allow_hosts: Union[None, str, Sequence[str]] = None,
    fail_on: str = "danger",
    jobs: Optional[int] = None,
    deny_internal: bool = False,
) -> Any: ...
def polars_parse(series: Any, fields: Any = None, base: Optional[str] = None, jobs: Optional[int] = None) -> Any: ...
def pandas_parse(series: Any, fields: Any = None, base: Optional[str] = None, jobs: Optional[int] = None) -> Any: ...
def duckdb_register(connection: Any, name: str = "urlscope_parse", fields: Any = None) -> Any: ...
