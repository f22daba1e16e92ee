import fc from 'fast-check';
import { buildCatalogue, type Catalogue, type CatalogueCard } from '../catalogue';
import { variantLevelCents } from './price-level';
import {
  DEFAULT_PRICE_SEED,
  hasNoPrice,
  simulateSeries,
  type SimulatedSeries,
  type SimulationInput,
} from './index';

const ASOF = Date.UTC(2026, 10, 22, 14, 13, 7) / 1000; // 2026-11-22T14:13:07Z
const DAY = 86_400;
const { isInteger } = Number; // bound once: global lookups are slow in Jest's vm context

/** A compact, exact rendering of a series for equality checks (Jest compares typed arrays slowly). */
function text(s: SimulatedSeries | null): string {
  return s === null ? 'null' : `${Array.from(s.t).join(',')}|${Array.from(s.p).join(',')}`;
}

let small: Catalogue;
let inputs: SimulationInput[];
beforeAll(() => {
  small = buildCatalogue('small');
  const cardByUuid = new Map(small.cards.map((c) => [c.uuid, c]));
  const releaseBySet = new Map(small.sets.map((s) => [s.id, s.releaseDate]));
  inputs = small.variants.map((variant) => {
    const card = cardByUuid.get(variant.cardUuid)!;
    return { variant, card, setReleaseDate: releaseBySet.get(card.setId) ?? null };
  });
});

function find(cardId: string, variantSuffix: string): SimulationInput {
  const input = inputs.find((i) => i.card.id === cardId && i.variant.id === cardId + variantSuffix);
  if (!input) throw new Error(`no variant ${cardId}${variantSuffix}`);
  return input;
}

function checkSeries(s: SimulatedSeries, asOf: number): void {
  expect(s.t.length).toBe(s.p.length);
  expect(s.t.length).toBeGreaterThan(0);
  for (let i = 0; i < s.t.length; i++) {
    if (i > 0 && !(s.t[i]! > s.t[i - 1]!)) throw new Error(`t not strictly increasing at ${i}`);
    if (!isInteger(s.p[i]) || s.p[i]! < 1) throw new Error(`bad price ${s.p[i]} at ${i}`);
    if (!isInteger(s.t[i])) throw new Error(`bad time ${s.t[i]} at ${i}`);
  }
  expect(s.t[s.t.length - 1]!).toBeLessThanOrEqual(asOf);
}

