"""The errors a call can raise: one base class, so ``except TcgError`` catches them all."""

from __future__ import annotations

from typing import Any, Mapping, Optional


class TcgError(Exception):
    """Base class of every error this client raises."""


class TcgApiError(TcgError):
    """The API answered with a status other than 2xx.

    ``code`` is the stable code of the error body (v1 ``{error, code}``, v2 RFC 7807 problem),
    ``message`` its text (v1 ``error``, v2 ``detail``), ``body`` the decoded body (or the raw text
    when it was not JSON), ``retry_after`` the ``Retry-After`` header in seconds when one came.
    """

    def __init__(
        self,
        status: int,
        code: Optional[str],
        message: str,
        body: Any = None,
        *,
        headers: Optional[Mapping[str, str]] = None,
        retry_after: Optional[float] = None,
        method: str = "",
        url: str = "",
    ) -> None:
        super().__init__(f"{status} {code or 'HTTP_ERROR'}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.body = body
        self.headers: Mapping[str, str] = dict(headers or {})
        self.retry_after = retry_after
        self.method = method
        self.url = url

    @property
    def request_id(self) -> Optional[str]:
        """The gateway's ``x-request-id`` of the failed request, to quote in a support request."""
        return self.headers.get("x-request-id")


class TcgBadRequestError(TcgApiError):
    """400: a parameter or the body was refused; ``message`` names it and what is accepted."""


class TcgUnauthorizedError(TcgApiError):
    """401: no key, or a key that is not valid."""


class TcgForbiddenError(TcgApiError):
    """403: the plan does not allow it (for example a key's alert cap)."""


class TcgNotFoundError(TcgApiError):
    """404: no such card, alert, ... for this key."""


class RateLimited(TcgApiError):
    """429: a per-minute, daily or monthly limit (``code`` says which), or too many at once.

    ``retry_after`` is the number of seconds the server asked to wait (``Retry-After``), or None.
    A refused request costs nothing.
    """


#: The TypeScript client's name for the same error.
TcgRateLimitError = RateLimited


class TcgServerError(TcgApiError):
    """5xx: the service or the gateway failed (503 and 504 carry ``retry_after``)."""


def error_class(status: int) -> type:
    """The class of an error answer's status: one of the subclasses, else ``TcgApiError``."""
    by_status = {400: TcgBadRequestError, 401: TcgUnauthorizedError, 403: TcgForbiddenError, 404: TcgNotFoundError}
    if status in by_status:
        return by_status[status]
    if status == 429:
        return RateLimited
    return TcgServerError if 500 <= status < 600 else TcgApiError


class TcgTimeoutError(TcgError, TimeoutError):
    """No complete answer within the call's timeout (connect, send, headers and body together)."""


class TcgConnectionError(TcgError, ConnectionError):
    """The connection could not be made or broke before a complete answer came."""


#: The TypeScript client's name for the same error.
TcgNetworkError = TcgConnectionError


class TcgProtocolError(TcgError):
    """The answer could not be read: malformed HTTP, over a size cap, not JSON, or not the
    documented shape (a required field missing or of the wrong type)."""
