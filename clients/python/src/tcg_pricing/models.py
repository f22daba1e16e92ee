"""Typed models of the API's answers (``docs/spec/interface.md``, ``docs/openapi/api-v1.json``,
``api-v2.json``).

Attributes are snake_case; where the JSON key differs (v1's camelCase) the field says so. Every
model keeps the object it was read from in ``raw``, so a field the API adds later is readable
before this client knows it. A field typed ``X | None`` may be null or absent (v2 omits what was
not requested); the others must be there.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Dict, List, Optional

from ._model import Model, wire

__all__ = [
    "Alert",
    "AlertResponse",
    "AlertsResponse",
    "BatchItem",
    "Card",
    "CardExternalIds",
    "CardIds",
    "CardIdsResponse",
    "CardSet",
    "CardV2",
    "CardV2Response",
    "CardsResponse",
    "CardsV2Response",
    "Conversion",
    "ConvertedPeriodStats",
    "ConvertedPricePoint",
    "CreatedAlert",
    "CreatedAlertResponse",
    "Cursors",
    "DeliveryAttempt",
    "DeliveryAttemptsResponse",
    "Game",
    "GameRef",
    "GamesResponse",
    "Grading",
    "IdAssertion",
    "IdConflict",
    "IdConflictAssertion",
    "IdHolder",
    "IdLookup",
    "IdLookupResponse",
    "IdSaying",
    "Market",
    "PaginationMeta",
    "PaginationMetaV2",
    "PeriodStats",
    "PricePoint",
    "RateLimit",
    "SetRef",
    "SetsResponse",
    "UsageMetadata",
    "Variant",
    "VariantExternalIds",
    "VariantIds",
    "VariantV2",
]

_model = dataclasses.dataclass(frozen=True, kw_only=True)


# ---------------------------------------------------------------- v1


@_model
class UsageMetadata(Model):
    """v1 ``_metadata``: the key's plan and usage after this request (monthly, daily, per minute)."""

    api_plan: str = wire("apiPlan")
    api_request_limit: int = wire("apiRequestLimit")
    api_requests_used: int = wire("apiRequestsUsed")
    api_requests_remaining: int = wire("apiRequestsRemaining")
    api_daily_limit: int = wire("apiDailyLimit")
    api_daily_requests_used: int = wire("apiDailyRequestsUsed")
    api_daily_requests_remaining: Optional[int] = wire("apiDailyRequestsRemaining", default=None)
    api_rate_limit: int = wire("apiRateLimit")


@_model
class PaginationMeta(Model):
    """v1 offset paging: ``offset + len(data)`` is the next page's offset while ``has_more``."""

    total: int
    limit: int
    offset: int
    has_more: bool = wire("hasMore")


@_model
class Game(Model):
    id: str
    name: str
    cards_count: int
    variants_count: int
    sealed_count: int
    sets_count: int
    last_updated: Optional[int] = None
    game_value_index_cents: int
    game_value_change_7d_pct: Optional[float] = None
    price_sources: Optional[List[str]] = None


@_model
class CardSet(Model):
    """A v1 set (``Set`` would shadow the builtin)."""

    id: str
    name: str
    game_id: str
    game: str
    release_date: Optional[str] = None
    cards_count: int
    set_value_usd: float


@_model
class PricePoint(Model):
    """One observation: ``t`` Unix seconds, ``p`` the price (USD in v1, the market's currency in v2)."""

    t: int
    p: float


