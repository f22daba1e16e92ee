"""The asynchronous client: ``async with AsyncTcgClient(url, key) as c: await c.v1.games.list()``.

Generated from ``client.py`` by ``tools/make_aio.py``: change that one, then run this.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import ssl
import urllib.parse
from typing import Any, Awaitable, Callable, AsyncIterator, Mapping, Optional, Sequence, Type, TypeVar, Union

from ._core import (
    Endpoint,
    QueryValue,
    Request,
    Response,
    Retry,
    RetryPolicy,
    api_error,
    check_api_key,
    log_retry,
    parse_rate_limit,
    path_segment,
    query,
)
from ._core import query as build_query
from ._model import Model
from ._async_transport import AsyncTransport
from .errors import TcgConnectionError, TcgError, TcgProtocolError
from .models import (
    AlertResponse,
    AlertsResponse,
    BatchItem,
    Card,
    CardIdsResponse,
    CardSet,
    CardsResponse,
    CardsV2Response,
    CardV2,
    CardV2Response,
    CreatedAlertResponse,
    DeliveryAttemptsResponse,
    Game,
    GamesResponse,
    IdLookupResponse,
    SetsResponse,
)

M = TypeVar("M", bound=Model)
StrList = Union[str, Sequence[str]]

#: Items of a batch lookup: at most 200 (and at most the plan's batch size) per call.
MAX_BATCH = 200


def _batch_body(items: Sequence[Union[BatchItem, Mapping[str, Any]]]) -> bytes:
    if isinstance(items, (str, bytes)) or not isinstance(items, Sequence):
        raise TypeError("items must be a sequence of BatchItem or mappings")
    if not 1 <= len(items) <= MAX_BATCH:
        raise ValueError(f"a batch holds 1 to {MAX_BATCH} items, got {len(items)}")
    wire = [i.to_wire() if isinstance(i, BatchItem) else dict(i) for i in items]
    return json.dumps(wire, separators=(",", ":")).encode()


class AsyncTcgClient:
    """Asynchronous client of the trading-card pricing API, on asyncio streams: the same surface
    as ``TcgClient``, every call awaited, ``pages`` and ``iterate`` async generators.

    ``timeout`` bounds each HTTP attempt (connect, send and the whole answer) in seconds.
    ``retries`` is how many times a 429 or 503 answer (or, for a GET, a failed connection) is tried
    again, with jittered exponential backoff from ``backoff_base`` up to ``backoff_max`` seconds
    that never comes back sooner than ``Retry-After``; ``max_retry_wait`` caps the seconds slept
    between the attempts of one call. A call may pass its own ``timeout=`` and ``retries=``.
    ``sleep`` is the function that waits (tests pass their own).
    Use it within one event loop, as an async context
    manager, or await ``aclose()`` to drop its kept-alive connections.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        timeout: float = 30.0,
        retries: int = 2,
        backoff_base: float = 0.5,
        backoff_max: float = 8.0,
        max_retry_wait: float = 30.0,
        gzip: bool = True,
        ssl_context: Optional[ssl.SSLContext] = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        random: Optional[Callable[[], float]] = None,
    ) -> None:
        if not timeout > 0:
            raise ValueError("timeout must be positive")
        self._endpoint = Endpoint.parse(base_url)
        self._base_url = base_url.rstrip("/")
        self._timeout = float(timeout)
        self._retry = RetryPolicy(retries, backoff_base, backoff_max, max_retry_wait)
        if random is not None:
            self._retry.random = random
        self._sleep = sleep
        self._transport = AsyncTransport(self._endpoint, check_api_key(api_key), gzip, ssl_context)
        self.v1 = V1(self)
        self.v2 = V2(self)

    async def __aenter__(self) -> "AsyncTcgClient":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._transport.aclose()

    async def request(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Mapping[str, QueryValue]] = None,
        body: Any = None,
        retry: Optional[Retry] = None,
        timeout: Optional[float] = None,
        retries: Optional[int] = None,
    ) -> Any:
        """Any route the typed methods do not cover yet, with the same key, deadline, retries and
        errors: ``path`` from the API's root (``/v2/cards/...``), ``query`` sent as the methods send
        theirs, ``body`` as JSON. ``retry`` defaults to ``idempotent`` for GET and ``refused``
        otherwise. Returns the decoded JSON answer (None when it has no body)."""
        if method not in ("GET", "POST", "DELETE"):
            raise ValueError("method must be GET, POST or DELETE")
        if not path.startswith("/") or "?" in path or "#" in path:
            raise ValueError("path must start with / and carry no query (pass query=)")
        # Characters a path may hold stay as they are (%-escapes included); the rest are escaped.
        path = urllib.parse.quote(path, safe="/%:@!$&'()*+,;=-._~")
        payload = None if body is None else json.dumps(body, separators=(",", ":")).encode()
        kind: Retry = retry or ("idempotent" if method == "GET" else "refused")
        req = Request(method, path, build_query(**(query or {})), payload, kind, timeout, retries)
        res = await self._send(req)
        return res.json() if res.body else None

    async def _send(self, req: Request) -> Response:
        """Sends ``req``, retrying as its kind allows; a non-2xx answer raises its ``TcgApiError``."""
        timeout = self._timeout if req.timeout is None else req.timeout
        if not timeout > 0:
            raise ValueError("timeout must be positive")
        if req.retries is not None and req.retries < 0:
            raise ValueError("retries must not be negative")
        waited = 0.0
        attempt = 0
        while True:
            error: TcgError
            try:
                res = await self._transport.send(req, timeout)
            except TcgConnectionError as e:
                error = e
            else:
                if 200 <= res.status < 300:
                    return res
                error = api_error(req, self._base_url + req.target(""), res)
            wait = self._retry.delay(req, attempt, error, waited)
            if wait is None:
                raise error
            log_retry(req, error, attempt, wait)
            await self._sleep(wait)
            waited += wait
            attempt += 1

    async def _model(self, cls: Type[M], req: Request) -> M:
        res = await self._send(req)
        model = cls.from_dict(res.json())
        if "rate_limit" in {f.name for f in dataclasses.fields(cls)}:
            rate_limit = parse_rate_limit(res.headers.get("ratelimit"))
            model = dataclasses.replace(model, rate_limit=rate_limit)  # type: ignore[call-arg]
        return model


