import { truncateAll, withTestDatabase } from '@tcg/persistence/testing';
import { join } from 'node:path';
import { copiedInto, FEED_FIXTURES, syncFeeds, useSyncedGateway } from './feeds-cli';

/** Genuine MTGJSON 5.2.0 set files and SKU/price files in its code's shape: their README says whence. */
const REAL = join(FEED_FIXTURES, 'real/mtgjson');

const ALPHA_ANIMATE_WALL = '2b304dc1-8d7d-50a7-a310-2d0e5427935f';
const ALPHA_BOOSTER_PACK = '1dbdd2d3-1455-5a0d-b775-f33fc1fcd7e2';

interface V1Variant {
  condition: string;
  printing: string;
  language: string;
  vendorSkuId: string | null;
  price: number | null;
}
interface V2Card {
  name: string;
  external_ids: { vendor: string | null; openset: string | null };
  variants: { condition: string; printing: string; external_ids: { vendor_sku: string | null } }[];
}

/**
 * The MTGJSON feed synced by the built CLI from files MTGJSON published (a 5.2.0 AllPrintings that
 * predates the card `language` field) and SKUs spelled as its build writes them (`NEAR MINT`,
 * `NON FOIL`, `UNOPENED`, integer ids), then read through the gateway.
 */
describe('genuine MTGJSON files, synced and read through the gateway', () => {
  const { get } = useSyncedGateway(async () => {
    await withTestDatabase(truncateAll);
    const from = await copiedInto('feeds-real-e2e-', [
      [join(REAL, 'AllPrintings-5.2.0-3ED-LEA.json'), 'AllPrintings.json'],
      [join(REAL, 'TcgplayerSkus-code-shape-3ED-LEA.json'), 'TcgplayerSkus.json'],
      [join(REAL, 'AllPricesToday-code-shape-LEA.json'), 'AllPrices.json'],
    ]);
    await syncFeeds(['--feeds', 'mtgjson', '--from', from, '--dir', join(from, 'cache')]);
    return from;
  });

  it('puts each real SKU row on its variant: condition, printing and language in our words', async () => {
    const { data } = await get<{ data: { name: string; vendorId: string; variants: V1Variant[] }[] }>(
      `/v1/cards?opensetId=${ALPHA_ANIMATE_WALL}`,
    );
    expect(data[0]).toMatchObject({ name: 'Animate Wall', vendorId: '1029' });
    const english = data[0]!.variants.filter((v) => v.language === 'English' && v.printing === 'Normal');
    expect(Object.fromEntries(english.map((v) => [v.condition, v.vendorSkuId]))).toEqual({
      'Near Mint': '9100001',
      'Lightly Played': '9100002',
      'Moderately Played': '9100003',
      'Heavily Played': '9100004',
      Damaged: '9100005',
    });
    expect(english.find((v) => v.condition === 'Near Mint')!.price).toBe(1450);
  });

  it('finds the sealed product by its UNOPENED SKU', async () => {
    const { data } = await get<{ data: V2Card[] }>('/v2/cards?vendor_sku=9100008');
    expect(data.map((c) => [c.name, c.external_ids.vendor, c.external_ids.openset])).toEqual([
      ['Alpha Edition Booster Pack', '27324', ALPHA_BOOSTER_PACK],
    ]);
    expect(data[0]!.variants.map((v) => [v.condition, v.printing, v.external_ids.vendor_sku])).toEqual([
      ['Sealed', 'Normal', '9100008'],
    ]);
  });
});
