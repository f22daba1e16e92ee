"""Typed sync and async client of the trading-card pricing API (v1 stable, v2 beta); standard library only."""

from ._core import RetryPolicy, __version__
from .aio import AsyncTcgClient
from .client import MAX_BATCH, TcgClient
from .errors import (
    RateLimited,
    TcgApiError,
    TcgBadRequestError,
    TcgConnectionError,
    TcgError,
    TcgForbiddenError,
    TcgNetworkError,
    TcgNotFoundError,
    TcgProtocolError,
    TcgRateLimitError,
    TcgServerError,
    TcgTimeoutError,
    TcgUnauthorizedError,
)
from .models import *  # noqa: F401,F403
from .models import __all__ as _models

__all__ = [
    "AsyncTcgClient",
    "MAX_BATCH",
    "RateLimited",
    "RetryPolicy",
    "TcgApiError",
    "TcgBadRequestError",
    "TcgClient",
    "TcgConnectionError",
    "TcgError",
    "TcgForbiddenError",
    "TcgNetworkError",
    "TcgNotFoundError",
    "TcgProtocolError",
    "TcgRateLimitError",
    "TcgServerError",
    "TcgTimeoutError",
    "TcgUnauthorizedError",
    "__version__",
    *_models,
]
