import { Variant } from '@tcg/domain';
import { computeSeriesStats } from '@tcg/pricing-stats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderSeries } from './rendered-series';
import { v1VariantHead } from './v1';
import { v2VariantHead } from './v2';

/**
 * The exact bytes of every stored part. Stored text is rendered when prices (or variants) are
 * written, so a change of the wire format here is not seen by rows already stored until they are
 * rendered again: when this test fails on purpose, add a migration that renders the stored rows
 * again (as RenderedSeries1764690000000, RenderedVariantHeads1764700000000 and PriceSources1764900000000
 * do), then update
 * rendering.golden.json.
 */
const golden = JSON.parse(readFileSync(join(__dirname, 'rendering.golden.json'), 'utf8')) as {
  series: Record<'NA' | 'JP', unknown>;
  heads: { v1: string; v2: string }[];
};

const series = {
  t: [
    1767225600, 1767484800, 1767744000, 1768003200, 1768262400, 1768521600, 1768780800, 1769040000,
    1769299200, 1769558400, 1769817600, 1770076800,
  ],
  p: [1999, 2274, 2199, 2024, 2124, 2224, 2049, 2149, 2249, 2074, 2174, 1999],
};
const variants: Variant[] = [
  {
    uuid: '0b0b0b0b-0000-4000-8000-000000000001',
    id: 'card-psa-10',
    cardUuid: '0b0b0b0b-0000-4000-8000-000000000000',
    type: 'graded',
    condition: null,
    printing: 'Foil',
    language: 'Japanese',
    vendorSkuId: null,
    grading: { company: 'PSA', grade: 10, gradeLabel: 'Gem Mint', qualifier: null },
  },
  {
    uuid: '0b0b0b0b-0000-4000-8000-000000000002',
    id: 'card-nm-normal',
    cardUuid: '0b0b0b0b-0000-4000-8000-000000000000',
    type: 'raw',
    condition: 'Near Mint',
    printing: 'Normal',
    language: 'English',
    vendorSkuId: '4242',
    grading: null,
  },
];

describe('the stored parts, byte for byte', () => {
  it('renders each series part as the rows already stored hold it', () => {
    const stats = computeSeriesStats(series.t, series.p);
    expect(renderSeries('NA', 'USD', stats, series, 'simulated')).toEqual(golden.series.NA);
    expect(renderSeries('JP', 'JPY', stats, series, 'simulated')).toEqual(golden.series.JP);
  });

  it('renders each variant head as the rows already stored hold it', () => {
    expect(variants.map((v) => ({ v1: v1VariantHead(v), v2: v2VariantHead(v) }))).toEqual(golden.heads);
  });
});
