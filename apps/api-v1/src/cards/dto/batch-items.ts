import {
  CARD_IDENTIFIERS,
  CardIdentifier,
  Condition,
  CONDITION_NAMES,
  DomainError,
  invalidParameter,
  nulParameter,
  nulRejected,
  parseCondition,
  queryList,
  queryValue,
} from '@tcg/domain';
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

const bad = (message: string) => new DomainError('INVALID_REQUEST', message, 'body');

/**
 * Validates a POST /v1/cards body: a non-empty JSON array of at most `maxItems` items (413
 * beyond it), each with exactly one identifier and optional `printing`, `condition`,
 * `updated_after` filters, capped as the query parameters of the same names are (QUERY_LIMITS).
 * Unknown item fields are ignored, as v1 ignores unknown parameters.
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
    const nul = nulParameter('', raw as Record<string, unknown>);
    if (nul) throw nulRejected(`${at}.${nul}`);
    const item = raw as Record<string, unknown>;
    const present = CARD_IDENTIFIERS.filter(
      (k) => item[k] !== undefined && item[k] !== null && item[k] !== '',
    );
    if (present.length === 0)
      throw bad(`${at} has no identifier; give one of ${CARD_IDENTIFIERS.join(', ')}.`);
    if (present.length > 1)
      throw bad(`${at} has several identifiers (${present.join(', ')}); give exactly one per item.`);
    const by = present[0]!;
    const value = item[by];
    if (typeof value !== 'string' && typeof value !== 'number') throw bad(`${at}: ${by} must be a string.`);
    // The same caps as the query string's, the parameter named as `item 3.cardId`.
    const identifier = queryValue({ [`${at}.${by}`]: String(value) }, `${at}.${by}`) ?? '';
    const text = (name: string) => {
      const v = item[name];
      if (v === undefined || v === null || v === '') return undefined;
      if (typeof v !== 'string') throw bad(`${at}: ${name} must be a string.`);
      return queryList({ [`${at}.${name}`]: v }, `${at}.${name}`) ?? [];
    };
    const conditions = text('condition')?.map(
      (c) => parseCondition(c) ?? failCondition(`${at}.condition`, c),
    );
    const updated = item['updated_after'];
    if (
      updated !== undefined &&
      updated !== null &&
      !(Number.isSafeInteger(updated) && (updated as number) >= 0)
    ) {
      throw invalidParameter(`${at}.updated_after`, String(updated), 'a Unix timestamp in seconds');
    }
    return {
      ordinal,
      by,
      value: identifier,
      printings: text('printing')?.map(printType),
      conditions,
      updatedAfter: updated === undefined || updated === null ? undefined : (updated as number),
    };
  });
}

function failCondition(parameter: string, value: string): never {
  throw invalidParameter(parameter, value, CONDITION_NAMES);
}
