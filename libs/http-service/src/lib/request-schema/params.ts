import type { SchemaObject } from '@nestjs/swagger';
import { DomainError, invalidParameter, minorUnitsPerMajor, parseDecimalAmount } from '@tcg/domain';
import { listValue, QUERY_LIMITS, textValue } from './query-values';

/** How one parameter is written in the OpenAPI document, beside its name and where it goes. */
export interface ParamDoc {
  readonly description?: string;
  readonly required?: boolean;
  /** `form` without `explode`: a comma-separated list (`a,b`). */
  readonly style?: 'form';
  readonly explode?: boolean;
  readonly schema: SchemaObject;
  readonly example?: unknown;
}

/**
 * One parameter of a request: how it is read and how it is documented, declared together so
 * neither can drift from the other. `read` gets the value as received (a string, its repeats as
 * an array, a JSON value in a body, or undefined when absent) and the name errors call it by;
 * it returns the parsed value or throws a 400 naming the parameter and what it accepts.
 */
export interface Param<T> {
  readonly read: (value: unknown, name: string) => T;
  readonly doc: ParamDoc;
  /**
   * What `read` gives an absent parameter, when that is a constant: a request sends a few of its
   * route's parameters, and the schema then skips a call per parameter it did not send.
   */
  readonly absent?: { readonly value: T };
}

/** What a declared parameter reads to. */
export type ParamValue<P> = P extends Param<infer T> ? T : never;

interface Described {
  readonly description?: string;
  readonly example?: unknown;
}

/**
 * Where a value's accepted set is given, the error says it in one wording for every parameter
 * of both versions: invalidParameter's "Invalid value '<got>' for '<name>'. Accepted: <…>.".
 */
const refuse = (name: string, got: string, accepted: readonly string[] | string): never => {
  throw invalidParameter(name, got, accepted);
};

const NONE = { value: undefined } as const;

/**
 * Free text, trimmed, within its cap (QUERY_LIMITS.value unless given), repeats comma-joined;
 * undefined when absent or blank. `parse` turns the text into the value (or refuses it); the
 * documented schema is a string unless `schema` says what the text stands for.
 */
export function text<T>(
  options: Described & {
    maxLength?: number;
    schema: SchemaObject;
    parse: (text: string, name: string) => T;
  },
): Param<T | undefined>;
export function text(options?: Described & { maxLength?: number }): Param<string | undefined>;
export function text<T>(
  options: Described & {
    maxLength?: number;
    schema?: SchemaObject;
    parse?: (text: string, name: string) => T;
  } = {},
): Param<T | string | undefined> {
  const { maxLength = QUERY_LIMITS.value, schema, parse, description, example } = options;
  return {
    read: (value, name) => {
      const got = textValue(value, name, { maxLength });
      return got === undefined || parse === undefined ? got : parse(got, name);
    },
    doc: { description, schema: schema ?? { type: 'string', maxLength }, example },
    absent: NONE,
  };
}

/** A parameter the request cannot go without: absent or blank, it is a 400 saying `missing`. */
export function required<T>(param: Param<T | undefined>, missing: string): Param<T> {
  return {
    read: (value, name) => {
      const got = param.read(value, name);
      if (got === undefined) throw new DomainError('INVALID_REQUEST', missing, name);
      return got;
    },
    doc: { ...param.doc, required: true },
  };
}

interface ChoiceOptions<V extends string> extends Described {
  /** Whether `DESC` means `desc`; an enum a version always matched exactly stays exact. */
  readonly ignoreCase?: boolean;
  readonly default?: V;
  /**
   * Say "Invalid value for '<name>'" without echoing the value. Only GET /v1/sets, whose answers
   * clients (and its end-to-end test) know in that form.
   */
  readonly quiet?: boolean;
}

/** One of a closed set of words; the error lists them. */
export function choice<const V extends string>(
  values: readonly V[],
  options: ChoiceOptions<V> & { default: V },
): Param<V>;
export function choice<const V extends string>(
  values: readonly V[],
  options?: ChoiceOptions<V>,
): Param<V | undefined>;
export function choice<const V extends string>(
  values: readonly V[],
  options: ChoiceOptions<V> = {},
): Param<V | undefined> {
  const accepted: readonly string[] = values;
  return {
    read: (value, name) => {
      const got = textValue(value, name);
      if (got === undefined) return options.default;
      const word = options.ignoreCase ? got.toLowerCase() : got;
      if (accepted.includes(word)) return word as V;
      if (options.quiet)
        throw new DomainError(
          'INVALID_REQUEST',
          `Invalid value for '${name}'. Accepted: ${values.join(', ')}.`,
          name,
        );
      return refuse(name, word, values);
    },
    doc: {
      description: options.description,
      schema: {
        type: 'string',
        enum: [...values],
        ...(options.default !== undefined && { default: options.default }),
      },
      example: options.example,
    },
    absent: { value: options.default },
  };
}

