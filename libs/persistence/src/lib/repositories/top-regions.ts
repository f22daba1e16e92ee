import { TOP_REGION_SQL, topRegionSql } from './card-sql';

/** How long an answer of TOP_REGION_SQL is reused. */
const TOP_REGION_TTL_MS = 5_000;
/** Regions remembered at most (market codes and countries are a few hundred). */
const MAX_REGIONS = 512;

/**
 * Which card_tops region a request reads (`topRegionSql`), remembered for a few seconds: whether
 * card_tops holds a region changes only when the region gets its first price or loses its last,
 * and asking costs a round trip on every sorted or summarised browse. Within the TTL after such a
 * change a browse of that region reads as before it; card_tops itself lags writes until the next
 * summary refresh anyway.
 */
export class TopRegions {
  private readonly known = new Map<string, { priced: boolean; until: number }>();

  constructor(private readonly run: (sql: string, params: unknown[]) => Promise<{ priced: boolean }[]>) {}

  /** The region's SQL (`topRegionSql`), and whether anything is priced there. */
  async of(region: string): Promise<{ sql: string; priced: boolean }> {
    const now = Date.now();
    let hit = this.known.get(region);
    if (!hit || hit.until <= now) {
      const [row] = await this.run(TOP_REGION_SQL, [region]);
      if (this.known.size >= MAX_REGIONS) this.known.clear();
      hit = { priced: row!.priced, until: now + TOP_REGION_TTL_MS };
      this.known.set(region, hit);
    }
    return { sql: topRegionSql(hit.priced), priced: hit.priced };
  }
}
