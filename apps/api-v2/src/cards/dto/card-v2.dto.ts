import { canonicalGrade, GradingCompany, minorUnitsPerMajor, Region, toMajor } from '@tcg/domain';
import { PresentedStats, PresentedWindow, presentStats, SeriesStats } from '@tcg/pricing-stats';
import { CardWithVariants, PricedVariant } from '@tcg/persistence';
import { Include, PeriodWindow } from './cards-v2-query';

/** interface.md "v2 PricePoint". */
export interface PricePointV2 {
  t: number;
  p: number;
}

/** interface.md "v2 PeriodStats": only the fields the window carries. */
export type PeriodStatsV2 = Partial<{
  change_pct: number | null;
  avg: number | null;
  min: number | null;
  max: number | null;
  stddev: number | null;
  cov: number | null;
  iqr: number | null;
  trend_slope: number | null;
  changes_count: number | null;
  range_position: number | null;
  min_date: string | null;
  max_date: string | null;
}>;

/** interface.md "v2 Market". `price` is always present; `periods` and `price_history` when asked for. */
export interface MarketV2 {
  region: string;
  currency: string;
  price: number | null;
  /** null when the region has no observation of this variant. */
  updated_at: number | null;
  change_24h_pct: number | null;
  periods?: Partial<Record<PeriodWindow, PeriodStatsV2>>;
  price_history?: PricePointV2[];
}

export interface GradingV2 {
  company: GradingCompany;
  grade: number | null;
  grade_label: string | null;
  qualifier: string | null;
  canonical: string;
}

export interface VariantV2 {
  id: string;
  slug: string;
  type: 'raw' | 'graded';
  condition: string | null;
  printing: string | null;
  language: string | null;
  external_ids: { vendor_sku: string | null };
  grading: GradingV2 | null;
  markets: MarketV2[];
}

export interface CardV2 {
  id: string;
  slug: string;
  name: string;
  game: { id: string; name: string };
  set: { id: string; name: string | null };
  number: string | null;
  rarity: string | null;
  external_ids: { vendor: string | null; imagedb: string | null; openset: string | null };
  details: string | null;
  variants: VariantV2[];
}

export interface CardsV2Response {
  data: CardV2[];
  meta: {
    count: number;
    total: number | null;
    limit: number;
    has_more: boolean;
    cursor: { next: string | null; prev: string | null };
  };
}

export interface CardV2Response {
  data: CardV2;
}

/** Observations by variant UUID, per storage region. */
export type HistoryByRegion = ReadonlyMap<string, ReadonlyMap<string, { t: number[]; p: number[] }>>;

function fullWindow(w: PresentedWindow, withRange: boolean): PeriodStatsV2 {
  const out: PeriodStatsV2 = {
    change_pct: w.change,
    avg: w.avg,
    min: w.min,
    max: w.max,
    stddev: w.stddev,
    cov: w.cov,
    iqr: w.iqr,
    trend_slope: w.trendSlope,
    changes_count: w.changesCount,
  };
  if (withRange) out.range_position = w.rangePosition;
  return out;
}

function periods(
  s: PresentedStats,
  windows: ReadonlySet<PeriodWindow>,
): Partial<Record<PeriodWindow, PeriodStatsV2>> {
  const out: Partial<Record<PeriodWindow, PeriodStatsV2>> = {};
  if (windows.has('7d')) out['7d'] = fullWindow(s['7d'], false);
  if (windows.has('30d')) out['30d'] = fullWindow(s['30d'], true);
  if (windows.has('90d')) out['90d'] = fullWindow(s['90d'], true);
  if (windows.has('1y')) out['1y'] = { min: s['1y'].min, max: s['1y'].max };
  if (windows.has('all_time'))
    out.all_time = {
      min: s.allTime.min,
      max: s.allTime.max,
      min_date: s.allTime.minDate,
      max_date: s.allTime.maxDate,
    };
  return out;
}

function statsIn(pv: PricedVariant, storageRegion: string, primary: string): SeriesStats | null {
  return storageRegion === primary ? pv.stats : (pv.otherRegions?.[storageRegion] ?? null);
}

/**
 * One market per requested region. A region without observations gets `price: null` and empty
 * components — never another region's figures (interface.md Regions rule 4).
 */
function market(
  pv: PricedVariant,
  region: Region,
  primary: string,
  include: Include,
  history: HistoryByRegion,
): MarketV2 {
  const stats = statsIn(pv, region.storageRegion, primary);
  const perMajor = minorUnitsPerMajor(region.currency);
  const s = stats ? presentStats(stats, perMajor) : null;
  const out: MarketV2 = {
    region: region.code,
    currency: region.currency,
    price: s?.price ?? null,
    updated_at: s?.updatedAt ?? null,
    change_24h_pct: s?.change24h ?? null,
  };
  if (include.withPeriods) out.periods = s ? periods(s, include.periods) : {};
  if (include.historySeconds !== undefined) {
    const now = stats?.current?.t;
    const series = history.get(region.storageRegion)?.get(pv.variant.uuid);
    const points: PricePointV2[] = [];
    if (now !== undefined && series) {
      const since = now - include.historySeconds;
      for (let i = 0; i < series.t.length; i++)
        if (series.t[i]! > since) points.push({ t: series.t[i]!, p: toMajor(series.p[i]!, perMajor) });
    }
    out.price_history = points;
  }
  return out;
}

export function toVariantV2(
  pv: PricedVariant,
  regions: readonly Region[],
  include: Include,
  history: HistoryByRegion,
): VariantV2 {
  const v = pv.variant;
  const primary = regions[0]!.storageRegion;
  return {
    id: v.uuid,
    slug: v.id,
    type: v.type,
    condition: v.condition,
    printing: v.printing,
    language: v.language === 'English' ? null : v.language,
    external_ids: { vendor_sku: v.vendorSkuId },
    grading: v.grading
      ? {
          company: v.grading.company,
          grade: v.grading.grade,
          grade_label: v.grading.gradeLabel,
          qualifier: v.grading.qualifier,
          canonical: canonicalGrade(v.grading),
        }
      : null,
    markets: regions.map((r) => market(pv, r, primary, include, history)),
  };
}

export function toCardV2(
  c: CardWithVariants,
  regions: readonly Region[],
  include: Include,
  history: HistoryByRegion,
): CardV2 {
  return {
    id: c.card.uuid,
    slug: c.card.id,
    name: c.card.name,
    game: { id: c.card.gameId, name: c.gameName },
    set: { id: c.card.setId, name: c.setName },
    number: c.card.number,
    rarity: c.card.rarity,
    external_ids: { vendor: c.card.vendorId, imagedb: c.card.imagedbId, openset: c.card.opensetId },
    details: c.card.details,
    variants: c.variants.map((v) => toVariantV2(v, regions, include, history)),
  };
}
