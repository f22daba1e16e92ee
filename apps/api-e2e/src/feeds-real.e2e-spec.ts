import { truncateAll, withTestDatabase, workerDatabaseUrl } from '@tcg/persistence/testing';
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { getJson } from './http';
import { newKey } from './keys';
import { startStack, Stack } from './stack';

const run = promisify(execFile);
const ROOT = resolve(__dirname, '../../..');
const CLI = join(ROOT, 'dist/tools/feeds/feeds.js');
/** Genuine MTGJSON 5.2.0 set files and SKU/price files in its code's shape: their README says whence. */
const REAL = join(ROOT, 'tools/feeds/fixtures/real/mtgjson');

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
  let stack: Stack;
  let key: string;
  let from: string;

  const get = <T>(path: string) => getJson<T>(`${stack.gatewayUrl}${path}`, key);

  beforeAll(async () => {
    await withTestDatabase(truncateAll);
    from = await mkdtemp(join(tmpdir(), 'feeds-real-e2e-'));
    for (const [file, as] of [
      ['AllPrintings-5.2.0-3ED-LEA.json', 'AllPrintings.json'],
      ['TcgplayerSkus-code-shape-3ED-LEA.json', 'TcgplayerSkus.json'],
      ['AllPricesToday-code-shape-LEA.json', 'AllPrices.json'],
    ])
      await copyFile(join(REAL, file!), join(from, as!));
    await run(
      process.execPath,
      [CLI, 'sync', '--feeds', 'mtgjson', '--from', from, '--dir', join(from, 'cache')],
      {
        env: { PATH: process.env['PATH'] ?? '', DATABASE_URL: workerDatabaseUrl() },
      },
    );
    stack = await startStack();
    key = await newKey('enterprise');
  });
  afterAll(async () => {
    await stack.close();
    await rm(from, { recursive: true, force: true });
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
