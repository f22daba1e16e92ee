import { topRegionSql } from './card-sql';

/** How long an answer of `readTopRegion` is reused. */
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
  /** Per region, whether something is priced there, asked at most once per TTL (even side by side). */
  private readonly known = new Map<string, { priced: Promise<boolean>; until: number }>();

  /** `priced`: whether card_tops holds the region (`readTopRegion`). */
  constructor(private readonly priced: (region: string) => Promise<boolean>) {}

  /** The region's SQL (`topRegionSql`), and whether anything is priced there. */
  async of(region: string): Promise<{ sql: string; priced: boolean }> {
    const now = Date.now();
    let hit = this.known.get(region);
    if (!hit || hit.until <= now) {
      if (this.known.size >= MAX_REGIONS) this.known.clear();
      const priced = this.priced(region);
      hit = { priced, until: now + TOP_REGION_TTL_MS };
      this.known.set(region, hit);
      // A failed lookup is not remembered.
      priced.catch(() => this.known.get(region) === hit && this.known.delete(region));
    }
    const priced = await hit.priced;
    return { sql: topRegionSql(priced), priced };
  }
}
