from typing import Any, Iterable, Sequence, Union

from urlscope import URL

# polars.Expr: typed as Any, so that these stubs need no polars to check.
class UrlscopeNamespace:
    def __init__(self, expr: Any) -> None: ...
    def parse(
        self,
        fields: Union[None, str, Iterable[str]] = None,
        base: Union[None, str, URL] = None,
    ) -> Any: ...
    def href(self, base: Union[None, str, URL] = None) -> Any: ...
    def host(self, base: Union[None, str, URL] = None) -> Any: ...
    def check(
        self,
        allow_hosts: Union[None, str, Sequence[str]] = None,
        fail_on: str = "danger",
        deny_internal: bool = False,
    ) -> Any: ...