/** `true`/`false` (or `1`/`0`, any case); absent, the default. */
export function flag(options: Described & { default: boolean }): Param<boolean> {
  return {
    read: (value, name) => {
      const got = textValue(value, name)?.toLowerCase();
      if (got === undefined) return options.default;
      if (got === 'true' || got === '1') return true;
      if (got === 'false' || got === '0') return false;
      return refuse(name, got, ['true', 'false']);
    },
    doc: {
      description: options.description,
      schema: { type: 'boolean', default: options.default },
      example: options.example,
    },
    absent: { value: options.default },
  };
}

interface IntegerOptions extends Described {
  readonly minimum: number;
  readonly maximum?: number;
  readonly default?: number;
}

/** Decimal digits only (no sign, exponent or fraction), a safe integer within its bounds. */
export function integer(options: IntegerOptions & { default: number }): Param<number>;
export function integer(options: IntegerOptions): Param<number | undefined>;
export function integer(options: IntegerOptions): Param<number | undefined> {
  const { minimum, maximum } = options;
  const accepted =
    maximum === undefined ? `an integer of at least ${minimum}` : `an integer from ${minimum} to ${maximum}`;
  return {
    read: (value, name) => {
      const got = textValue(value, name);
      if (got === undefined) return options.default;
      const n = Number(got);
      // The digits test first: it refuses `1e3`, ` 12` and `0x1f`, which Number would take.
      if (
        !/^\d+$/.test(got) ||
        !Number.isSafeInteger(n) ||
        n < minimum ||
        (maximum !== undefined && n > maximum)
      )
        return refuse(name, got, accepted);
      return n;
    },
    doc: {
      description: options.description,
      schema: {
        type: 'integer',
        minimum,
        ...(maximum !== undefined && { maximum }),
        ...(options.default !== undefined && { default: options.default }),
      },
      example: options.example,
    },
    absent: { value: options.default },
  };
}

interface ListOptions<T> extends Described {
  /**
   * One item to its value, undefined when it is not one: the error then lists `accepted`.
   * Without it the items are the words of `values` (exactly) or, with neither, any text.
   */
  readonly item?: (item: string) => T | undefined;
  readonly values?: readonly string[];
  /** What the error says is accepted; the item enum (`values`) when not given. */
  readonly accepted?: readonly string[] | string;
  /** The item schema's words, when `values` does not give them (they are matched by `item`). */
  readonly enum?: readonly string[];
  /** Documented only: what the service assumes when the parameter is absent. */
  readonly default?: readonly string[];
  /**
   * A present but blank parameter: absent (the default) or a list of nothing. `include=` asks
   * for no component, and a batch filter of blanks matches nothing.
   */
  readonly blank?: 'absent' | 'empty';
  /**
   * Whether the items' order means something (v2 `regions`: priority). Otherwise the list is a set:
   * its values come sorted and without repeats, so `a,b`, `b,a` and `a,a,b` are one request to
   * every reader and to the response cache.
   */
  readonly ordered?: boolean;
}

/** The values without repeats, sorted by their JSON text (items may be numbers, null or objects). */
function asSet<T>(values: readonly T[]): T[] {
  const byText = new Map(values.map((v) => [JSON.stringify(v), v]));
  return [...byText.keys()].sort().map((text) => byText.get(text)!);
}

/**
 * A comma-separated list within QUERY_LIMITS' list caps (repeats joined, all of it, each item,
 * how many items), each item read by `item`; undefined when absent.
 */
export function list<T = string>(options: ListOptions<T> = {}): Param<T[] | undefined> {
  const { item, values, blank = 'absent', ordered = false } = options;
  const accepted = options.accepted ?? values ?? 'any text';
  const words: readonly string[] | undefined = values;
  return {
    read: (value, name) => {
      const items = listValue(value, name);
      if (items === undefined) return value === undefined || blank === 'absent' ? undefined : [];
      const out: T[] = [];
      for (const text of items) {
        const parsed = item
          ? item(text)
          : words === undefined || words.includes(text)
            ? (text as T)
            : undefined;
        if (parsed === undefined) refuse(name, text, accepted);
        out.push(parsed as T);
      }
      return ordered ? out : asSet(out);
    },
    doc: {
      description: options.description,
      style: 'form',
      explode: false,
      schema: {
        type: 'array',
        items: {
          maxLength: QUERY_LIMITS.listItem,
          type: 'string',
          ...((options.enum ?? values) && { enum: [...(options.enum ?? values)!] }),
        },
        maxItems: QUERY_LIMITS.listItems,
        ...(options.default && { default: [...options.default] }),
      },
      example: options.example,
    },
    absent: NONE,
  };
}

/**
 * A price a client writes (`12.50`) in `currency`'s minor units, without a float: both versions'
 * `min_price`, refused in one wording. `whose` says which currency, where the request decides it.
 */
export function readPrice(text: string, name: string, currency: string, whose?: string): number {
  const perMajor = minorUnitsPerMajor(currency);
  const price = parseDecimalAmount(text, perMajor);
  if (price === undefined)
    refuse(
      name,
      text,
      `a non-negative price in ${currency}${whose ? ` (${whose})` : ''}, ${perMajor === 1 ? 'in whole units' : 'at most 2 decimals'}`,
    );
  return price!;
}