class _Resource:
    def __init__(self, client: AsyncTcgClient) -> None:
        self._c = client


class V1:
    """The stable API: games, sets, cards (and batch lookups), price alerts."""

    def __init__(self, client: AsyncTcgClient) -> None:
        self.games = Games(client)
        self.sets = Sets(client)
        self.cards = Cards(client)
        self.alerts = Alerts(client)


class V2:
    """The beta API: cards with graded variants and per-region markets, cursor-paginated, and the id
    crosswalk."""

    def __init__(self, client: AsyncTcgClient) -> None:
        self.cards = CardsV2(client)
        self.ids = V2Ids(client)


class Games(_Resource):
    async def list(self, *, timeout: Optional[float] = None, retries: Optional[int] = None) -> GamesResponse:
        """``GET /v1/games``: every game with its counts and market index."""
        return await self._c._model(GamesResponse, Request("GET", "/v1/games", timeout=timeout, retries=retries))

    async def iterate(self, *, timeout: Optional[float] = None, retries: Optional[int] = None) -> AsyncIterator[Game]:
        """Every game, one at a time (one request: the list is not paged)."""
        page = await self.list(timeout=timeout, retries=retries)
        for game in page.data:
            yield game


class Sets(_Resource):
    async def list(
        self,
        game: str,
        *,
        q: Optional[str] = None,
        order_by: Optional[str] = None,
        order: Optional[str] = None,
        timeout: Optional[float] = None,
        retries: Optional[int] = None,
    ) -> SetsResponse:
        """``GET /v1/sets``: the sets of ``game`` (an id or its display name), all of them at once."""
        params = query(game=game, q=q, orderBy=order_by, order=order)
        req = Request("GET", "/v1/sets", params, timeout=timeout, retries=retries)
        return await self._c._model(SetsResponse, req)

    async def iterate(
        self,
        game: str,
        *,
        q: Optional[str] = None,
        order_by: Optional[str] = None,
        order: Optional[str] = None,
        timeout: Optional[float] = None,
        retries: Optional[int] = None,
    ) -> AsyncIterator[CardSet]:
        """Every set of ``game``, one at a time (one request: the list is not paged)."""
        page = await self.list(game, q=q, order_by=order_by, order=order, timeout=timeout, retries=retries)
        for card_set in page.data:
            yield card_set