@_model
class Variant(Model):
    """A v1 variant: one condition and printing of a card, with its NA price and statistics."""

    id: str
    uuid: str
    condition: str
    printing: str
    language: str
    vendor_sku_id: Optional[str] = wire("vendorSkuId", default=None)
    price: Optional[float] = None
    last_updated: Optional[int] = wire("lastUpdated", default=None)
    price_change_24hr: Optional[float] = wire("priceChange24hr", default=None)
    price_change_7d: Optional[float] = wire("priceChange7d", default=None)
    avg_price: Optional[float] = wire("avgPrice", default=None)
    min_price_7d: Optional[float] = wire("minPrice7d", default=None)
    max_price_7d: Optional[float] = wire("maxPrice7d", default=None)
    stddev_pop_price_7d: Optional[float] = wire("stddevPopPrice7d", default=None)
    cov_price_7d: Optional[float] = wire("covPrice7d", default=None)
    iqr_price_7d: Optional[float] = wire("iqrPrice7d", default=None)
    trend_slope_7d: Optional[float] = wire("trendSlope7d", default=None)
    price_changes_count_7d: Optional[int] = wire("priceChangesCount7d", default=None)
    price_change_30d: Optional[float] = wire("priceChange30d", default=None)
    avg_price_30d: Optional[float] = wire("avgPrice30d", default=None)
    min_price_30d: Optional[float] = wire("minPrice30d", default=None)
    max_price_30d: Optional[float] = wire("maxPrice30d", default=None)
    stddev_pop_price_30d: Optional[float] = wire("stddevPopPrice30d", default=None)
    cov_price_30d: Optional[float] = wire("covPrice30d", default=None)
    iqr_price_30d: Optional[float] = wire("iqrPrice30d", default=None)
    trend_slope_30d: Optional[float] = wire("trendSlope30d", default=None)
    price_changes_count_30d: Optional[int] = wire("priceChangesCount30d", default=None)
    price_relative_to_30d_range: Optional[float] = wire("priceRelativeTo30dRange", default=None)
    price_change_90d: Optional[float] = wire("priceChange90d", default=None)
    avg_price_90d: Optional[float] = wire("avgPrice90d", default=None)
    min_price_90d: Optional[float] = wire("minPrice90d", default=None)
    max_price_90d: Optional[float] = wire("maxPrice90d", default=None)
    stddev_pop_price_90d: Optional[float] = wire("stddevPopPrice90d", default=None)
    cov_price_90d: Optional[float] = wire("covPrice90d", default=None)
    iqr_price_90d: Optional[float] = wire("iqrPrice90d", default=None)
    trend_slope_90d: Optional[float] = wire("trendSlope90d", default=None)
    price_changes_count_90d: Optional[int] = wire("priceChangesCount90d", default=None)
    price_relative_to_90d_range: Optional[float] = wire("priceRelativeTo90dRange", default=None)
    min_price_1y: Optional[float] = wire("minPrice1y", default=None)
    max_price_1y: Optional[float] = wire("maxPrice1y", default=None)
    min_price_all_time: Optional[float] = wire("minPriceAllTime", default=None)
    min_price_all_time_date: Optional[str] = wire("minPriceAllTimeDate", default=None)
    max_price_all_time: Optional[float] = wire("maxPriceAllTime", default=None)
    max_price_all_time_date: Optional[str] = wire("maxPriceAllTimeDate", default=None)
    price_history: Optional[List[PricePoint]] = wire("priceHistory", default=None)
    price_history_30d: Optional[List[PricePoint]] = wire("priceHistory30d", default=None)


@_model
class Card(Model):
    """A v1 card; its prices are in ``variants``."""

    id: str
    uuid: str
    name: str
    game: str
    set: str
    set_name: str
    number: Optional[str] = None
    vendor_id: Optional[str] = wire("vendorId", default=None)
    openset_id: Optional[str] = wire("opensetId", default=None)
    imagedb_id: Optional[str] = wire("imagedbId", default=None)
    rarity: Optional[str] = None
    details: Optional[str] = None
    variants: List[Variant]


@_model
class GamesResponse(Model):
    data: List[Game]
    metadata: UsageMetadata = wire("_metadata")


@_model
class SetsResponse(Model):
    data: List[CardSet]
    meta: PaginationMeta
    metadata: UsageMetadata = wire("_metadata")


@_model
class CardsResponse(Model):
    """One page of v1 cards (``GET /v1/cards``) or a batch lookup's answer (``POST /v1/cards``)."""

    data: List[Card]
    meta: PaginationMeta
    metadata: UsageMetadata = wire("_metadata")


