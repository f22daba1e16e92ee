import { applyDecorators } from '@nestjs/common';
import { ApiQuery, type ParameterObject } from '@nestjs/swagger';
import { GRADING_COMPANIES, LANGUAGE_NAMES, MARKET_CODES, PLANS, QUERY_LIMITS } from '@tcg/domain';
import { MAX_CURSOR_LENGTH } from '../cursor/cursor-codec';
import {
  CARD_PARAMETERS,
  CARDS_PARAMETERS,
  GRADED_VALUES,
  INCLUDE_VALUES,
  MAX_SEARCH_LENGTH,
  ORDER_BY_VALUES,
} from './cards-v2-query';

type Parameter = Omit<ParameterObject, 'name' | 'in' | 'required'>;

/** A comma-separated list (`a,b`); a repeated parameter counts as its values joined. */
const list = (items: Record<string, unknown>, example: string, fallback?: readonly string[]): Parameter => ({
  style: 'form',
  explode: false,
  schema: {
    type: 'array',
    items: { maxLength: QUERY_LIMITS.listItem, ...items },
    maxItems: QUERY_LIMITS.listItems,
    ...(fallback && { default: [...fallback] }),
  },
  example,
});
/** Free text: the parser refuses longer values (QUERY_LIMITS). */
const text = (maxLength: number = QUERY_LIMITS.value) => ({ type: 'string', maxLength }) as const;

const maxLimits = Object.entries(PLANS)
  .map(([plan, limits]) => `${limits.maxLimit} ${plan}`)
  .join(', ');

/**
 * Every query parameter of GET /v2/cards, described: the type is keyed by CARDS_PARAMETERS (the
 * parser's list), so a parameter the parser accepts cannot go undocumented.
 */
const PARAMETERS: Record<(typeof CARDS_PARAMETERS)[number], Parameter> = {
  card_id: { description: 'Card UUID or legacy v1 slug: look up one card.', schema: text() },
  variant_id: {
    description:
      'Variant UUID or legacy v1 slug: look up one variant, whatever `graded` says; the fastest lookup.',
    schema: text(),
  },
  vendor_id: {
    description: 'Marketplace product ID (v1 `vendorId`): look up one card.',
    schema: text(),
  },
  vendor_sku: {
    description: 'Marketplace SKU ID (v1 `vendorSkuId`): look up one variant, whatever `graded` says.',
    schema: text(),
  },
  regions: {
    description: `Region codes in priority order, not case-sensitive: market codes (${MARKET_CODES.join(', ')}) or ISO 3166-1 alpha-2 country codes. The first is the primary market (\`markets[0]\`), the one \`min_price\` and \`order_by\` read. Each region beyond the first costs one more request.`,
    ...list({ type: 'string' }, 'NA,EU', ['NA']),
  },
  graded: {
    description:
      'Raw variants only (`exclude`), graded only (`only`) or both (`include`, one more request). `grading_company` alone implies `only`.',
    schema: { type: 'string', enum: [...GRADED_VALUES], default: 'exclude' },
  },
  grading_company: {
    description:
      'Every grade of this company; sets `graded=only` unless `graded=include` is passed; a 400 with `graded=exclude`.',
    schema: { type: 'string', enum: [...GRADING_COMPANIES] },
  },
  grade: {
    description:
      'Grades within `grading_company` (required with it): numbers from 1 to 10 in steps of 0.5, or `Authentic`.',
    ...list({ type: 'string' }, '10,9.5'),
  },
  include: {
    description:
      'Components to expand per market; replaces the default (every period and `price_history.7d`), not adds to it. `include=` (empty) sends prices only. Several history windows give the longest.',
    ...list({ type: 'string', enum: INCLUDE_VALUES }, 'periods.30d,price_history.30d', [
      'periods',
      'price_history.7d',
    ]),
  },
  cursor: {
    description:
      "Opaque cursor from `meta.cursor` or the `Link` header; bound to the query's filters, order and regions (`limit` and `include` may change).",
    schema: text(MAX_CURSOR_LENGTH),
  },
  limit: {
    description: `Cards per page; a value above the plan's maximum (${maxLimits}) is clamped to it.`,
    schema: { type: 'integer', minimum: 1, default: 20 },
  },
  q: {
    description: 'Free-text search on card name.',
    schema: text(MAX_SEARCH_LENGTH),
    example: 'lightning bolt',
  },
  game: {
    description: 'Game ID or, case-insensitively, its display name.',
    schema: text(),
    example: 'magic-the-gathering',
  },
  set: {
    description: 'Set ID.',
    schema: text(),
    example: 'magic-the-gathering-limited-edition-alpha',
  },
  number: { description: 'Card number within its set.', schema: text() },
  language: {
    description:
      "Languages, case-insensitive. Narrows each card's `variants`, never removes cards (`meta`, `X-Total-Count` and cursors are unchanged); variants with no recorded language count as English; ignored with `variant_id`.",
    ...list({ type: 'string', enum: LANGUAGE_NAMES }, 'English,Japanese'),
  },
  min_price: {
    description: "Only cards priced at or above this, in the primary market's currency.",
    schema: { type: 'number', minimum: 0 },
    example: 10,
  },
  order_by: {
    description:
      "Sort descending by the price or the change over a window of each card's highest-priced returned variant in the primary market (unpriced cards last, ties by card UUID). Without it a search orders by relevance and a browse by set, then card number.",
    schema: { type: 'string', enum: [...ORDER_BY_VALUES] },
  },
};

const decorate = (names: readonly (keyof typeof PARAMETERS)[]) =>
  applyDecorators(...names.map((name) => ApiQuery({ name, required: false, ...PARAMETERS[name] })));

/** The query parameters of GET /v2/cards: CARDS_PARAMETERS, the list the parser accepts. */
export const ApiCardsV2Query = (): MethodDecorator & ClassDecorator => decorate(CARDS_PARAMETERS);

/** The query parameters of GET /v2/cards/{id}: CARD_PARAMETERS. */
export const ApiCardV2Query = (): MethodDecorator & ClassDecorator => decorate(CARD_PARAMETERS);
