// Plain data, no imports: the end-to-end tests load it too (docs/spec/interface.md is the source).

/** What a v1 lookup may name a card by, in this order in both lists below. */
const IDENTIFIERS = ['cardId', 'variantId', 'vendorId', 'opensetId', 'imagedbId', 'vendorSkuId'] as const;

/** The query parameters GET /v1/cards reads, in the order its OpenAPI document lists them. */
export const V1_CARDS_PARAMETERS = [
  'q',
  'game',
  'set',
  ...IDENTIFIERS,
  'number',
  'printing',
  'language',
  'condition',
  'priceHistoryDuration',
  'include_price_history',
  'include_statistics',
  'include_null_prices',
  'updated_after',
  'limit',
  'offset',
  'orderBy',
  'order',
  'min_price',
] as const;

/** The fields of one lookup in a POST /v1/cards body, in the order its schema lists them. */
export const V1_BATCH_FIELDS = [...IDENTIFIERS, 'printing', 'condition', 'updated_after'] as const;
