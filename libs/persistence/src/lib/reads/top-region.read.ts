import type { ReadSource } from './read-replicas';
import { db } from '../sql/compile';
import { rowSchema } from '../sql/row-schema';
import { runRead } from './run-read';

const ROW = rowSchema('top region', { priced: 'boolean' });

/** How long an answer of `readTopRegion` is reused. */
const TOP_REGION_TTL_MS = 5_000;
/** Regions remembered at most (market codes and countries are a few hundred). */
const MAX_REGIONS = 512;

/**
 * Whether card_tops holds `region` (something is priced there): a statement of its own, so that
 * the page's statement names the card_tops region as a constant the planner sees (`topRegionMatch`).
 */
export function topRegionStatement(region: string) {
  return db.selectNoFrom((eb) =>
    eb
      .exists(eb.selectFrom('card_tops').select(eb.lit(1).as('one')).where('region', '=', region))
      .as('priced'),
  );
}

export async function readTopRegion(source: ReadSource, region: string): Promise<boolean> {
  const [row] = await runRead(source, ROW, topRegionStatement(region));
  return row!.priced;
}

/**
 * `readTopRegion`, remembered for a few seconds: whether card_tops holds a region changes only
 * when the region gets its first price or loses its last, and asking costs a round trip on every
 * sorted or summarised browse. Within the TTL after such a change a browse of that region reads as
 * before it; card_tops itself lags writes until the next summary refresh anyway.
 */
export class TopRegions {
  /** Per region, whether something is priced there, asked at most once per TTL (even side by side). */
  private readonly known = new Map<string, { priced: Promise<boolean>; until: number }>();

  constructor(private readonly source: ReadSource) {}

  /** Whether anything is priced in the region. */
  priced(region: string): Promise<boolean> {
    const now = Date.now();
    let hit = this.known.get(region);
    if (!hit || hit.until <= now) {
      if (this.known.size >= MAX_REGIONS) this.known.clear();
      const priced = readTopRegion(this.source, region);
      hit = { priced, until: now + TOP_REGION_TTL_MS };
      this.known.set(region, hit);
      // A failed lookup is not remembered.
      priced.catch(() => this.known.get(region) === hit && this.known.delete(region));
    }
    return hit.priced;
  }
}