class Cards(_Resource):
    async def list(
        self,
        *,
        q: Optional[str] = None,
        game: Optional[str] = None,
        set: Optional[str] = None,
        card_id: Optional[str] = None,
        variant_id: Optional[str] = None,
        vendor_id: Optional[str] = None,
        openset_id: Optional[str] = None,
        imagedb_id: Optional[str] = None,
        vendor_sku_id: Optional[str] = None,
        number: Optional[str] = None,
        printing: Optional[StrList] = None,
        language: Optional[StrList] = None,
        condition: Optional[StrList] = None,
        price_history_duration: Optional[str] = None,
        include_price_history: Optional[bool] = None,
        include_statistics: Optional[StrList] = None,
        include_null_prices: Optional[bool] = None,
        updated_after: Optional[int] = None,
        order_by: Optional[str] = None,
        order: Optional[str] = None,
        min_price: Optional[float] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        timeout: Optional[float] = None,
        retries: Optional[int] = None,
    ) -> CardsResponse:
        """``GET /v1/cards``: one page of a search, a browse or a lookup (identifiers win over ``q``)."""
        params = query(
            q=q,
            game=game,
            set=set,
            cardId=card_id,
            variantId=variant_id,
            vendorId=vendor_id,
            opensetId=openset_id,
            imagedbId=imagedb_id,
            vendorSkuId=vendor_sku_id,
            number=number,
            printing=printing,
            language=language,
            condition=condition,
            priceHistoryDuration=price_history_duration,
            include_price_history=include_price_history,
            include_statistics=include_statistics,
            include_null_prices=include_null_prices,
            updated_after=updated_after,
            orderBy=order_by,
            order=order,
            min_price=min_price,
            limit=limit,
            offset=offset,
        )
        req = Request("GET", "/v1/cards", params, timeout=timeout, retries=retries)
        return await self._c._model(CardsResponse, req)

    async def pages(
        self,
        *,
        q: Optional[str] = None,
        game: Optional[str] = None,
        set: Optional[str] = None,
        card_id: Optional[str] = None,
        variant_id: Optional[str] = None,
        vendor_id: Optional[str] = None,
        openset_id: Optional[str] = None,
        imagedb_id: Optional[str] = None,
        vendor_sku_id: Optional[str] = None,
        number: Optional[str] = None,
        printing: Optional[StrList] = None,
        language: Optional[StrList] = None,
        condition: Optional[StrList] = None,
        price_history_duration: Optional[str] = None,
        include_price_history: Optional[bool] = None,
        include_statistics: Optional[StrList] = None,
        include_null_prices: Optional[bool] = None,
        updated_after: Optional[int] = None,
        order_by: Optional[str] = None,
        order: Optional[str] = None,
        min_price: Optional[float] = None,
        limit: Optional[int] = None,
        offset: int = 0,
        timeout: Optional[float] = None,
        retries: Optional[int] = None,
    ) -> AsyncIterator[CardsResponse]:
        """The pages of ``list`` from ``offset`` on, ``limit`` cards each, while ``meta.has_more``.
        Each page is one request (metered); the API refuses offsets past 10,000 (a 400): narrow to
        a ``set``, or walk v2's cursors."""
        while True:
            page = await self.list(
                q=q,
                game=game,
                set=set,
                card_id=card_id,
                variant_id=variant_id,
                vendor_id=vendor_id,
                openset_id=openset_id,
                imagedb_id=imagedb_id,
                vendor_sku_id=vendor_sku_id,
                number=number,
                printing=printing,
                language=language,
                condition=condition,
                price_history_duration=price_history_duration,
                include_price_history=include_price_history,
                include_statistics=include_statistics,
                include_null_prices=include_null_prices,
                updated_after=updated_after,
                order_by=order_by,
                order=order,
                min_price=min_price,
                limit=limit,
                offset=offset,
                timeout=timeout,
                retries=retries,
            )
            yield page
            # The page's own length, not `limit`: the plan may have clamped it.
            if not page.meta.has_more or not page.data:
                return
            offset += len(page.data)

    async def iterate(
        self,
        *,
        q: Optional[str] = None,
        game: Optional[str] = None,
        set: Optional[str] = None,
        card_id: Optional[str] = None,
        variant_id: Optional[str] = None,
        vendor_id: Optional[str] = None,
        openset_id: Optional[str] = None,
        imagedb_id: Optional[str] = None,
        vendor_sku_id: Optional[str] = None,
        number: Optional[str] = None,
        printing: Optional[StrList] = None,
        language: Optional[StrList] = None,
        condition: Optional[StrList] = None,
        price_history_duration: Optional[str] = None,
        include_price_history: Optional[bool] = None,
        include_statistics: Optional[StrList] = None,
        include_null_prices: Optional[bool] = None,
        updated_after: Optional[int] = None,
        order_by: Optional[str] = None,
        order: Optional[str] = None,
        min_price: Optional[float] = None,
        limit: Optional[int] = None,
        offset: int = 0,
        timeout: Optional[float] = None,
        retries: Optional[int] = None,
    ) -> AsyncIterator[Card]:
        """Every card of every page (see ``pages``), one at a time."""
        async for page in self.pages(
            q=q,
            game=game,
            set=set,
            card_id=card_id,
            variant_id=variant_id,
            vendor_id=vendor_id,
            openset_id=openset_id,
            imagedb_id=imagedb_id,
            vendor_sku_id=vendor_sku_id,
            number=number,
            printing=printing,
            language=language,
            condition=condition,
            price_history_duration=price_history_duration,
            include_price_history=include_price_history,
            include_statistics=include_statistics,
            include_null_prices=include_null_prices,
            updated_after=updated_after,
            order_by=order_by,
            order=order,
            min_price=min_price,
            limit=limit,
            offset=offset,
            timeout=timeout,
            retries=retries,
        ):
            for card in page.data:
                yield card

    async def batch(
        self,
        items: Sequence[Union[BatchItem, Mapping[str, Any]]],
        *,
        price_history_duration: Optional[str] = None,
        include_price_history: Optional[bool] = None,
        include_statistics: Optional[StrList] = None,
        timeout: Optional[float] = None,
        retries: Optional[int] = None,
    ) -> CardsResponse:
        """``POST /v1/cards``: look up to 200 cards (fewer on smaller plans) in one request, each item
        with one identifier. Retried on 429 and 503 only, never after a broken connection."""
        params = query(
            priceHistoryDuration=price_history_duration,
            include_price_history=include_price_history,
            include_statistics=include_statistics,
        )
        body = _batch_body(items)
        req = Request("POST", "/v1/cards", params, body, retry="unanswered", timeout=timeout, retries=retries)
        return await self._c._model(CardsResponse, req)


