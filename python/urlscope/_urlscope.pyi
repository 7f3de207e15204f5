from typing import Any, List, Optional, Tuple

class URLError(ValueError):
    """The input (or the base) is not a URL; `errors` lists the validation errors raised."""

    errors: List[ValidationError]

class ValidationError:
    """A validation error by the standard's name, with its span in code points."""

    @property
    def type(self) -> str: ...
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def message(self) -> str: ...
    def __init__(self, type: str, start: int, end: int) -> None: ...

class Finding:
    """A finding of the host analysis."""

    @property
    def id(self) -> str: ...
    @property
    def severity(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def detail(self) -> str: ...

class URL:
    """A parsed URL: the URL API's getters and setters, errors and host analysis."""

    href: str
    protocol: str
    username: str
    password: str
    host: str
    hostname: str
    port: str
    pathname: str
    search: str
    hash: str
    @property
    def origin(self) -> str: ...
    @property
    def search_params(self) -> List[Tuple[str, str]]: ...
    @property
    def errors(self) -> List[ValidationError]: ...
    @property
    def valid(self) -> bool: ...
    def host_analysis(self) -> Optional[dict[str, Any]]: ...
    def findings(self) -> List[Finding]: ...

def parse(input: str, base: Optional[str] = None, encoding: str = "utf-8") -> URL: ...
def can_parse(input: str, base: Optional[str] = None) -> bool: ...
def trace(input: str, base: Optional[str] = None) -> List[dict[str, Any]]: ...
def diff(
    input: str, parsers: Optional[List[str]] = None, base: Optional[str] = None
) -> dict[str, Any]: ...
def field_names() -> Tuple[str, ...]: ...
def parse_list(
    urls: List[Optional[str]],
    base: Optional[str] = None,
    fields: Optional[List[str]] = None,
    jobs: Optional[int] = None,
    encoding: str = "utf-8",
) -> Any: ...
def parse_arrays(
    arrays: List[Any],
    base: Optional[str] = None,
    fields: Optional[List[str]] = None,
    jobs: Optional[int] = None,
    encoding: str = "utf-8",
) -> Any: ...
def check_list(
    urls: List[Optional[str]],
    allow_hosts: Optional[List[str]] = None,
    fail_on: str = "danger",
    jobs: Optional[int] = None,
    deny_internal: bool = False,
) -> Any: ...
def check_arrays(
    arrays: List[Any],
    allow_hosts: Optional[List[str]] = None,
    fail_on: str = "danger",
    jobs: Optional[int] = None,
    deny_internal: bool = False,
) -> Any: ...
