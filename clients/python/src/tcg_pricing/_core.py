"""What the sync and async clients share: requests, the retry policy, reading answers, errors."""

from __future__ import annotations

import email.utils
import json
import logging
import random
import re
import time
import urllib.parse
import zlib
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Literal, Mapping, Optional, Sequence, Tuple, Union

from .errors import TcgApiError, TcgConnectionError, TcgError, TcgProtocolError, error_class
from .models import RateLimit

__version__ = "0.1.0"

log = logging.getLogger("tcg_pricing")

USER_AGENT = f"tcg-pricing-python/{__version__}"

#: Caps on what is read of an answer: a misbehaving server or a man in the middle cannot make the
#: client buffer without bound. A v1 page of 200 cards with a year of history each is about 6 MB.
MAX_BODY_BYTES = 32 * 1024 * 1024
MAX_HEADER_LINE = 8 * 1024
MAX_HEADERS = 100
MAX_HEADER_BYTES = 64 * 1024

RETRY_STATUSES = frozenset({429, 503})

QueryValue = Union[str, int, float, bool, Sequence[str], None]

#: When a failed attempt may be sent again:
#: - ``idempotent`` (every GET): on 429 and 503, and when the connection failed (no answer came);
#: - ``unanswered`` (the batch lookup, a POST that reads): on 429 and 503 only, the answers that say
#:   nothing was done; never after a broken connection or a timeout, when it may still be under way;
#: - ``refused`` (writes: creating or deleting an alert): on 429 only, which the gateway decides
#:   before anything is done or charged.
#: The same three as the TypeScript client's.
Retry = Literal["idempotent", "unanswered", "refused"]


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    query: Tuple[Tuple[str, str], ...] = ()
    body: Optional[bytes] = None
    retry: Retry = "idempotent"
    timeout: Optional[float] = None
    #: Retries of this call, in place of the client's.
    retries: Optional[int] = None

    @property
    def idempotent(self) -> bool:
        """Whether it may go on a kept-alive connection, which the server may have closed while idle
        (the request is then sent again on a new one)."""
        return self.retry == "idempotent"

    def target(self, prefix: str) -> str:
        q = urllib.parse.urlencode(self.query, quote_via=urllib.parse.quote)
        return prefix + self.path + (f"?{q}" if q else "")


@dataclass
class Response:
    status: int
    headers: Dict[str, str]
    body: bytes

    def json(self) -> Any:
        try:
            return json.loads(self.body)
        except (ValueError, UnicodeDecodeError) as e:
            raise TcgProtocolError(f"the answer (HTTP {self.status}) is not JSON: {e}") from None


def query(**params: QueryValue) -> Tuple[Tuple[str, str], ...]:
    """Query pairs from keyword arguments: None left out, lists comma-joined, booleans lower-case."""
    out: List[Tuple[str, str]] = []
    for key, value in params.items():
        if value is None:
            continue
        if isinstance(value, bool):
            out.append((key, "true" if value else "false"))
        elif isinstance(value, (int, float, str)):
            out.append((key, str(value)))
        else:
            out.append((key, ",".join(str(v) for v in value)))
    return tuple(out)


def path_segment(value: str) -> str:
    if not isinstance(value, str) or not value:
        raise ValueError("an id must be a non-empty string")
    return urllib.parse.quote(value, safe="")


@dataclass(frozen=True)
class Endpoint:
    """The parsed base URL: where to connect and the path prefix to put before ``/v1/...``."""

    scheme: str
    host: str
    port: int
    prefix: str

    @property
    def host_header(self) -> str:
        default = 443 if self.scheme == "https" else 80
        host = f"[{self.host}]" if ":" in self.host else self.host
        return host if self.port == default else f"{host}:{self.port}"

    @classmethod
    def parse(cls, base_url: str) -> "Endpoint":
        u = urllib.parse.urlsplit(base_url)
        if u.scheme not in ("http", "https") or not u.hostname:
            raise ValueError(f"base_url must be an http:// or https:// URL, got {base_url!r}")
        if u.query or u.fragment or u.username or u.password:
            raise ValueError("base_url must not carry a query, a fragment or credentials")
        port = u.port or (443 if u.scheme == "https" else 80)
        return cls(u.scheme, u.hostname, port, u.path.rstrip("/"))


_HEADER_VALUE = re.compile(r"^[\x21-\x7e]+$")


def check_api_key(api_key: str) -> str:
    if not isinstance(api_key, str) or not _HEADER_VALUE.match(api_key) or len(api_key) > 512:
        raise ValueError("api_key must be a non-empty string of visible ASCII characters")
    return api_key


def request_headers(endpoint: Endpoint, api_key: str, req: Request, gzip: bool) -> Dict[str, str]:
    headers = {
        "host": endpoint.host_header,
        "x-api-key": api_key,
        "accept": "application/json",
        "user-agent": USER_AGENT,
    }
    headers["accept-encoding"] = "gzip" if gzip else "identity"
    if req.body is not None:
        headers["content-type"] = "application/json"
        headers["content-length"] = str(len(req.body))
    elif req.method in ("POST", "PUT", "PATCH"):
        headers["content-length"] = "0"
    return headers


