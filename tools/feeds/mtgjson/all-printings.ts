import { FeedParseError, isDate, isFeedText, jsonValuesAt, record, shown } from '../json-stream';

/**
 * MTGJSON v5 `AllPrintings.json` (`{ meta: Meta; data: Record<setCode, Set> }`, data models "Set",
 * "Card (Set)", "Identifiers", "Sealed Product": see fixtures/mtgjson/README.md).
 */

/** A set as the file describes it (its scalar fields; cards and products come on their own). */
export interface FeedSet {
  readonly code: string;
  readonly name: string;
  /** `YYYY-MM-DD`. */
  readonly releaseDate: string;
  readonly type: string;
  readonly isOnlineOnly: boolean;
}

/** The identifiers of a printing the catalogue keeps (all text, as the model types them). */
export interface FeedIdentifiers {
  readonly tcgplayerProductId?: string;
  readonly tcgplayerEtchedProductId?: string;
  readonly scryfallId?: string;
  readonly mcmId?: string;
  readonly multiverseId?: string;
}

/**
 * One card printing (one face of a multi-face card: `side` `a`, `b`…, the card's `name` joining the
 * faces with ` // `, `faceName` the face's own).
 */
export interface FeedCard {
  readonly uuid: string;
  readonly setCode: string;
  readonly name: string;
  readonly faceName: string | null;
  readonly side: string | null;
  readonly number: string;
  readonly rarity: string;
  readonly layout: string;
  /** The type line (`Creature — Human Soldier`), or null when the file has none. */
  readonly type: string | null;
  /** The printing's language (`English`, `Japanese`…): a set may print cards in one other language only. */
  readonly language: string;
  /** `nonfoil`, `foil`, `etched`… as published. */
  readonly finishes: readonly string[];
  readonly identifiers: FeedIdentifiers;
  /** Languages of the card's translations (`foreignData`), which MTGJSON lists on the English printing. */
  readonly foreignLanguages: readonly string[];
}

/** A sealed product of a set. */
export interface FeedSealedProduct {
  readonly uuid: string;
  readonly setCode: string;
  readonly name: string;
  readonly category: string | null;
  readonly identifiers: FeedIdentifiers;
}

export type FeedPrintingsItem =
  | { readonly kind: 'set'; readonly set: FeedSet }
  | { readonly kind: 'card'; readonly card: FeedCard }
  | { readonly kind: 'sealed'; readonly product: FeedSealedProduct };

/** The set fields read; the others a set holds are read and dropped (DROPPED). */
const SET_FIELDS = ['code', 'name', 'releaseDate', 'type', 'isOnlineOnly'] as const;
/**
 * A set's large members the catalogue does not use, selected only to be dropped as they are read:
 * a member no path selects stays in the parser's tree until the document ends.
 */
const DROPPED = ['booster', 'translations', 'tokens.*', 'decks.*'];

const KEPT_IDENTIFIERS = [
  'tcgplayerProductId',
  'tcgplayerEtchedProductId',
  'scryfallId',
  'mcmId',
  'multiverseId',
] as const;

/**
 * Every set, card printing and sealed product of an AllPrintings-shaped file, in file order: each
 * card and product as it is read, each set once its fields are (after its cards, since MTGJSON
 * sorts keys). Memory is one card or one dropped member at a time, whatever the file's size. A
 * value that breaks the published model is a FeedParseError naming the set and card.
 */
export async function* readAllPrintings(
  file: string,
  chunks: AsyncIterable<Buffer | Uint8Array>,
): AsyncGenerator<FeedPrintingsItem> {
  const paths = [
    '$.data.*.cards.*',
    '$.data.*.sealedProduct.*',
    ...SET_FIELDS.map((f) => `$.data.*.${f}`),
    ...DROPPED.map((f) => `$.data.*.${f}`),
  ];
  let setKey: string | undefined;
  let fields: Record<string, unknown> = {};
  let setAt = 0;
  const finishSet = (): FeedPrintingsItem => {
    const bad = (why: string): never => {
      throw new FeedParseError(file, setAt, `set ${setKey}: ${why}`);
    };
    const text = (f: string) => {
      const v = fields[f];
      return isFeedText(v) ? v : bad(`${f}: expected text, got ${shown(v)}`);
    };
    const releaseDate = text('releaseDate');
    if (!isDate(releaseDate)) bad(`releaseDate: ${shown(releaseDate)} is not a date`);
    return {
      kind: 'set',
      set: {
        code: text('code'),
        name: text('name'),
        releaseDate,
        type: text('type'),
        isOnlineOnly: fields['isOnlineOnly'] === true,
      },
    };
  };
  for await (const { keys, value, offset } of jsonValuesAt(file, chunks, paths)) {
    const key = String(keys[1]);
    if (setKey !== undefined && key !== setKey) yield finishSet();
    if (key !== setKey) {
      setKey = key;
      fields = {};
    }
    setAt = offset;
    const member = String(keys[2]);
    if ((SET_FIELDS as readonly string[]).includes(member) && keys.length === 3) {
      fields[member] = value;
    } else if (member === 'cards') {
      yield { kind: 'card', card: toCard(file, offset, key, value) };
    } else if (member === 'sealedProduct') {
      yield { kind: 'sealed', product: toSealed(file, offset, key, value) };
    }
  }
  if (setKey !== undefined) yield finishSet();
}

