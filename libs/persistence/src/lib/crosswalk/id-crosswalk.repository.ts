import { sql } from 'kysely';
import type { DataSource } from 'typeorm';
import { poolOf } from '../db/data-source';
import { db } from '../sql/compile';
import { rowSchema } from '../sql/row-schema';
import { execute, rowsOf, type Connection } from '../sql/run';
import {
  ID_FEEDS,
  isIdKind,
  MAX_CARD_ASSERTIONS,
  MAX_SHARED_ASSERTIONS,
  type AssertedIds,
  type CardIdAssertions,
  type IdCrosswalkReads,
  type IdFeed,
  type IdKind,
  type StoredIdAssertion,
} from './id-crosswalk.repository.port';

const CARD_ROW = rowSchema('crosswalk card', { uuid: 'string', id: 'string' });
const ASSERTION_ROW = rowSchema('crosswalk assertions', {
  cardUuid: 'string',
  cardSlug: 'string',
  variantUuid: 'string?',
  variantSlug: 'string?',
  kind: 'string',
  value: 'string',
  feed: 'string?',
  firstSeen: 'string?',
  lastSeen: 'string?',
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Writes a run's ids: new ones from its day, known ones moved to it (a re-run moves `last_seen`). */
export function recordIdAssertionsStatement(asserted: AssertedIds) {
  const ids = asserted.ids;
  const day = asserted.day ?? null;
  // One run's day: a TCGCSV day's, else the UTC day its feed_runs row started.
  return sql`INSERT INTO card_id_assertions AS a
         (card_uuid, variant_uuid, kind, value, feed, first_seen, last_seen, first_run, last_run)
       SELECT k.card_uuid, k.variant_uuid, k.kind, k.value, ${asserted.feed}, d.day, d.day, r.id, r.id
       FROM unnest(${ids.map((i) => i.cardUuid)}::uuid[], ${ids.map((i) => i.variantUuid)}::uuid[],
                   ${ids.map((i) => i.kind)}::text[], ${ids.map((i) => i.value)}::text[])
              AS k(card_uuid, variant_uuid, kind, value)
       CROSS JOIN (SELECT ${asserted.runId}::bigint AS id) r
       CROSS JOIN LATERAL (
         SELECT coalesce(${day}::date, (SELECT (f.started_at AT TIME ZONE 'UTC')::date FROM feed_runs f WHERE f.id = r.id)) AS day
       ) d
       ON CONFLICT ON CONSTRAINT card_id_assertions_key DO UPDATE SET
         first_seen = CASE WHEN a.first_seen <= EXCLUDED.first_seen OR a.first_seen IS NULL THEN a.first_seen ELSE EXCLUDED.first_seen END,
         first_run = CASE WHEN a.first_seen <= EXCLUDED.first_seen OR a.first_seen IS NULL THEN a.first_run ELSE EXCLUDED.first_run END,
         last_seen = CASE WHEN a.last_seen > EXCLUDED.last_seen THEN a.last_seen ELSE EXCLUDED.last_seen END,
         last_run = CASE WHEN a.last_seen > EXCLUDED.last_seen THEN a.last_run ELSE EXCLUDED.last_run END
       WHERE a.last_run IS DISTINCT FROM EXCLUDED.last_run`;
}

/**
 * Records a feed run's ids in the caller's transaction (the one writing what the run writes of
 * those cards), once per card, variant, kind and value. A back-filled row (no day known) keeps
 * `first_seen` null: the crosswalk does not know when it was first said. Returns the rows
 * written or moved.
 */
export async function recordIdAssertions(
  connection: Connection,
  asserted: AssertedIds | undefined,
): Promise<number> {
  if (!asserted || asserted.ids.length === 0) return 0;
  // ON CONFLICT DO UPDATE may touch a row once per statement: the faces of a card repeat its ids.
  const once = new Map(asserted.ids.map((i) => [`${i.cardUuid}|${i.variantUuid}|${i.kind}|${i.value}`, i]));
  return execute(connection, recordIdAssertionsStatement({ ...asserted, ids: [...once.values()] }));
}

export function cardOfRefStatement(ref: string) {
  const byUuid = UUID.test(ref);
  return db
    .selectFrom('cards')
    .select(['uuid', 'id'])
    .where(byUuid ? 'uuid' : 'id', '=', byUuid ? ref.toLowerCase() : ref);
}

/** The columns of an assertion `a` with its card `c` and variant `v`. */
function assertions() {
  return db
    .selectFrom('card_id_assertions as a')
    .innerJoin('cards as c', 'c.uuid', 'a.card_uuid')
    .leftJoin('variants as v', 'v.uuid', 'a.variant_uuid')
    .select([
      'a.card_uuid as cardUuid',
      'c.id as cardSlug',
      'a.variant_uuid as variantUuid',
      'v.id as variantSlug',
      'a.kind',
      'a.value',
      'a.feed',
      sql<string | null>`to_char(a.first_seen, 'YYYY-MM-DD')`.as('firstSeen'),
      sql<string | null>`to_char(a.last_seen, 'YYYY-MM-DD')`.as('lastSeen'),
    ]);
}

export function assertionsOfCardStatement(cardUuid: string) {
  return assertions()
    .where('a.card_uuid', '=', cardUuid)
    .orderBy(sql`a.variant_uuid IS NOT NULL`)
    .orderBy('v.id')
    .orderBy('a.kind')
    .orderBy('a.value')
    .orderBy(sql`a.feed NULLS LAST`)
    .limit(MAX_CARD_ASSERTIONS);
}

/** Other cards' assertions of a kind and value this card has (through the kind + value index). */
export function sharedElsewhereStatement(cardUuid: string) {
  return assertions()
    .where(
      sql<boolean>`(a.kind, a.value) IN (SELECT m.kind, m.value FROM card_id_assertions m WHERE m.card_uuid = ${cardUuid})`,
    )
    .where('a.card_uuid', '<>', cardUuid)
    .orderBy('a.kind')
    .orderBy('a.value')
    .orderBy('c.id')
    .orderBy('v.id')
    .orderBy(sql`a.feed NULLS LAST`)
    .limit(MAX_SHARED_ASSERTIONS);
}

export function holdersStatement(kind: IdKind, value: string) {
  return assertions()
    .where('a.kind', '=', kind)
    .where('a.value', '=', value)
    .orderBy('c.id')
    .orderBy('v.id')
    .orderBy(sql`a.feed NULLS LAST`)
    .limit(MAX_SHARED_ASSERTIONS);
}

/** The crosswalk's reads, on the primary (a cold read: no replica routing, no prepared statement). */
export class KyselyIdCrosswalkRepository implements IdCrosswalkReads {
  constructor(private readonly ds: DataSource) {}

  private get pool(): Connection {
    return poolOf(this.ds);
  }

  async cardIds(ref: string): Promise<CardIdAssertions | undefined> {
    const [card] = await rowsOf(this.pool, CARD_ROW, cardOfRefStatement(ref));
    if (!card) return undefined;
    const [own, elsewhere] = await Promise.all([
      rowsOf(this.pool, ASSERTION_ROW, assertionsOfCardStatement(card.uuid)),
      rowsOf(this.pool, ASSERTION_ROW, sharedElsewhereStatement(card.uuid)),
    ]);
    return {
      card: { uuid: card.uuid, slug: card.id },
      assertions: own.map(toAssertion),
      elsewhere: elsewhere.map(toAssertion),
    };
  }

  async holders(kind: IdKind, value: string): Promise<StoredIdAssertion[]> {
    return (await rowsOf(this.pool, ASSERTION_ROW, holdersStatement(kind, value))).map(toAssertion);
  }
}

function toAssertion(row: {
  cardUuid: string;
  cardSlug: string;
  variantUuid: string | null;
  variantSlug: string | null;
  kind: string;
  value: string;
  feed: string | null;
  firstSeen: string | null;
  lastSeen: string | null;
}): StoredIdAssertion {
  return { ...row, kind: kindOf(row.kind), feed: row.feed === null ? null : feedOf(row.feed) };
}

/** The table's CHECK constraints allow nothing else; a row that breaks them is a bug to surface. */
function kindOf(text: string): IdKind {
  if (isIdKind(text)) return text;
  throw new Error(`card_id_assertions: unknown kind ${JSON.stringify(text)}`);
}

function feedOf(text: string): IdFeed {
  const feed = ID_FEEDS.find((f) => f === text);
  if (feed) return feed;
  throw new Error(`card_id_assertions: unknown feed ${JSON.stringify(text)}`);
}
