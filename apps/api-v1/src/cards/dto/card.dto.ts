import { toMajor, v1Printing } from '@tcg/domain';
import { PresentedWindow, presentStats } from '@tcg/pricing-stats';
import { CardWithVariants, PricedVariant } from '@tcg/persistence';
import { UsageMetadataDto } from '../../common/decorators/usage.decorator';
import { StatisticWindow } from './cards-query';

export interface PricePointDto {
  p: number;
  t: number;
}

/** interface.md "v1 Variant" with every flat statistic field of decisions.md. */
export type VariantDto = {
  id: string;
  uuid: string;
  condition: string;
  printing: string;
  language: string;
  vendorSkuId: string | null;
  price: number | null;
  lastUpdated: number | null;
  priceChange24hr: number | null;
  priceHistory: PricePointDto[] | null;
  priceHistory30d: PricePointDto[] | null;
} & Record<string, number | string | null | PricePointDto[]>;

export interface CardDto {
  id: string;
  uuid: string;
  name: string;
  game: string;
  set: string;
  set_name: string;
  number: string | null;
  vendorId: string | null;
  opensetId: string | null;
  imagedbId: string | null;
  rarity: string | null;
  details: string | null;
  variants: VariantDto[];
}

export interface CardsResponseDto {
  data: CardDto[];
  meta: { total: number; limit: number; offset: number; hasMore: boolean };
  _metadata: UsageMetadataDto;
}

type History = { t: number[]; p: number[] } | undefined;

function points(h: History, since: number): PricePointDto[] {
  const out: PricePointDto[] = [];
  if (!h) return out;
  for (let i = 0; i < h.t.length; i++) if (h.t[i]! > since) out.push({ p: toMajor(h.p[i]!), t: h.t[i]! });
  return out;
}

const NO_WINDOW: PresentedWindow = {
  change: null,
  avg: null,
  min: null,
  max: null,
  stddev: null,
  cov: null,
  iqr: null,
  trendSlope: null,
  changesCount: null,
  rangePosition: null,
};
const NO_EXTREMES = { min: null, max: null, minDate: null, maxDate: null };

/**
 * The variant with every flat v1 statistic of decisions.md (null for windows not asked for).
 * One object literal with fixed keys: a batch builds thousands of these, and building them from
 * spread fragments with computed keys cost more than the database queries (measured: 55 ms of
 * a 210 ms 200-card batch, plus the garbage it left).
 */
export function toVariantDto(
  pv: PricedVariant,
  history: History,
  opts: { windows: ReadonlySet<StatisticWindow>; includeHistory: boolean; durationSeconds: number },
): VariantDto {
  const v = pv.variant;
  const s = pv.stats ? presentStats(pv.stats) : null;
  const now = pv.stats?.current?.t;
  const pick = (w: '7d' | '30d' | '90d') => (s && opts.windows.has(w) ? s[w] : NO_WINDOW);
  const w7 = pick('7d');
  const w30 = pick('30d');
  const w90 = pick('90d');
  const y = s && opts.windows.has('1y') ? s['1y'] : NO_EXTREMES;
  const all = s && opts.windows.has('allTime') ? s.allTime : NO_EXTREMES;
  return {
    id: v.id,
    uuid: v.uuid,
    condition: v.condition ?? '',
    printing: v1Printing(v.printing, v.language),
    language: v.language,
    vendorSkuId: v.vendorSkuId,
    price: s?.price ?? null,
    lastUpdated: s?.updatedAt ?? null,
    priceChange24hr: s?.change24h ?? null,
    priceChange7d: w7.change,
    avgPrice: w7.avg,
    minPrice7d: w7.min,
    maxPrice7d: w7.max,
    stddevPopPrice7d: w7.stddev,
    covPrice7d: w7.cov,
    iqrPrice7d: w7.iqr,
    trendSlope7d: w7.trendSlope,
    priceChangesCount7d: w7.changesCount,
    priceChange30d: w30.change,
    avgPrice30d: w30.avg,
    minPrice30d: w30.min,
    maxPrice30d: w30.max,
    stddevPopPrice30d: w30.stddev,
    covPrice30d: w30.cov,
    iqrPrice30d: w30.iqr,
    trendSlope30d: w30.trendSlope,
    priceChangesCount30d: w30.changesCount,
    priceRelativeTo30dRange: w30.rangePosition,
    priceChange90d: w90.change,
    avgPrice90d: w90.avg,
    minPrice90d: w90.min,
    maxPrice90d: w90.max,
    stddevPopPrice90d: w90.stddev,
    covPrice90d: w90.cov,
    iqrPrice90d: w90.iqr,
    trendSlope90d: w90.trendSlope,
    priceChangesCount90d: w90.changesCount,
    priceRelativeTo90dRange: w90.rangePosition,
    minPrice1y: y.min,
    maxPrice1y: y.max,
    minPriceAllTime: all.min,
    minPriceAllTimeDate: all.minDate,
    maxPriceAllTime: all.max,
    maxPriceAllTimeDate: all.maxDate,
    // History covers the duration back from the variant's latest observation, as the statistics do.
    priceHistory: opts.includeHistory
      ? now === undefined
        ? []
        : points(history, now - opts.durationSeconds)
      : null,
    priceHistory30d: opts.includeHistory ? (now === undefined ? [] : points(history, now - 2_592_000)) : null,
  };
}

export function toCardDto(c: CardWithVariants, variants: VariantDto[]): CardDto {
  return {
    id: c.card.id,
    uuid: c.card.uuid,
    name: c.card.name,
    game: c.card.gameId,
    set: c.card.setId,
    set_name: c.setName,
    number: c.card.number,
    vendorId: c.card.vendorId,
    opensetId: c.card.opensetId,
    imagedbId: c.card.imagedbId,
    rarity: c.card.rarity,
    details: c.card.details,
    variants,
  };
}