def decode_content(headers: Mapping[str, str], body: bytes) -> bytes:
    """Undo a gzip content coding, reading at most MAX_BODY_BYTES of what it expands to."""
    coding = headers.get("content-encoding", "identity").strip().lower()
    if coding in ("", "identity"):
        return body
    if coding not in ("gzip", "x-gzip"):
        raise TcgProtocolError(f"unsupported content-encoding {coding!r}")
    d = zlib.decompressobj(wbits=31)
    try:
        out = d.decompress(body, MAX_BODY_BYTES + 1)
    except zlib.error as e:
        raise TcgProtocolError(f"bad gzip body: {e}") from None
    if len(out) > MAX_BODY_BYTES or d.unconsumed_tail:
        raise TcgProtocolError(f"the answer expands to more than {MAX_BODY_BYTES} bytes")
    return out


def parse_retry_after(value: Optional[str], now: Optional[float] = None) -> Optional[float]:
    """``Retry-After`` in seconds: delta-seconds or an HTTP date; None when absent or unreadable."""
    if value is None:
        return None
    value = value.strip()
    if value.isdigit() and len(value) <= 10:
        return float(int(value))
    if len(value) > 64:
        return None
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None or when.tzinfo is None:
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


_RATE_LIMIT = re.compile(r"^\s*limit=(\d{1,12})\s*,\s*remaining=(\d{1,12})\s*,\s*reset=(\d{1,12})\s*$")


def parse_rate_limit(value: Optional[str]) -> Optional[RateLimit]:
    if not value or len(value) > 200:
        return None
    m = _RATE_LIMIT.match(value)
    return RateLimit(int(m.group(1)), int(m.group(2)), int(m.group(3))) if m else None


def api_error(req: Request, url: str, res: Response) -> TcgApiError:
    """The typed error of a non-2xx answer, from v1's ``{error, code}`` or v2's problem body."""
    body: Any
    try:
        body = json.loads(res.body) if res.body else None
    except (ValueError, UnicodeDecodeError):
        body = res.body[:2048].decode("utf-8", "replace")
    code: Optional[str] = None
    message = f"HTTP {res.status}"
    if isinstance(body, dict):
        c = body.get("code")
        code = c if isinstance(c, str) else None
        for key in ("error", "detail", "title", "message"):
            text = body.get(key)
            if isinstance(text, str) and text:
                message = text
                break
    elif isinstance(body, str) and body.strip():
        message = f"HTTP {res.status}: {body.strip()[:200]}"
    retry_after = parse_retry_after(res.headers.get("retry-after"))
    cls = error_class(res.status)
    return cls(
        res.status,
        code,
        message,
        body,
        headers=res.headers,
        retry_after=retry_after,
        method=req.method,
        url=url,
    )


@dataclass
class RetryPolicy:
    """Retries of 429 and 503 answers (and, for GETs, of failed connections) with jittered
    exponential backoff, as the request's ``retry`` kind allows.

    Attempt ``n`` (from 0) waits ``d/2 + U(0, d/2)`` with ``d = min(backoff_max, backoff_base * 2**n)``
    (half of each wait random, so clients refused together do not come back together), and never
    less than the answer's ``Retry-After`` (plus up to ``backoff_base`` of spread above it). Once
    the waits would add up to more than ``max_wait`` seconds, the error is raised instead, with its
    ``retry_after``: a daily or monthly limit's ``Retry-After`` of hours is not slept through.
    """

    retries: int = 2
    backoff_base: float = 0.5
    backoff_max: float = 8.0
    max_wait: float = 30.0
    random: Callable[[], float] = field(default=random.random)

    def __post_init__(self) -> None:
        if self.retries < 0 or self.backoff_base < 0 or self.backoff_max < 0 or self.max_wait < 0:
            raise ValueError("retries, backoff_base, backoff_max and max_wait must not be negative")

    @staticmethod
    def retryable(req: Request, error: TcgError) -> bool:
        if isinstance(error, TcgApiError):
            return error.status == 429 or (error.status == 503 and req.retry != "refused")
        return isinstance(error, TcgConnectionError) and req.retry == "idempotent"

    def delay(self, req: Request, attempt: int, error: TcgError, waited: float) -> Optional[float]:
        """Seconds to wait before attempt ``attempt + 1``, or None to give up and raise ``error``."""
        limit = self.retries if req.retries is None else req.retries
        if attempt >= limit or not self.retryable(req, error):
            return None
        d = min(self.backoff_max, self.backoff_base * (2**attempt))
        wait = d / 2 + self.random() * d / 2
        retry_after = error.retry_after if isinstance(error, TcgApiError) else None
        if retry_after is not None:
            wait = max(wait, retry_after + self.random() * self.backoff_base)
        if waited + wait > self.max_wait:
            return None
        return wait


def log_retry(req: Request, error: TcgError, attempt: int, wait: float) -> None:
    log.info(
        "retrying",
        extra={
            "tcg_method": req.method,
            "tcg_path": req.path,
            "tcg_status": getattr(error, "status", None),
            "tcg_code": getattr(error, "code", None),
            "tcg_attempt": attempt + 1,
            "tcg_wait_s": round(wait, 3),
        },
    )
