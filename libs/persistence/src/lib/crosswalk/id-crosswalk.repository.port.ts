/**
 * The id crosswalk (issue 40, item 4; docs/id-crosswalk.md): which marketplace and card-data ids
 * the feeds said each card and variant has, by feed and day. The feeds write it
 * (`recordIdAssertions`, in their own transactions); api-v2's `/v2/cards/{id}/ids` and
 * `/v2/ids/{kind}/{value}` read it through this port, bound under `ID_CROSSWALK`.
 */

/**
 * The kinds of id, as the wire names them. Marketplace and provider names are the real ones here,
 * as v2 markets' `source` already says `tcgplayer` and `cardmarket`: a crosswalk is about them.
 */
export const ID_KINDS = [
  'tcgplayer_product',
  'tcgplayer_etched_product',
  'tcgplayer_sku',
  'cardmarket_product',
  'scryfall_id',
  'mtgjson_uuid',
  'multiverse_id',
] as const;
export type IdKind = (typeof ID_KINDS)[number];

/** The feeds that assert ids (`feed_runs.feed`). */
export const ID_FEEDS = ['mtgjson', 'scryfall', 'tcgcsv', 'cardmarket'] as const;
export type IdFeed = (typeof ID_FEEDS)[number];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A positive integer without leading zeros, as every marketplace publishes its ids. */
const INTEGER_ID = /^[1-9][0-9]{0,19}$/;

/** What a value of each kind looks like, and how the text of one is said in an error. */
const INTEGER = { pattern: INTEGER_ID, accepted: 'a positive integer of at most 20 digits, no leading zero' };
const SHAPES: Readonly<Record<IdKind, { readonly pattern: RegExp; readonly accepted: string }>> = {
  tcgplayer_product: INTEGER,
  tcgplayer_etched_product: INTEGER,
  tcgplayer_sku: INTEGER,
  cardmarket_product: INTEGER,
  multiverse_id: INTEGER,
  scryfall_id: { pattern: UUID, accepted: 'a UUID' },
  mtgjson_uuid: { pattern: UUID, accepted: 'a UUID' },
};

/** Which ids belong to a variant (a SKU) rather than to the card. */
export const VARIANT_ID_KINDS: ReadonlySet<IdKind> = new Set<IdKind>(['tcgplayer_sku']);

export function isIdKind(text: string): text is IdKind {
  return (ID_KINDS as readonly string[]).includes(text);
}

/** The kind a request names, in any case (v2's enumerations are not case-sensitive). */
export function idKindOf(text: string): IdKind | undefined {
  const kind = text.toLowerCase();
  return isIdKind(kind) ? kind : undefined;
}

/**
 * The value as stored (UUIDs in lower case), or undefined when it is not one of `kind`: a feed's
 * value of another shape is not recorded, and a lookup of one is a 400. Linear in the text, which
 * callers cap (the longest valid value is 36 characters).
 */
export function idValueOf(kind: IdKind, text: string): string | undefined {
  if (text.length > 64) return undefined;
  const value = SHAPES[kind].pattern === UUID ? text.toLowerCase() : text;
  return SHAPES[kind].pattern.test(value) ? value : undefined;
}

/** What a value of `kind` must be, for an error naming it. */
export function acceptedIdValue(kind: IdKind): string {
  return SHAPES[kind].accepted;
}

/** One id a feed gives a card (variantUuid null) or one of its variants. */
export interface IdAssertion {
  readonly cardUuid: string;
  readonly variantUuid: string | null;
  readonly kind: IdKind;
  readonly value: string;
}

/** A feed run's ids, written with the run's other writes. */
export interface AssertedIds {
  readonly feed: IdFeed;
  /** Its `feed_runs` row. */
  readonly runId: string;
  /**
   * The UTC day (`YYYY-MM-DD`) the ids were asserted on: a TCGCSV day's, else undefined for the
   * day the run started.
   */
  readonly day?: string;
  readonly ids: readonly IdAssertion[];
}

/** An assertion as stored, with the slugs of its card and variant. */
export interface StoredIdAssertion {
  readonly cardUuid: string;
  readonly cardSlug: string;
  readonly variantUuid: string | null;
  readonly variantSlug: string | null;
  readonly kind: IdKind;
  readonly value: string;
  /** null: back-filled from a column no one feed can be named for (unattributed). */
  readonly feed: IdFeed | null;
  /** `YYYY-MM-DD`; null: back-filled, the day is not known. */
  readonly firstSeen: string | null;
  readonly lastSeen: string | null;
}

/** A card's ids, and the other cards and variants holding one of the same values. */
export interface CardIdAssertions {
  readonly card: { readonly uuid: string; readonly slug: string };
  /** Card-level first, then by variant, kind, value and feed; at most MAX_CARD_ASSERTIONS. */
  readonly assertions: readonly StoredIdAssertion[];
  /** Assertions of other cards with a kind and value this card has; at most MAX_SHARED_ASSERTIONS. */
  readonly elsewhere: readonly StoredIdAssertion[];
}

/** Assertions one card's answer reads: every SKU of every variant of a card fits many times over. */
export const MAX_CARD_ASSERTIONS = 5_000;
/** Assertions of other cards read per answer, and holders per lookup. */
export const MAX_SHARED_ASSERTIONS = 500;

export interface IdCrosswalkReads {
  /** The card by UUID or slug with its ids; undefined when there is none. */
  cardIds(ref: string): Promise<CardIdAssertions | undefined>;
  /** Every assertion of this value of `kind` (already shaped by `idValueOf`), any card. */
  holders(kind: IdKind, value: string): Promise<StoredIdAssertion[]>;
}

/** The `IdCrosswalkReads` port, bound to PostgreSQL: inject with `@Inject(ID_CROSSWALK)`. */
export const ID_CROSSWALK = Symbol('IdCrosswalkReads');
