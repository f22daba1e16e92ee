import type { PriceSource } from '@tcg/domain';
import { PriceIngestRepository } from '@tcg/persistence';
import type { PoolClient } from 'pg';
import type { DataSource } from 'typeorm';
import type { Paced } from '../common/rest-ratio';

/** Observations per ingest: the importer's default batch. */
export const DAY_BATCH = 5_000;
/** The most observations one ingest of the day takes (`--batch`). */
export const MAX_DAY_BATCH = 50_000;

/**
 * A day's prices of one game: every priced variant and region observed once more, at now, 1% up,
 * from its stored source (a series of another source would be replaced whole, as a first real feed
 * replaces the sample's simulated prices: not a day's sync), set after set, in batches of `batch`
 * (the importer's by default; a feed that commits each group writes a few hundred) through its
 * repository, each batch `paced` (a rest after it, see pacedBy) and committed as a data version.
 * Returns the observations written; `onBatch` hears the count so far after each batch.
 */
export async function ingestADay(
  ds: DataSource,
  client: PoolClient,
  gameId: string,
  paced: Paced,
  onBatch: (done: number, of: number) => void,
  batch = DAY_BATCH,
): Promise<number> {
  const { rows } = await client.query<{
    variant_uuid: string;
    region: string;
    price: string;
    source: PriceSource;
  }>(
    `SELECT vp.variant_uuid::text, vp.region, vp.price::text, vp.source FROM variant_prices vp
       JOIN variants v ON v.uuid = vp.variant_uuid JOIN cards c ON c.uuid = v.card_uuid
      WHERE c.game_id = $1 ORDER BY vp.source, c.set_uuid, c.uuid, vp.variant_uuid, vp.region`,
    [gameId],
  );
  const ingest = new PriceIngestRepository(ds);
  const t = Math.floor(Date.now() / 1000);
  for (let at = 0; at < rows.length;) {
    const source = rows[at]!.source;
    let end = at;
    while (end < rows.length && end - at < batch && rows[end]!.source === source) end++;
    const observations = rows.slice(at, end).map((r) => ({
      variantUuid: r.variant_uuid,
      region: r.region,
      t,
      price: Math.max(1, Math.round(Number(r.price) * 1.01)),
    }));
    await paced(() => ingest.ingest(observations, source));
    at = end;
    onBatch(at, rows.length);
  }
  return rows.length;
}
