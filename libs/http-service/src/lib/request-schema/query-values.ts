import { abbreviate, DomainError, invalidParameter } from '@tcg/domain';

/** A parsed query string: each parameter a value, or its values when repeated. */
export type QueryParams = Readonly<Record<string, unknown>>;

/**
 * What a client may send in a query string. Each cap is checked on the text as received, before
 * it is trimmed, split or parsed, so the work a request can cause is bounded by them.
 */
export const QUERY_LIMITS = {
  /**
   * The whole query string, percent-encoded, as it arrives. Room for every parameter of the
   * largest query at its common size (a 200-character search, an identifier, a dozen filters),
   * even percent-encoded non-Latin text, and far from Node's 16 KB header limit.
   */
  queryString: 4096,
  /** The path, percent-encoded: the longest route is `/v2/cards/{id}`, an id being a UUID or a slug. */
  path: 512,
  /** One parameter's text, repeats comma-joined, unless the parameter sets its own cap. */
  value: 256,
  /**
   * A name search (`q`, both versions): the longest card name is 141 characters, and each
   * similarity comparison costs in proportion to the search text.
   */
  search: 200,
  /** How often one parameter may appear (`?a=1&a=2`): a list needs one, a few at most. */
  repeats: 16,
  /**
   * A list parameter's whole text, repeats comma-joined: every language (95 characters) or
   * condition by its long name fits, or a dozen printings with their language suffix.
   */
  list: 512,
  /** Items of one list parameter, repeats included: each vocabulary here has fewer than 32 names. */
  listItems: 32,
  /** One item of a list: the longest name of any vocabulary (a printing) is under 40 characters. */
  listItem: 64,
} as const;

/** Caps of one parameter, where its defaults in QUERY_LIMITS do not fit. */
export interface ValueCaps {
  /** Characters of the parameter's text (repeats comma-joined). */
  readonly maxLength?: number;
}

/**
 * One parameter's text, trimmed; undefined when absent or blank. A repeated parameter counts
 * as its values comma-joined, so `?a=1&a=2` reads like `?a=1,2` (the spec's lists are comma-separated).
 * Past a cap (its repeats, its length) it is a 400 naming the parameter and the cap.
 */
export function queryValue(query: QueryParams, name: string, caps: ValueCaps = {}): string | undefined {
  return textValue(query[name], name, caps);
}

/**
 * A comma-separated parameter's items, trimmed, empty ones dropped; undefined when absent. Past
 * a cap (its repeats, the number of items, the length of one) it is a 400 naming the parameter.
 */
export function queryList(query: QueryParams, name: string): string[] | undefined {
  return listValue(query[name], name);
}

/** queryValue of a value already taken from its source, `name` being what errors call it. */
export function textValue(value: unknown, name: string, caps: ValueCaps = {}): string | undefined {
  const text = rawText(value, name, caps.maxLength ?? QUERY_LIMITS.value, 'characters')?.trim();
  return text === '' ? undefined : text;
}

/** queryList of a value already taken from its source, `name` being what errors call it. */
export function listValue(value: unknown, name: string): string[] | undefined {
  const maxItems = QUERY_LIMITS.listItems;
  const maxItemLength = QUERY_LIMITS.listItem;
  // The whole text first, so splitting it is bounded too; the finer caps follow.
  const text = rawText(value, name, QUERY_LIMITS.list, 'characters in all');
  if (text === undefined || text.trim() === '') return undefined;
  const items = text
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  if (items.length > maxItems)
    throw tooMany(name, `at most ${maxItems} comma-separated values`, items.length);
  const long = items.find((item) => item.length > maxItemLength);
  if (long !== undefined)
    throw invalidParameter(name, abbreviate(long), `values of at most ${maxItemLength} characters each`);
  return items;
}

/**
 * The length of the path and of the query string of a request target (`/v1/cards?q=…`), checked
 * before the query is parsed or a route matched. Undefined when within the caps; otherwise the
 * error to answer with, naming which part is too long.
 */
export function requestTargetTooLong(target: string): DomainError | undefined {
  const mark = target.indexOf('?');
  const path = mark === -1 ? target.length : mark;
  const query = mark === -1 ? 0 : target.length - mark - 1;
  if (path > QUERY_LIMITS.path)
    return new DomainError(
      'INVALID_REQUEST',
      `The path is ${path} characters long; at most ${QUERY_LIMITS.path} are accepted.`,
      'path',
    );
  if (query > QUERY_LIMITS.queryString)
    return new DomainError(
      'INVALID_REQUEST',
      `The query string is ${query} characters long; at most ${QUERY_LIMITS.queryString} are accepted.`,
      'query',
    );
  return undefined;
}

/** The text of a parameter, its repeats comma-joined, after checking their number and its length. */
function rawText(v: unknown, name: string, maxLength: number, unit: string): string | undefined {
  if (v === undefined) return undefined;
  const values: unknown[] = Array.isArray(v) ? v : [v];
  if (values.length > QUERY_LIMITS.repeats)
    throw tooMany(name, `'${name}' given at most ${QUERY_LIMITS.repeats} times`, values.length);
  let length = values.length - 1;
  for (const value of values) length += typeof value === 'string' ? value.length : String(value).length;
  if (length > maxLength) {
    const head = String(values[0]);
    throw invalidParameter(name, abbreviate(head), `at most ${maxLength} ${unit}; this one has ${length}`);
  }
  return values.join(',');
}

function tooMany(name: string, accepted: string, count: number): DomainError {
  return new DomainError(
    'INVALID_REQUEST',
    `Too many values for '${name}' (${count}). Accepted: ${accepted}.`,
    name,
  );
}
