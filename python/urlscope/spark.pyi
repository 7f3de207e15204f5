from typing import Any, Iterable, List, Optional, Sequence, Union

from urlscope import URL

# A pyspark.sql.DataFrame: typed as Any, so that these stubs need no pyspark to check.
def parse(
    df: Any,
    column: str,
    fields: Union[None, str, Iterable[str]] = None,
    output: Optional[str] = None,
    base: Union[None, str, URL] = None,
) -> Any: ...
def check(
    df: Any,
    column: str,
    allow_hosts: Union[None, str, Sequence[str]] = None,
    fail_on: str = "danger",
    output: Optional[str] = None,
    deny_internal: bool = False,
) -> Any: ...
def register(
    spark: Any,
    fields: Union[None, str, Iterable[str]] = None,
    allow_hosts: Union[None, str, Sequence[str]] = None,
    deny_internal: bool = False,
    fail_on: str = "danger",
    prefix: str = "urlscope_",
) -> List[str]: ...
