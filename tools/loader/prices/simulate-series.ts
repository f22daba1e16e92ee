import type { Variant } from '@tcg/domain';
import type { CatalogueCard } from '../catalogue';
import { fmix32, hash32 } from '../catalogue/stable-hash';
import { variantLevelCents } from './price-level';

export interface SimulationInput {
  variant: Variant;
  card: CatalogueCard;
  setReleaseDate: string | null;
}

/** Unix seconds strictly ascending, prices in integer cents (USD), same length. */
export interface SimulatedSeries {
  t: Int32Array | number[];
  p: Int32Array | number[];
}

/** The seed used when the caller gives none. Changing it changes every simulated price. */
export const DEFAULT_PRICE_SEED = 0x7c9a_2e51;

const DAY = 86_400;
const QUARTER_DAY = 21_600;
/** Daily observations cover the last 730 days; the last 7 of them have one every 6 hours instead. */
const HISTORY_DAYS = 730;
const INTRADAY_DAYS = 7;
/** Share of variants with no price at all, per 10,000. */
const NULL_PER_10K = 300;
const MAX_CENTS = 2_000_000_000;
// Bound once: inside a vm context (Jest) every `Math.x` lookup goes through the global object's
// interceptors and costs hundreds of nanoseconds, which this loop would pay billions of times.
const { imul, exp, round, floor, ceil, max, min, pow, log } = Math;

function releaseSeconds(date: string | null): number | null {
  if (date === null) return null;
  const ms = Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
  return Number.isFinite(ms) ? ms / 1000 : null;
}

/** True when the variant has no price at all (about 3 % of variants, chosen by a hash of its UUID). */
export function hasNoPrice(variantUuid: string, seed: number = DEFAULT_PRICE_SEED): boolean {
  return fmix32(hash32(variantUuid) ^ fmix32(seed ^ 0x9e3779b9)) % 10_000 < NULL_PER_10K;
}

/** Probability that a listed price moves on a given day: liquid mid-value NM cards move most. */
function dailyChangeProbability(input: SimulationInput): number {
  const { card, variant } = input;
  let p = card.valueTier <= 1 ? 0.25 : card.valueTier <= 3 ? 0.45 : card.valueTier <= 5 ? 0.6 : 0.5;
  if (card.sealed) p = 0.35;
  if (variant.type === 'graded') p *= 0.4;
  else if (variant.condition === 'Lightly Played') p *= 0.85;
  else if (variant.condition === 'Moderately Played') p *= 0.65;
  else if (variant.condition === 'Heavily Played') p *= 0.5;
  else if (variant.condition === 'Damaged') p *= 0.4;
  if (variant.language !== 'English') p *= 0.6;
  return p;
}

/**
 * A deterministic simulated price history for one variant, or null for "no price" (about 3 % of
 * variants, or a set released after `asOf`).
 *
 * Time grid (UTC): one observation at midnight for each of the days `asOf − 729 d … asOf − 7 d`,
 * then one every 6 hours up to the last 6-hour boundary at or before `asOf` (28 to 31 points); only
 * points on or after the set's release day are kept.
 *
 * Prices: a card-level market walk in log space, shared by every variant of the card (seeded by the
 * card UUID, so conditions and grades move together) with volatility by tier, mean reversion toward
 * a slow secular trend (sealed product appreciates about 25 % a year), trend regimes that come and
 * go (±0.2 %/day) and rare spikes (×1.3–×3.2) that decay by 8 % a day. Each variant (seeded by its
 * UUID) re-prices only on some steps (liquidity by tier, condition, grading and language), sometimes
 * holds a price for 5–30 days, and adds ±2 % noise. Prices are rounded to integer cents, at least 1.
 *
 * Deterministic in (variant UUID, card UUID, release date, asOf, seed), independent of call order.
 */
