// Plain data, no imports: the end-to-end tests load it too (docs/spec/interface.md is the source).

/** The query parameters GET /v1/cards reads, in the order its OpenAPI document lists them. */
export const V1_CARDS_PARAMETERS = [
  'q',
  'game',
  'set',
  'cardId',
  'variantId',
  'vendorId',
  'opensetId',
  'imagedbId',
  'vendorSkuId',
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
export const V1_BATCH_FIELDS = [
  'cardId',
  'variantId',
  'vendorId',
  'opensetId',
  'imagedbId',
  'vendorSkuId',
  'printing',
  'condition',
  'updated_after',
] as const;