function toCard(file: string, offset: number, setKey: string, value: unknown): FeedCard {
  const card = record(value);
  const bad = (why: string): never => {
    throw new FeedParseError(file, offset, `set ${setKey}, card ${String(card?.['uuid'] ?? '?')}: ${why}`);
  };
  if (!card) return bad('expected an object');
  const text = (f: string): string => {
    const v = card[f];
    return isFeedText(v) ? v : bad(`${f}: expected text, got ${shown(v)}`);
  };
  const optional = (f: string): string | null => {
    const v = card[f];
    if (v === undefined || v === null) return null;
    return isFeedText(v) ? v : bad(`${f}: expected text, got ${shown(v)}`);
  };
  const finishes = finishesOf(card, bad);
  const foreign = card['foreignData'];
  if (foreign !== undefined && !Array.isArray(foreign)) bad('foreignData: expected a list');
  const foreignLanguages: string[] = [];
  for (const entry of (foreign as unknown[] | undefined) ?? []) {
    const language = record(entry)?.['language'];
    if (typeof language !== 'string') bad('foreignData: expected a language on each entry');
    foreignLanguages.push(language as string);
  }
  return {
    uuid: text('uuid'),
    setCode: text('setCode'),
    name: text('name'),
    faceName: optional('faceName'),
    side: optional('side'),
    number: text('number'),
    rarity: text('rarity'),
    layout: text('layout'),
    type: optional('type'),
    // `language` is published from v5.2.1 on; MTGJSON's card model defaults it to English.
    language: card['language'] === undefined ? DEFAULT_LANGUAGE : text('language'),
    finishes,
    identifiers: identifiers(card['identifiers'], bad),
    foreignLanguages,
  };
}

/** MTGJSON's default for a card's `language` (models/cards.py: `default="English"`, v5.2.1). */
const DEFAULT_LANGUAGE = 'English';

/**
 * A card's finishes: `finishes` from v5.2.0 on; before it (v5.0, v5.1) the card said
 * `hasNonFoil`/`hasFoil`, which name the same two finishes.
 */
function finishesOf(card: Record<string, unknown>, bad: (why: string) => never): string[] {
  const finishes = card['finishes'];
  if (
    finishes === undefined &&
    (typeof card['hasNonFoil'] === 'boolean' || typeof card['hasFoil'] === 'boolean')
  )
    return [
      ...(card['hasNonFoil'] === true ? ['nonfoil'] : []),
      ...(card['hasFoil'] === true ? ['foil'] : []),
    ];
  if (!Array.isArray(finishes) || !finishes.every((f) => typeof f === 'string'))
    return bad('finishes: expected a list of text');
  return finishes as string[];
}

function toSealed(file: string, offset: number, setKey: string, value: unknown): FeedSealedProduct {
  const product = record(value);
  const bad = (why: string): never => {
    throw new FeedParseError(
      file,
      offset,
      `set ${setKey}, sealed product ${String(product?.['uuid'] ?? '?')}: ${why}`,
    );
  };
  if (!product) return bad('expected an object');
  const { uuid, name, category } = product;
  if (!isFeedText(uuid, IDENTIFIER_MAX)) bad(`uuid: expected an id, got ${shown(uuid)}`);
  if (!isFeedText(name)) bad(`name: expected text, got ${shown(name)}`);
  if (category !== undefined && category !== null && !isFeedText(category))
    bad(`category: expected text, got ${shown(category)}`);
  return {
    uuid: uuid as string,
    setCode: setKey,
    name: name as string,
    category: typeof category === 'string' ? category : null,
    identifiers: identifiers(product['identifiers'], bad),
  };
}

/** The identifiers the catalogue keeps; an identifier published as a number is read as its text. */
/** The longest identifier kept (ids are UUIDs or numbers). */
const IDENTIFIER_MAX = 64;

function identifiers(value: unknown, bad: (why: string) => never): FeedIdentifiers {
  const all = record(value);
  if (!all) return bad('identifiers: expected an object');
  const out: Record<string, string> = {};
  for (const key of KEPT_IDENTIFIERS) {
    const v = all[key];
    if (v === undefined || v === null) continue;
    if (isFeedText(v, IDENTIFIER_MAX)) out[key] = v;
    else if (typeof v === 'number' && Number.isSafeInteger(v)) out[key] = String(v);
    else bad(`identifiers.${key}: expected an id, got ${shown(v)}`);
  }
  return out;
}
