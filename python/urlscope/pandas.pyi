from typing import Any, Iterable, Optional, Sequence, Union

from urlscope import URL

# pandas.Series: typed as Any, so that these stubs need no pandas to check.
class UrlscopeAccessor:
    def __init__(self, series: Any) -> None: ...
    def parse(
        self,
        fields: Union[None, str, Iterable[str]] = None,
        base: Union[None, str, URL] = None,
        jobs: Optional[int] = None,
    ) -> Any: ...
    def href(self, base: Union[None, str, URL] = None, jobs: Optional[int] = None) -> Any: ...
    def host(self, base: Union[None, str, URL] = None, jobs: Optional[int] = None) -> Any: ...
    def check(
        self,
        allow_hosts: Union[None, str, Sequence[str]] = None,
        fail_on: str = "danger",
        jobs: Optional[int] = None,
        deny_internal: bool = False,
        resolve: bool = False,
        dns_server: Optional[str] = None,
        resolve_timeout: float = 2.0,
    ) -> Any: ...