class Alerts(_Resource):
    async def create(
        self,
        *,
        rule: str,
        value: float,
        url: str,
        card_id: Optional[str] = None,
        variant_id: Optional[str] = None,
        region: Optional[str] = None,
        timeout: Optional[float] = None,
        retries: Optional[int] = None,
    ) -> CreatedAlertResponse:
        """``POST /v1/alerts``: watch one card (``card_id``) or variant (``variant_id``); the answer's
        ``data.secret`` signs the webhooks and is shown only here. Retried on 429 only, which the
        gateway answers before anything is done (after a 503 a second alert could be made)."""
        body = {
            "card_id": card_id,
            "variant_id": variant_id,
            "region": region,
            "rule": rule,
            "value": value,
            "url": url,
        }
        payload = json.dumps({k: v for k, v in body.items() if v is not None}).encode()
        req = Request("POST", "/v1/alerts", body=payload, retry="refused", timeout=timeout, retries=retries)
        return await self._c._model(CreatedAlertResponse, req)

    async def list(self, *, timeout: Optional[float] = None, retries: Optional[int] = None) -> AlertsResponse:
        """``GET /v1/alerts``: this key's alerts, oldest first."""
        return await self._c._model(AlertsResponse, Request("GET", "/v1/alerts", timeout=timeout, retries=retries))

    async def get(self, id: str, *, timeout: Optional[float] = None, retries: Optional[int] = None) -> AlertResponse:
        """``GET /v1/alerts/{id}``: 404 (``TcgApiError``) for another key's alert or none."""
        req = Request("GET", f"/v1/alerts/{path_segment(id)}", timeout=timeout, retries=retries)
        return await self._c._model(AlertResponse, req)

    async def delete(self, id: str, *, timeout: Optional[float] = None, retries: Optional[int] = None) -> None:
        """``DELETE /v1/alerts/{id}``: nothing more is sent for it. Retried on 429 only."""
        req = Request("DELETE", f"/v1/alerts/{path_segment(id)}", retry="refused", timeout=timeout, retries=retries)
        await self._c._send(req)

    async def deliveries(
        self, id: str, *, timeout: Optional[float] = None, retries: Optional[int] = None
    ) -> DeliveryAttemptsResponse:
        """``GET /v1/alerts/{id}/deliveries``: its last 50 webhook attempts, latest first."""
        req = Request("GET", f"/v1/alerts/{path_segment(id)}/deliveries", timeout=timeout, retries=retries)
        return await self._c._model(DeliveryAttemptsResponse, req)