describe('simulateSeries', () => {
  it('is deterministic and independent of call order', () => {
    const sample = inputs.filter((_, i) => i % 50 === 0);
    const forward = sample.map((i) => text(simulateSeries(i, ASOF)));
    const backward = [...sample]
      .reverse()
      .map((i) => text(simulateSeries(i, ASOF)))
      .reverse();
    expect(backward).toEqual(forward);
    expect(text(simulateSeries(sample[1]!, ASOF, DEFAULT_PRICE_SEED))).toBe(forward[1]);
  });

  it('changes with the seed', () => {
    const input = find('magic-the-gathering-aether-revolt-fatal-push-uncommon', '_near-mint_normal');
    expect(text(simulateSeries(input, ASOF, 1))).not.toBe(text(simulateSeries(input, ASOF, 2)));
  });

  it('covers two years daily plus 6-hourly points over the last week, all valid', () => {
    let checked = 0;
    for (const input of inputs.filter((_, i) => i % 7 === 0)) {
      const s = simulateSeries(input, ASOF);
      if (!s) continue;
      checkSeries(s, ASOF);
      checked++;
    }
    expect(checked).toBeGreaterThan(1000);
    const old = simulateSeries(
      find('magic-the-gathering-limited-edition-alpha-black-lotus-rare', '_near-mint_normal'),
      ASOF,
    )!;
    expect(old.t[0]).toBe(Math.floor(ASOF / DAY) * DAY - 729 * DAY);
    const lastWeek = Array.from(old.t).filter((t) => t > ASOF - 7 * DAY);
    expect(lastWeek.length).toBeGreaterThanOrEqual(27); // 4 a day
    for (let i = 1; i < lastWeek.length; i++) expect(lastWeek[i]! - lastWeek[i - 1]!).toBe(21_600);
    expect(old.t.length).toBe(723 + 28 + 2); // 14:13 → the 06:00 and 12:00 points of today
  });

  it('keeps the invariants for any asOf (property)', () => {
    const input = find('magic-the-gathering-aether-revolt-fatal-push-uncommon', '_near-mint_normal');
    fc.assert(
      fc.property(fc.integer({ min: 1_400_000_000, max: 2_000_000_000 }), (asOf) => {
        const s = simulateSeries(input, asOf);
        if (s === null) return asOf < Date.UTC(2017, 0, 20) / 1000 || hasNoPrice(input.variant.uuid);
        checkSeries(s, asOf);
        return s.t[0]! >= Date.UTC(2017, 0, 20) / 1000;
      }),
      { numRuns: 60 },
    );
  });

  it('starts at the release day of a recent set and has no price before release', () => {
    const input = find('magic-the-gathering-aether-revolt-fatal-push-uncommon', '_near-mint_normal');
    const release = Date.UTC(2017, 0, 20) / 1000;
    const s = simulateSeries(input, release + 100 * DAY + 3600)!;
    expect(s.t[0]).toBe(release);
    expect(s.t.length).toBe(101 - 7 + 28);
    expect(simulateSeries(input, release - 1)).toBeNull();
  });

  it('has flat stretches: many consecutive days at an identical price', () => {
    const s = simulateSeries(
      find('magic-the-gathering-limited-edition-alpha-black-lotus-rare', '_damaged_normal'),
      ASOF,
    )!;
    let same = 0;
    for (let i = 1; i < s.p.length; i++) if (s.p[i] === s.p[i - 1]) same++;
    expect(same / s.p.length).toBeGreaterThan(0.3);
    expect(new Set(s.p).size).toBeGreaterThan(10);
  });

  it('returns no price for about 3 % of variants', () => {
    const nulls = inputs.filter((i) => simulateSeries(i, ASOF) === null).length;
    expect(nulls / inputs.length).toBeGreaterThan(0.02);
    expect(nulls / inputs.length).toBeLessThan(0.04);
    for (const i of inputs.slice(0, 500))
      expect(simulateSeries(i, ASOF) === null).toBe(hasNoPrice(i.variant.uuid));
  });
});

describe('price levels', () => {
  function level(cardId: string, suffix: string): number {
    const i = find(cardId, suffix);
    return variantLevelCents(i.variant, i.card, i.setReleaseDate);
  }
  const lotus = 'magic-the-gathering-limited-edition-alpha-black-lotus-rare';

  it('prices Alpha Black Lotus in the tens of thousands of dollars and commons in cents', () => {
    expect(level(lotus, '_near-mint_normal')).toBeGreaterThan(2_000_000);
    const common = inputs.find((i) => i.card.rarity === 'Common' && i.card.setId.endsWith('aether-revolt'))!;
    expect(variantLevelCents(common.variant, common.card, common.setReleaseDate)).toBeLessThan(100);
  });

  it('orders conditions, foils and grades sensibly', () => {
    const order = [
      '_near-mint_normal',
      '_lightly-played_normal',
      '_moderately-played_normal',
      '_heavily-played_normal',
      '_damaged_normal',
    ];
    const levels = order.map((s) => level(lotus, s));
    for (let i = 1; i < levels.length; i++) expect(levels[i]!).toBeLessThan(levels[i - 1]!);
    expect(level(lotus, '_psa-10_normal')).toBeGreaterThan(level(lotus, '_near-mint_normal') * 3);
    const push = 'magic-the-gathering-aether-revolt-fatal-push-uncommon';
    expect(level(push, '_near-mint_foil')).toBeGreaterThan(level(push, '_near-mint_normal'));
  });

  it('rounds every observation to integer cents and keeps graded slabs above their floor', () => {
    const graded = inputs.filter((i) => i.variant.type === 'graded').slice(0, 200);
    for (const i of graded)
      expect(variantLevelCents(i.variant, i.card, i.setReleaseDate)).toBeGreaterThanOrEqual(1500);
  });

  it('depends on the card tier', () => {
    const base = inputs[0]!;
    const at = (valueTier: number) =>
      variantLevelCents(base.variant, { ...base.card, valueTier } as CatalogueCard, base.setReleaseDate);
    expect(at(6) / at(4)).toBeCloseTo(10, 5);
  });
});