@dataclasses.dataclass(frozen=True, kw_only=True)
class BatchItem:
    """One item of a batch lookup: exactly one identifier, optionally narrowed.

    Plain mappings with the API's own keys (``{"cardId": ...}``) are accepted as well.
    """

    card_id: Optional[str] = None
    variant_id: Optional[str] = None
    vendor_id: Optional[str] = None
    openset_id: Optional[str] = None
    imagedb_id: Optional[str] = None
    vendor_sku_id: Optional[str] = None
    printing: Optional[str] = None
    condition: Optional[str] = None
    updated_after: Optional[int] = None

    def to_wire(self) -> Dict[str, Any]:
        keys = {
            "card_id": "cardId",
            "variant_id": "variantId",
            "vendor_id": "vendorId",
            "openset_id": "opensetId",
            "imagedb_id": "imagedbId",
            "vendor_sku_id": "vendorSkuId",
            "printing": "printing",
            "condition": "condition",
            "updated_after": "updated_after",
        }
        return {keys[k]: v for k, v in dataclasses.asdict(self).items() if v is not None}


@_model
class Alert(Model):
    """A price alert (``/v1/alerts``): ``holds`` is the rule's state at the last evaluation."""

    id: str
    card_id: str
    card_name: str
    variant_id: Optional[str] = None
    region: str
    currency: str
    rule: str
    value: float
    url: str
    status: str
    holds: bool
    created_at: str
    last_fired_at: Optional[str] = None
    disabled_at: Optional[str] = None
    disabled_reason: Optional[str] = None


@_model
class CreatedAlert(Alert):
    """The alert as created: with its webhook signing ``secret``, shown only this once."""

    secret: str


@_model
class AlertResponse(Model):
    data: Alert
    metadata: UsageMetadata = wire("_metadata")


@_model
class CreatedAlertResponse(Model):
    data: CreatedAlert
    metadata: UsageMetadata = wire("_metadata")


@_model
class AlertsResponse(Model):
    data: List[Alert]
    metadata: UsageMetadata = wire("_metadata")


@_model
class DeliveryAttempt(Model):
    event_id: str
    attempt: int
    at: str
    status: Optional[int] = None
    duration_ms: int
    error: Optional[str] = None


@_model
class DeliveryAttemptsResponse(Model):
    data: List[DeliveryAttempt]
    metadata: UsageMetadata = wire("_metadata")


# ---------------------------------------------------------------- v2


@_model
class GameRef(Model):
    id: str
    name: str


@_model
class SetRef(Model):
    id: str
    name: Optional[str] = None


@_model
class CardExternalIds(Model):
    vendor: Optional[str] = None
    imagedb: Optional[str] = None
    openset: Optional[str] = None


@_model
class VariantExternalIds(Model):
    vendor_sku: Optional[str] = None


@_model
class Grading(Model):
    company: str
    grade: Optional[float] = None
    grade_label: Optional[str] = None
    qualifier: Optional[str] = None
    canonical: str


@_model
class PeriodStats(Model):
    """Statistics of one window; each window carries only some of them (see the spec)."""

    change_pct: Optional[float] = None
    avg: Optional[float] = None
    min: Optional[float] = None
    max: Optional[float] = None
    stddev: Optional[float] = None
    cov: Optional[float] = None
    iqr: Optional[float] = None
    trend_slope: Optional[float] = None
    changes_count: Optional[float] = None
    range_position: Optional[float] = None
    min_date: Optional[str] = None
    max_date: Optional[str] = None


@_model
class ConvertedPeriodStats(Model):
    """A window's money statistics in the asked currency, at the rate of the market's observation day."""

    avg: Optional[float] = None
    min: Optional[float] = None
    max: Optional[float] = None
    stddev: Optional[float] = None
    iqr: Optional[float] = None
    trend_slope: Optional[float] = None


@_model
class ConvertedPricePoint(Model):
    """A ``price_history`` point in the asked currency, with the rate of its own day (``p`` None
    when that day has no rate: ``reason``)."""

    t: int
    p: Optional[float] = None
    rate: Optional[float] = None
    rate_date: Optional[str] = None
    reason: Optional[str] = None


@_model
class Conversion(Model):
    """A market's price in the ``currency=`` asked for: the rate, its date and its source beside the
    native price; ``price`` None with a ``reason`` when there is no price or no rate."""

    currency: str
    price: Optional[float] = None
    rate: Optional[float] = None
    rate_date: Optional[str] = None
    source: Optional[str] = None
    reason: Optional[str] = None
    periods: Optional[Dict[str, ConvertedPeriodStats]] = None
    price_history: Optional[List[ConvertedPricePoint]] = None


