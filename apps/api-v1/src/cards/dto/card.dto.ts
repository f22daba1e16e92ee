import { toMajor, v1Printing } from '@tcg/domain';
import { PresentedStats, presentStats } from '@tcg/pricing-stats';
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

/** The flat v1 names of decisions.md, null for windows not asked for. */
function flatStatistics(
  s: PresentedStats | null,
  windows: ReadonlySet<StatisticWindow>,
): Record<string, number | string | null> {
  const pick = (w: StatisticWindow) => (s && windows.has(w) ? s : null);
  const full = (w: '7d' | '30d' | '90d', suffix: string) => {
    const x = pick(w)?.[w] ?? null;
    const out: Record<string, number | null> = {
      [`priceChange${w}`]: x?.change ?? null,
      [`avgPrice${suffix}`]: x?.avg ?? null,
      [`minPrice${w}`]: x?.min ?? null,
      [`maxPrice${w}`]: x?.max ?? null,
      [`stddevPopPrice${w}`]: x?.stddev ?? null,
      [`covPrice${w}`]: x?.cov ?? null,
      [`iqrPrice${w}`]: x?.iqr ?? null,
      [`trendSlope${w}`]: x?.trendSlope ?? null,
      [`priceChangesCount${w}`]: x?.changesCount ?? null,
    };
    if (w !== '7d') out[`priceRelativeTo${w}Range`] = x?.rangePosition ?? null;
    return out;
  };
  const y = pick('1y')?.['1y'];
  const all = pick('allTime')?.allTime;
  return {
    ...full('7d', ''),
    ...full('30d', '30d'),
    ...full('90d', '90d'),
    minPrice1y: y?.min ?? null,
    maxPrice1y: y?.max ?? null,
    minPriceAllTime: all?.min ?? null,
    minPriceAllTimeDate: all?.minDate ?? null,
    maxPriceAllTime: all?.max ?? null,
    maxPriceAllTimeDate: all?.maxDate ?? null,
  };
}

function points(h: History, since: number): PricePointDto[] {
  const out: PricePointDto[] = [];
  if (!h) return out;
  for (let i = 0; i < h.t.length; i++) if (h.t[i]! > since) out.push({ p: toMajor(h.p[i]!), t: h.t[i]! });
  return out;
}

export function toVariantDto(
  pv: PricedVariant,
  history: History,
  opts: { windows: ReadonlySet<StatisticWindow>; includeHistory: boolean; durationSeconds: number },
): VariantDto {
  const v = pv.variant;
  const s = pv.stats ? presentStats(pv.stats) : null;
  const now = pv.stats?.current?.t;
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
    ...flatStatistics(s, opts.windows),
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