class CardsV2(_Resource):
    async def list(
        self,
        *,
        card_id: Optional[str] = None,
        variant_id: Optional[str] = None,
        vendor_id: Optional[str] = None,
        vendor_sku: Optional[str] = None,
        regions: Optional[StrList] = None,
        graded: Optional[str] = None,
        grading_company: Optional[str] = None,
        grade: Optional[StrList] = None,
        include: Optional[StrList] = None,
        cursor: Optional[str] = None,
        limit: Optional[int] = None,
        q: Optional[str] = None,
        game: Optional[str] = None,
        set: Optional[str] = None,
        number: Optional[str] = None,
        language: Optional[StrList] = None,
        min_price: Optional[float] = None,
        order_by: Optional[str] = None,
        currency: Optional[str] = None,
        timeout: Optional[float] = None,
        retries: Optional[int] = None,
    ) -> CardsV2Response:
        """``GET /v2/cards``: one page; ``meta.cursor.next`` is the next page's ``cursor``.
        ``include=[]`` asks for prices only."""
        params = query(
            card_id=card_id,
            variant_id=variant_id,
            vendor_id=vendor_id,
            vendor_sku=vendor_sku,
            regions=regions,
            graded=graded,
            grading_company=grading_company,
            grade=grade,
            include=include,
            cursor=cursor,
            limit=limit,
            q=q,
            game=game,
            set=set,
            number=number,
            language=language,
            min_price=min_price,
            order_by=order_by,
            currency=currency,
        )
        req = Request("GET", "/v2/cards", params, timeout=timeout, retries=retries)
        return await self._c._model(CardsV2Response, req)

    async def pages(
        self,
        *,
        card_id: Optional[str] = None,
        variant_id: Optional[str] = None,
        vendor_id: Optional[str] = None,
        vendor_sku: Optional[str] = None,
        regions: Optional[StrList] = None,
        graded: Optional[str] = None,
        grading_company: Optional[str] = None,
        grade: Optional[StrList] = None,
        include: Optional[StrList] = None,
        cursor: Optional[str] = None,
        limit: Optional[int] = None,
        q: Optional[str] = None,
        game: Optional[str] = None,
        set: Optional[str] = None,
        number: Optional[str] = None,
        language: Optional[StrList] = None,
        min_price: Optional[float] = None,
        order_by: Optional[str] = None,
        currency: Optional[str] = None,
        timeout: Optional[float] = None,
        retries: Optional[int] = None,
    ) -> AsyncIterator[CardsV2Response]:
        """Every page from ``cursor`` (default the first) on, following ``meta.cursor.next`` while
        ``meta.has_more``."""
        while True:
            page = await self.list(
                card_id=card_id,
                variant_id=variant_id,
                vendor_id=vendor_id,
                vendor_sku=vendor_sku,
                regions=regions,
                graded=graded,
                grading_company=grading_company,
                grade=grade,
                include=include,
                cursor=cursor,
                limit=limit,
                q=q,
                game=game,
                set=set,
                number=number,
                language=language,
                min_price=min_price,
                order_by=order_by,
                currency=currency,
                timeout=timeout,
                retries=retries,
            )
            yield page
            following = page.meta.cursor.next
            if not page.meta.has_more or not following:
                return
            # A cursor that does not move would walk the same page for ever.
            if following == cursor:
                raise TcgProtocolError("GET /v2/cards answered the cursor it was given as the next one")
            cursor = following

    async def iterate(
        self,
        *,
        card_id: Optional[str] = None,
        variant_id: Optional[str] = None,
        vendor_id: Optional[str] = None,
        vendor_sku: Optional[str] = None,
        regions: Optional[StrList] = None,
        graded: Optional[str] = None,
        grading_company: Optional[str] = None,
        grade: Optional[StrList] = None,
        include: Optional[StrList] = None,
        cursor: Optional[str] = None,
        limit: Optional[int] = None,
        q: Optional[str] = None,
        game: Optional[str] = None,
        set: Optional[str] = None,
        number: Optional[str] = None,
        language: Optional[StrList] = None,
        min_price: Optional[float] = None,
        order_by: Optional[str] = None,
        currency: Optional[str] = None,
        timeout: Optional[float] = None,
        retries: Optional[int] = None,
    ) -> AsyncIterator[CardV2]:
        """Every card of every page (see ``pages``), one at a time."""
        async for page in self.pages(
            card_id=card_id,
            variant_id=variant_id,
            vendor_id=vendor_id,
            vendor_sku=vendor_sku,
            regions=regions,
            graded=graded,
            grading_company=grading_company,
            grade=grade,
            include=include,
            cursor=cursor,
            limit=limit,
            q=q,
            game=game,
            set=set,
            number=number,
            language=language,
            min_price=min_price,
            order_by=order_by,
            currency=currency,
            timeout=timeout,
            retries=retries,
        ):
            for card in page.data:
                yield card

    async def get(
        self,
        id: str,
        *,
        regions: Optional[StrList] = None,
        graded: Optional[str] = None,
        grading_company: Optional[str] = None,
        grade: Optional[StrList] = None,
        include: Optional[StrList] = None,
        language: Optional[StrList] = None,
        currency: Optional[str] = None,
        timeout: Optional[float] = None,
        retries: Optional[int] = None,
    ) -> CardV2Response:
        """``GET /v2/cards/{id}`` (UUID or legacy slug); an unknown card raises a 404 ``TcgApiError``."""
        params = query(
            regions=regions,
            graded=graded,
            grading_company=grading_company,
            grade=grade,
            include=include,
            language=language,
            currency=currency,
        )
        req = Request("GET", f"/v2/cards/{path_segment(id)}", params, timeout=timeout, retries=retries)
        return await self._c._model(CardV2Response, req)

    async def ids(
        self, id: str, *, timeout: Optional[float] = None, retries: Optional[int] = None
    ) -> CardIdsResponse:
        """``GET /v2/cards/{id}/ids``: every marketplace id the feeds assert for the card and its
        variants, with the feed and days, and where feeds disagree."""
        req = Request("GET", f"/v2/cards/{path_segment(id)}/ids", timeout=timeout, retries=retries)
        return await self._c._model(CardIdsResponse, req)


class V2Ids(_Resource):
    async def lookup(
        self, kind: str, value: str, *, timeout: Optional[float] = None, retries: Optional[int] = None
    ) -> IdLookupResponse:
        """``GET /v2/ids/{kind}/{value}``: the cards and variants a marketplace id belongs to, by feed
        (``kind``: ``tcgplayer_product``, ``tcgplayer_sku``, ``cardmarket_product``, ``scryfall_id``,
        ``mtgjson_uuid``, ...)."""
        path = f"/v2/ids/{path_segment(kind)}/{path_segment(value)}"
        req = Request("GET", path, timeout=timeout, retries=retries)
        return await self._c._model(IdLookupResponse, req)
