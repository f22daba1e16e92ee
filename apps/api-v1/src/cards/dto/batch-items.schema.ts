import {
  CARD_IDENTIFIERS,
  CardIdentifier,
  Condition,
  CONDITION_NAMES,
  DomainError,
  invalidParameter,
  nulField,
  nulRejected,
  parseCondition,
} from '@tcg/domain';
import { list, Param, ParsedBy, QUERY_LIMITS, requestSchema, text } from '@tcg/http-service';
import { printType } from './printing';

/** The most items any plan may send (docs/spec/interface.md); smaller plans have smaller caps (docs/spec/decisions.md). */
export const MAX_BATCH_ITEMS = 200;

export interface BatchItem {
  readonly ordinal: number;
  readonly by: CardIdentifier;
  readonly value: string;
  readonly printings?: readonly string[];
  readonly conditions?: readonly Condition[];
  readonly updatedAfter?: number;
}

const ABSENT = { value: undefined } as const;

const bad = (message: string) => new DomainError('INVALID_REQUEST', message, 'body');

/**
 * A JSON field read as the query parameter of the same name reads its text, within the same
 * caps: `null` and `""` count as absent (clients send them for "no filter"); any other value
 * that is not a string is refused, except a number where `numbers` allows it (identifiers).
 */
function json<T>(param: Param<T>, numbers = false): Param<T | undefined> {
  return {
    read: (value, name) => {
      if (value === undefined || value === null || value === '') return undefined;
      if (typeof value === 'number' && numbers) return param.read(String(value), name);
      if (typeof value !== 'string')
        throw new DomainError('INVALID_REQUEST', `${name} must be a string.`, name);
      return param.read(value, name);
    },
    doc: param.doc,
    absent: ABSENT,
  };
}

/** A list as one comma-separated string: that is how the body carries it (not a JSON array). */
const commaSeparated = <T>(param: Param<T>, description: string, example: string): Param<T | undefined> => ({
  ...json(param),
  doc: { description, schema: { type: 'string', maxLength: QUERY_LIMITS.list }, example },
});

const identifier = (description: string, example?: string) => json(text({ description, example }), true);

/** A JSON number of whole seconds since the epoch. */
const timestamp: Param<number | undefined> = {
  read: (value, name) => {
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
    throw invalidParameter(name, String(value), 'a Unix timestamp in seconds');
  },
  absent: ABSENT,
  doc: {
    description:
      'Unix timestamp (seconds), for delta sync: only variants updated after it; the card is left out when none is.',
    schema: { type: 'integer', minimum: 0 },
    example: 1767139200,
  },
};

/**
 * docs/spec/interface.md "v1 BatchCardRequestItem": exactly one identifier plus optional filters,
 * capped as the query parameters of the same names are (QUERY_LIMITS). Unknown item fields are
 * ignored, as v1 ignores unknown parameters.
 */
export const BATCH_ITEM = requestSchema(
  {
    cardId: identifier(
      'Slug or UUID of a card.',
      'magic-the-gathering-limited-edition-alpha-black-lotus-rare',
    ),
    variantId: identifier('Slug or UUID of a variant: that card with that variant only.'),
    vendorId: identifier('Marketplace product ID.'),
    opensetId: identifier('Card-data provider ID.'),
    imagedbId: identifier('Card-data provider ID.'),
    vendorSkuId: identifier('Marketplace SKU ID (variant level).'),
    // A blank filter (`" , "`) is one that matches nothing, not an absent one.
    printing: commaSeparated(
      list({ item: printType, blank: 'empty' }),
      "Printing types, comma-separated, case-insensitive; narrows the card's variants.",
      'Normal',
    ),
    condition: commaSeparated(
      list({ item: parseCondition, accepted: CONDITION_NAMES, blank: 'empty' }),
      `Conditions by short or long name, comma-separated, case-insensitive: ${CONDITION_NAMES.join(', ')}.`,
      'NM,LP',
    ),
    updated_after: timestamp,
  },
  { unknown: 'ignore' },
);

/** One item of the body as validated, field by field. */
export type BatchItemFields = ParsedBy<typeof BATCH_ITEM>;

/** The OpenAPI component of one item, named as the DTO class that documented it was. */
export const BatchCardRequestItemDto = BATCH_ITEM.model('BatchCardRequestItemDto');

/**
 * Validates a POST /v1/cards body: a non-empty JSON array of at most `maxItems` items (413
 * beyond it), each an object read by BATCH_ITEM with exactly one identifier.
 */
export function parseBatch(body: unknown, maxItems: number, plan: string): BatchItem[] {
  if (!Array.isArray(body))
    throw bad('The body must be a JSON array of card lookups, e.g. [{"cardId":"..."}].');
  if (body.length === 0) throw bad('The batch is empty: send at least one lookup.');
  if (body.length > maxItems) {
    throw new DomainError(
      'PAYLOAD_TOO_LARGE',
      `At most ${maxItems} items per batch on the ${plan} plan; this batch has ${body.length}.`,
      'body',
    );
  }
  return body.map((raw: unknown, ordinal): BatchItem => {
    const at = `item ${ordinal}`;
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw bad(`${at} must be an object.`);
    const item = raw as Record<string, unknown>;
    const nul = nulField(item);
    if (nul) throw nulRejected(`${at}.${nul}`);
    const present = CARD_IDENTIFIERS.filter(
      (k) => item[k] !== undefined && item[k] !== null && item[k] !== '',
    );
    if (present.length === 0)
      throw bad(`${at} has no identifier; give one of ${CARD_IDENTIFIERS.join(', ')}.`);
    if (present.length > 1)
      throw bad(`${at} has several identifiers (${present.join(', ')}); give exactly one per item.`);
    return toBatchItem(BATCH_ITEM.parse(item, `${at}.`), ordinal, present[0]!);
  });
}

/** One validated item as the read side's lookup. */
export function toBatchItem(fields: BatchItemFields, ordinal: number, by: CardIdentifier): BatchItem {
  return {
    ordinal,
    by,
    // A blank identifier ("  ") is present but looks up nothing, as before.
    value: fields[by] ?? '',
    printings: fields.printing,
    conditions: fields.condition,
    updatedAfter: fields.updated_after,
  };
}
