from typing import Any, Dict, Iterable, Iterator, List, Mapping, Optional, Tuple, Union, final

from typing_extensions import Self

__all__ = [
    "__version__",
    "URLError",
    "SetterIgnored",
    "URLSearchParams",
    "MAX_INPUT",
    "MAX_JOBS",
    "ValidationError",
    "Finding",
    "URL",
    "parse",
    "can_parse",
    "trace",
    "diff",
    "field_names",
    "parse_list",
    "parse_arrays",
    "check_list",
    "check_arrays",
    "ArrowArray",
]

__version__: str

class SetterIgnored(UserWarning):
    """A URL setter left the URL as it was; the message names the step of the standard."""

#: The longest input (and base) accepted, in bytes: the command line's limit (16 MiB).
MAX_INPUT: int

#: The most threads a batch may be given (`jobs`).
MAX_JOBS: int

class URLError(ValueError):
    """The input (or the base) is not a URL; `errors` lists the validation errors raised, and
    for the input `step`, `span`, `explanation` and `fix` say what returned failure and how to
    make it a URL (the same answer as `urlscope parse`)."""

    errors: List[ValidationError]
    step: Optional[str]
    span: Optional[Tuple[int, int]]
    explanation: Optional[str]
    fix: Optional[str]

@final
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
    def __new__(cls, type: str, start: int, end: int) -> Self: ...
    def __reduce__(self) -> Tuple[Any, Tuple[str, int, int]]: ...

@final
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
    def __reduce__(self) -> Tuple[Any, Tuple[str, str, str]]: ...

@final
class URLSearchParams:
    """URL Standard: URLSearchParams. `URL.search_params` edits its URL's query."""

    def __new__(
        cls,
        init: Union[None, str, Mapping[str, str], Iterable[Tuple[str, str]], "URLSearchParams"] = None,
    ) -> Self: ...
    @property
    def size(self) -> int: ...
    def __len__(self) -> int: ...
    def append(self, name: str, value: str) -> None: ...
    def delete(self, name: str, value: Optional[str] = None) -> None: ...
    def get(self, name: str) -> Optional[str]: ...
    def get_all(self, name: str) -> List[str]: ...
    def has(self, name: str, value: Optional[str] = None) -> bool: ...
    def __contains__(self, name: object, /) -> bool: ...
    def set(self, name: str, value: str) -> None: ...
    def sort(self) -> None: ...
    def items(self) -> List[Tuple[str, str]]: ...
    def keys(self) -> List[str]: ...
    def values(self) -> List[str]: ...
    def __iter__(self) -> Iterator[Tuple[str, str]]: ...
    def __eq__(self, other: object, /) -> bool: ...
    __hash__: None  # type: ignore[assignment]

@final
class URL:
    """URL Standard: the URL class. Mutable, so unhashable; equal by href."""

    def __new__(cls, input: str, base: Union[None, str, "URL"] = None) -> Self: ...
    href: str
    protocol: str
    username: str
    password: str
    host: str
    hostname: str
    @property
    def port(self) -> str: ...
    @port.setter
    def port(self, value: Union[None, int, str]) -> None: ...
    pathname: str
    search: str
    hash: str
    @property
    def origin(self) -> str: ...
    @property
    def search_params(self) -> URLSearchParams: ...
    @property
    def errors(self) -> List[ValidationError]: ...
    @property
    def valid(self) -> bool: ...
    def host_analysis(self) -> Optional[Dict[str, Any]]: ...
    def findings(self) -> List[Finding]: ...
    def __eq__(self, other: object, /) -> bool: ...
    __hash__: None  # type: ignore[assignment]
    def __copy__(self) -> "URL": ...
    def __deepcopy__(self, memo: Any) -> "URL": ...
    def __reduce__(self) -> Tuple[Any, Tuple[str, Optional[str], str, str]]: ...

@final
class ArrowArray:
    """A batch's result, for a consumer of the Arrow PyCapsule interface (pyarrow.array)."""

    @property
    def pieces(self) -> int: ...
    def __arrow_c_array__(self, requested_schema: Any = None) -> Tuple[Any, Any]: ...

def parse(input: str, base: Union[None, str, URL] = None, encoding: str = "utf-8") -> URL: ...
def can_parse(input: str, base: Union[None, str, URL] = None) -> bool: ...
def trace(input: str, base: Union[None, str, URL] = None) -> List[dict[str, Any]]: ...
def diff(
    input: str, parsers: Optional[List[str]] = None, base: Union[None, str, URL] = None
) -> dict[str, Any]: ...
def field_names() -> Tuple[str, ...]: ...
def parse_list(
    urls: List[Optional[str]],
    base: Optional[str] = None,
    fields: Optional[List[str]] = None,
    jobs: Optional[int] = None,
    encoding: str = "utf-8",
    errors: str = "raise",
    chunk_rows: Optional[int] = None,
) -> Any: ...
def parse_arrays(
    arrays: List[Any],
    base: Optional[str] = None,
    fields: Optional[List[str]] = None,
    jobs: Optional[int] = None,
    encoding: str = "utf-8",
    errors: str = "raise",
    chunk_rows: Optional[int] = None,
) -> Any: ...
def check_list(
    urls: List[Optional[str]],
    allow_hosts: Optional[List[str]] = None,
    fail_on: str = "danger",
    jobs: Optional[int] = None,
    errors: str = "raise",
    chunk_rows: Optional[int] = None,
    deny_internal: bool = False,
    resolve: bool = False,
    dns_server: Optional[str] = None,
    resolve_timeout: float = 2.0,
) -> Any: ...
def check_arrays(
    arrays: List[Any],
    allow_hosts: Optional[List[str]] = None,
    fail_on: str = "danger",
    jobs: Optional[int] = None,
    errors: str = "raise",
    chunk_rows: Optional[int] = None,
    deny_internal: bool = False,
    resolve: bool = False,
    dns_server: Optional[str] = None,
    resolve_timeout: float = 2.0,
) -> Any: ...
