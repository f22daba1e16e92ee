import { applyDecorators } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { CONDITION_NAMES, LANGUAGE_NAMES, QUERY_LIMITS } from '@tcg/domain';
import { HISTORY_DURATIONS, STATISTIC_WINDOWS } from '@tcg/rendering';
import { MAX_OFFSET, MAX_SEARCH_LENGTH } from './cards-query';

type Parameter = Parameters<typeof ApiQuery>[0] & { name: string };

/** A comma-separated list (`a,b`); a repeated parameter counts as its values joined. */
const list = (items: Record<string, unknown>, example: string, fallback?: readonly string[]) =>
  ({
    style: 'form',
    explode: false,
    schema: {
      type: 'array',
      items: { maxLength: QUERY_LIMITS.listItem, ...items },
      maxItems: QUERY_LIMITS.listItems,
      ...(fallback && { default: [...fallback] }),
    },
    example,
  }) as const;
/** Free text: the parser refuses longer values (QUERY_LIMITS). */
const text = (maxLength: number = QUERY_LIMITS.value) => ({ type: 'string', maxLength }) as const;

/** How `/v1/cards` presents what it returns: the parameters POST reads from its query string too. */
const PRESENTATION: Parameter[] = [
  {
    name: 'priceHistoryDuration',
    description: 'How far back `priceHistory` goes from the latest observation.',
    schema: { type: 'string', enum: Object.keys(HISTORY_DURATIONS), default: '7d' },
  },
  {
    name: 'include_price_history',
    description: 'Include the `priceHistory` and `priceHistory30d` arrays (null when false).',
    schema: { type: 'boolean', default: true },
  },
  {
    name: 'include_statistics',
    description: 'Statistic windows to fill; the flat fields of the others are null.',
    ...list({ type: 'string', enum: [...STATISTIC_WINDOWS] }, '7d,30d', STATISTIC_WINDOWS),
  },
];

/**
 * GET /v1/cards (docs/spec/interface.md table plus the docs/spec/decisions.md extensions `orderBy`, `order`,
 * `min_price`). Identifier parameters win over a search, the most specific first (variantId,
 * vendorSkuId, cardId, vendorId, opensetId, imagedbId). Unknown parameters are ignored.
 */
const SEARCH: Parameter[] = [
  {
    name: 'q',
    description: 'General search on card name.',
    schema: text(MAX_SEARCH_LENGTH),
    example: 'lightning bolt',
  },
  {
    name: 'game',
    description: 'Game ID or, case-insensitively, its display name.',
    schema: text(),
    example: 'magic-the-gathering',
  },
  {
    name: 'set',
    description: 'Set ID.',
    schema: text(),
    example: 'magic-the-gathering-limited-edition-alpha',
  },
  { name: 'cardId', description: 'Slug or UUID of a card.', schema: text() },
  {
    name: 'variantId',
    description: 'Slug or UUID of a variant: that card with that variant only.',
    schema: text(),
  },
  { name: 'vendorId', description: 'Marketplace product ID.', schema: text() },
  { name: 'opensetId', description: 'Card-data provider ID.', schema: text() },
  { name: 'imagedbId', description: 'Card-data provider ID.', schema: text() },
  { name: 'vendorSkuId', description: 'Marketplace SKU ID (variant level).', schema: text() },
  { name: 'number', description: 'Card number within a set.', schema: text(), example: '232' },
  {
    name: 'printing',
    description:
      'Printing types, case-insensitive; a ` - <Language>` suffix is ignored. Open vocabulary: an unknown printing matches nothing.',
    ...list({ type: 'string' }, 'Normal,Foil'),
  },
  {
    name: 'language',
    description:
      "Languages, case-insensitive. Narrows each card's `variants` and never removes cards; variants with no recorded language count as English; ignored with `variantId`.",
    ...list({ type: 'string', enum: LANGUAGE_NAMES }, 'English,Japanese'),
  },
  {
    name: 'condition',
    description: 'Conditions by short or long name, case-insensitive.',
    ...list({ type: 'string', enum: CONDITION_NAMES }, 'NM,LP'),
  },
  ...PRESENTATION,
  {
    name: 'include_null_prices',
    description: 'Include cards none of whose returned variants has a price; ignored with `q`.',
    schema: { type: 'boolean', default: false },
  },
  {
    name: 'updated_after',
    description:
      'Unix timestamp (seconds): only variants updated after it, and only cards left with one (delta sync).',
    schema: { type: 'integer', minimum: 0 },
  },
  {
    name: 'limit',
    description:
      "Cards per page; a value above the plan's maximum (20 free, 100 starter and professional, 200 enterprise) is clamped to it.",
    schema: { type: 'integer', minimum: 1, default: 20 },
  },
  {
    name: 'offset',
    description: 'Pagination offset.',
    schema: { type: 'integer', minimum: 0, maximum: MAX_OFFSET, default: 0 },
  },
  {
    name: 'orderBy',
    description:
      "Sort by the price or the change over a window of each card's highest-priced returned variant; ties break on card ID. Without it a search orders by relevance and a browse by set, then card number.",
    schema: { type: 'string', enum: ['price', '24h', '7d', '30d', '90d'] },
  },
  {
    name: 'order',
    description: 'Direction of `orderBy`.',
    schema: { type: 'string', enum: ['asc', 'desc'], default: 'desc' },
  },
  {
    name: 'min_price',
    description: 'Only cards priced at or above this, in USD (at most 2 decimals).',
    schema: { type: 'number', minimum: 0 },
    example: 10,
  },
];

const decorate = (parameters: Parameter[]) =>
  applyDecorators(...parameters.map((p) => ApiQuery({ required: false, ...p })));

/** The query parameters of GET /v1/cards. */
export const ApiCardsQuery = (): MethodDecorator & ClassDecorator => decorate(SEARCH);

/** The query parameters POST /v1/cards reads: how to present the cards of the batch. */
export const ApiCardsPresentationQuery = (): MethodDecorator & ClassDecorator => decorate(PRESENTATION);
