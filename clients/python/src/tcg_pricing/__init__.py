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
from . import models as _models
from .models import *  # noqa: F403 - the names of models.__all__, listed once there

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
]
__all__ += _models.__all__