export function simulateSeries(
  input: SimulationInput,
  asOf: number,
  seed: number = DEFAULT_PRICE_SEED,
): SimulatedSeries | null {
  if (!Number.isFinite(asOf)) throw new RangeError(`asOf must be a finite Unix time, got ${asOf}`);
  if (hasNoPrice(input.variant.uuid, seed)) return null;

  // ---- time grid
  const today = floor(asOf / DAY) * DAY;
  const lastQuarter = floor(asOf / QUARTER_DAY) * QUARTER_DAY;
  const intradayBase = today - INTRADAY_DAYS * DAY;
  const lastM = (lastQuarter - intradayBase) / QUARTER_DAY; // intraday points intradayBase + m·6h, m = 1..lastM
  let firstK = HISTORY_DAYS - 1; // daily points today − k·1d, k = firstK..INTRADAY_DAYS
  let firstM = 1;
  const release = releaseSeconds(input.setReleaseDate);
  if (release !== null) {
    firstK = min(firstK, floor((today - release) / DAY));
    if (release > intradayBase) firstM = max(1, ceil((release - intradayBase) / QUARTER_DAY));
  }
  const nDaily = max(0, firstK - INTRADAY_DAYS + 1);
  const nIntraday = max(0, lastM - firstM + 1);
  const n = nDaily + nIntraday;
  if (n === 0) return null;
  const t = new Int32Array(n);
  const p = new Int32Array(n);
  for (let i = 0; i < nDaily; i++) t[i] = today - (firstK - i) * DAY;
  for (let j = 0; j < nIntraday; j++) t[nDaily + j] = intradayBase + (firstM + j) * QUARTER_DAY;

  // ---- parameters
  const { card } = input;
  const seedMix = fmix32(seed ^ 0x2545f491);
  let cs = fmix32(hash32(card.uuid) ^ seedMix) | 0; // card-level PRNG state (mulberry32)
  let vs = fmix32(hash32(input.variant.uuid) ^ seedMix ^ 0x68e31da4) | 0; // variant-level PRNG state
  const logLevel = log(max(variantLevelCents(input.variant, card, input.setReleaseDate), 0.5));
  const sigma = card.sealed ? 0.008 : card.valueTier <= 2 ? 0.02 : card.valueTier <= 5 ? 0.015 : 0.012;
  const kappa = 0.01; // mean reversion per day (half-life ≈ 70 days)
  const pDaily = dailyChangeProbability(input);
  const pQuarter = 1 - pow(1 - pDaily, 0.25);
  const sigmaQuarter = sigma * 0.5; // √0.25
  const spikeDecayDay = 0.92;
  const spikeDecayQuarter = pow(0.92, 0.25);

  // The loop below is the loader's hot path (~380M iterations for the full catalogue): the two
  // mulberry32 generators are written out inline on local integer states instead of calling a
  // function, which V8 would otherwise keep as closure-context loads and stores.
  let z = 0;
  cs = (cs + 0x6d2b79f5) | 0;
  z = imul(cs ^ (cs >>> 15), 1 | cs);
  z = (z + imul(z ^ (z >>> 7), 61 | z)) ^ z;
  const secular = card.sealed ? 0.0006 : (((z ^ (z >>> 14)) >>> 0) / 4294967296 - 0.5) * 0.0008; // per day, log
  cs = (cs + 0x6d2b79f5) | 0;
  z = imul(cs ^ (cs >>> 15), 1 | cs);
  z = (z + imul(z ^ (z >>> 7), 61 | z)) ^ z;
  const tEnd = t[n - 1]!;
  let target = -secular * ((tEnd - t[0]!) / DAY);
  let x = target + (((z ^ (z >>> 14)) >>> 0) / 4294967296 - 0.5) * 0.3;
  let drift = 0;
  let spike = 0;
  let flatLeft = 0;
  let price = 0;
  let u = 0;

  for (let i = 0; i < n; i++) {
    const intraday = i >= nDaily;
    const dt = intraday ? 0.25 : 1;
    let reprice = i === 0;
    if (i > 0) {
      // card-level market: regime changes, diffusion with mean reversion, spikes
      cs = (cs + 0x6d2b79f5) | 0;
      z = imul(cs ^ (cs >>> 15), 1 | cs);
      z = (z + imul(z ^ (z >>> 7), 61 | z)) ^ z;
      u = ((z ^ (z >>> 14)) >>> 0) / 4294967296;
      if (u < 0.03 * dt) {
        cs = (cs + 0x6d2b79f5) | 0;
        z = imul(cs ^ (cs >>> 15), 1 | cs);
        z = (z + imul(z ^ (z >>> 7), 61 | z)) ^ z;
        drift = u < 0.012 * dt ? (((z ^ (z >>> 14)) >>> 0) / 4294967296 - 0.5) * 0.004 : 0;
      }
      target += secular * dt;
      cs = (cs + 0x6d2b79f5) | 0;
      z = imul(cs ^ (cs >>> 15), 1 | cs);
      z = (z + imul(z ^ (z >>> 7), 61 | z)) ^ z;
      let g = ((z ^ (z >>> 14)) >>> 0) / 4294967296;
      cs = (cs + 0x6d2b79f5) | 0;
      z = imul(cs ^ (cs >>> 15), 1 | cs);
      z = (z + imul(z ^ (z >>> 7), 61 | z)) ^ z;
      g = (g + ((z ^ (z >>> 14)) >>> 0) / 4294967296 - 1) * 2.449489742783178; // ≈ N(0, 1), triangular
      x += (drift + kappa * (target - x)) * dt + (intraday ? sigmaQuarter : sigma) * g;
      spike *= intraday ? spikeDecayQuarter : spikeDecayDay;
      cs = (cs + 0x6d2b79f5) | 0;
      z = imul(cs ^ (cs >>> 15), 1 | cs);
      z = (z + imul(z ^ (z >>> 7), 61 | z)) ^ z;
      u = ((z ^ (z >>> 14)) >>> 0) / 4294967296;
      if (u < 0.0025 * dt) spike += 0.25 + (u / (0.0025 * dt)) * 0.9; // ×1.3 … ×3.2

      // variant level: hold (flat stretch) or re-price
      if (flatLeft > 0) flatLeft--;
      else {
        vs = (vs + 0x6d2b79f5) | 0;
        z = imul(vs ^ (vs >>> 15), 1 | vs);
        z = (z + imul(z ^ (z >>> 7), 61 | z)) ^ z;
        u = ((z ^ (z >>> 14)) >>> 0) / 4294967296;
        if (u < 0.01 * dt)
          flatLeft = floor((5 + (u / (0.01 * dt)) * 25) / dt); // hold 5–30 days
        else reprice = u < (intraday ? pQuarter : pDaily);
      }
    }
    if (reprice) {
      vs = (vs + 0x6d2b79f5) | 0;
      z = imul(vs ^ (vs >>> 15), 1 | vs);
      z = (z + imul(z ^ (z >>> 7), 61 | z)) ^ z;
      const v = round(exp(logLevel + x + spike + (((z ^ (z >>> 14)) >>> 0) / 4294967296 - 0.5) * 0.04));
      price = v < 1 ? 1 : v > MAX_CENTS ? MAX_CENTS : v;
    }
    p[i] = price;
  }
  return { t, p };
}