@_model
class Market(Model):
    """One region's prices of a v2 variant. ``price`` is None where the region has no data;
    ``periods`` (keys ``7d``, ``30d``, ``90d``, ``1y``, ``all_time``) and ``price_history`` are None
    when not requested through ``include``; ``conversion`` is there only with ``currency=``."""

    region: str
    currency: str
    price: Optional[float] = None
    updated_at: Optional[int] = None
    change_24h_pct: Optional[float] = None
    source: Optional[str] = None
    periods: Optional[Dict[str, PeriodStats]] = None
    price_history: Optional[List[PricePoint]] = None
    conversion: Optional[Conversion] = None


@_model
class VariantV2(Model):
    """A raw (``condition`` set, ``grading`` None) or graded variant, priced per requested region."""

    id: str
    slug: str
    type: str
    condition: Optional[str] = None
    printing: Optional[str] = None
    language: Optional[str] = None
    external_ids: VariantExternalIds
    grading: Optional[Grading] = None
    markets: List[Market]


@_model
class CardV2(Model):
    id: str
    slug: str
    name: str
    game: GameRef
    set: SetRef
    number: Optional[str] = None
    rarity: Optional[str] = None
    external_ids: CardExternalIds
    details: Optional[str] = None
    variants: List[VariantV2]


@_model
class Cursors(Model):
    next: Optional[str] = None
    prev: Optional[str] = None


@_model
class PaginationMetaV2(Model):
    """v2 cursor paging; ``total`` None means not counted in time, not zero."""

    count: int
    total: Optional[int] = None
    limit: int
    has_more: bool
    cursor: Cursors


@dataclasses.dataclass(frozen=True)
class RateLimit:
    """v2's ``RateLimit`` header: the window closest to exhaustion."""

    limit: int
    remaining: int
    reset: int


@_model
class CardsV2Response(Model):
    data: List[CardV2]
    meta: PaginationMetaV2
    rate_limit: Optional[RateLimit] = dataclasses.field(default=None, metadata={"header": True})


@_model
class CardV2Response(Model):
    data: CardV2
    rate_limit: Optional[RateLimit] = dataclasses.field(default=None, metadata={"header": True})


# ---------------------------------------------------------------- v2 id crosswalk


@_model
class IdAssertion(Model):
    """One marketplace or provider id (``kind``: ``tcgplayer_product``, ``tcgplayer_sku``,
    ``cardmarket_product``, ``scryfall_id``, ``mtgjson_uuid``, ...) and the feed and days that said it
    (``feed`` None: back-filled from the catalogue)."""

    kind: str
    value: str
    feed: Optional[str] = None
    first_seen: Optional[str] = None
    last_seen: Optional[str] = None


@_model
class VariantIds(Model):
    id: str
    slug: str
    ids: List[IdAssertion]


@_model
class IdConflictAssertion(Model):
    card_id: str
    card_slug: str
    variant_id: Optional[str] = None
    variant_slug: Optional[str] = None
    value: str
    feed: str
    last_seen: Optional[str] = None


@_model
class IdConflict(Model):
    """Feeds that disagree: ``values_differ`` (one card, two values of a kind) or ``value_shared``
    (one value given to more than one card or variant); ``detail`` says it in words."""

    reason: str
    kind: str
    detail: str
    assertions: List[IdConflictAssertion]


@_model
class CardIds(Model):
    id: str
    slug: str
    ids: List[IdAssertion]
    variants: List[VariantIds]
    conflicts: List[IdConflict]


@_model
class CardIdsResponse(Model):
    data: CardIds


@_model
class IdSaying(Model):
    feed: Optional[str] = None
    first_seen: Optional[str] = None
    last_seen: Optional[str] = None


@_model
class IdHolder(Model):
    card_id: str
    card_slug: str
    variant_id: Optional[str] = None
    variant_slug: Optional[str] = None
    asserted_by: List[IdSaying]


@_model
class IdLookup(Model):
    """The cards and variants a marketplace id belongs to (``cards`` empty when none)."""

    kind: str
    value: str
    cards: List[IdHolder]
    conflicts: List[IdConflict]


@_model
class IdLookupResponse(Model):
    data: IdLookup
