import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createGunzip, gunzipSync } from 'node:zlib';
import { FeedParseError } from '../json-stream';
import { FeedPrice, readAllPrices } from './all-prices';
import { FeedCard, FeedPrintingsItem, readAllPrintings } from './all-printings';
import { readTcgplayerSkus } from './tcgplayer-skus';
import { chunksOf, collect } from '../../testing/byte-streams';

const FIXTURES = join(__dirname, '..', 'fixtures', 'mtgjson');

/** The fixture as published: gzip, decompressed as a stream. */
const gzipped = (name: string) => createReadStream(join(FIXTURES, `${name}.gz`)).pipe(createGunzip());

/** `text` in chunks of `size` bytes: a value split across chunks must parse the same. */
describe('MTGJSON AllPrices reader', () => {
  it('reads every published price of the fixture, with its card, provider, side, finish and currency', async () => {
    const prices = await collect(readAllPrices('AllPrices.json.gz', gzipped('AllPrices.json')));
    expect(prices).toHaveLength(37);
    const key = (p: FeedPrice) => `${p.uuid.slice(0, 8)} ${p.platform}.${p.provider}.${p.side}.${p.finish}`;
    const count = (prefix: string) => prices.filter((p) => key(p).startsWith(prefix)).length;
    expect(count('1f8a2d1c paper.tcgplayer.retail.normal')).toBe(2); // 2026-11-24 missing
    expect(count('1f8a2d1c mtgo.cardhoarder.retail.normal')).toBe(3);
    expect(count('3c2b9e47 paper.tcgplayer.retail.etched')).toBe(3);
    expect(count('8d91f0e2 paper.tcgplayer')).toBe(0); // no TCGplayer id
    expect(count('a57c3e19')).toBe(0); // `{}`
    expect(
      prices.find((p) => key(p) === '1f8a2d1c paper.cardmarket.retail.foil' && p.date === '2026-11-24'),
    ).toEqual({
      uuid: '1f8a2d1c-5b6e-5c4e-9d1a-0c3e2b7f4a10',
      platform: 'paper',
      provider: 'cardmarket',
      side: 'retail',
      finish: 'foil',
      currency: 'EUR',
      date: '2026-11-24',
      price: 1.58,
    });
    // A published 0 is read as published; what it means is the mapping's call.
    expect(prices.find((p) => p.uuid.startsWith('6e04a1b3') && p.date === '2026-11-24')!.price).toBe(0);
  });

  it('reads the same prices whatever the chunking, down to one byte at a time', async () => {
    const text = await readFile(join(FIXTURES, 'AllPrices.json'));
    const whole = await collect(readAllPrices('AllPrices.json', chunksOf(text, 1 << 16)));
    expect(await collect(readAllPrices('AllPrices.json', chunksOf(text, 1)))).toEqual(whole);
    expect(await collect(readAllPrices('AllPrices.json', chunksOf(text, 7)))).toEqual(whole);
  });

  it('refuses a truncated file, naming the byte where it ended', async () => {
    const text = await readFile(join(FIXTURES, 'AllPrices.json'));
    const cut = text.subarray(0, 1500);
    const error = await collect(readAllPrices('AllPrices.json', chunksOf(cut, 256))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FeedParseError);
    expect(error).toMatchObject({ file: 'AllPrices.json', offset: 1500 });
  });

  it('refuses bytes that are not JSON, naming their offset', async () => {
    const text = Buffer.from('{"data": {"x": {"paper": }}}');
    const error = await collect(readAllPrices('bad.json', chunksOf(text, 4))).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'FeedParseError', offset: 25 });
    expect((error as Error).message).toMatch(/^bad\.json: byte 25: /);
  });

  it.each([
    [
      'a price that is not a number',
      '{"paper": {"tcgplayer": {"currency": "USD", "retail": {"normal": {"2026-11-25": "0.25"}}}}}',
      /expected a price, got "0.25"/,
    ],
    [
      'a negative price',
      '{"paper": {"tcgplayer": {"currency": "USD", "retail": {"normal": {"2026-11-25": -1}}}}}',
      /expected a price/,
    ],
    [
      'a key that is not a date',
      '{"paper": {"tcgplayer": {"currency": "USD", "retail": {"normal": {"yesterday": 1}}}}}',
      /"yesterday" is not a date/,
    ],
    [
      'a list without its currency',
      '{"paper": {"tcgplayer": {"retail": {"normal": {"2026-11-25": 1}}}}}',
      /currency: expected an ISO 4217 code/,
    ],
  ])('refuses %s, naming the card', async (_case, card, reason) => {
    const text = `{"data": {"c1": ${card}}, "meta": {}}`;
    const error = await collect(readAllPrices('AllPrices.json', chunksOf(text, 64))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FeedParseError);
    expect((error as Error).message).toMatch(/card c1: /);
    expect((error as Error).message).toMatch(reason);
  });

  it('refuses an empty file', async () => {
    await expect(collect(readAllPrices('empty.json', chunksOf('', 1)))).rejects.toThrow(/empty/);
  });
});

describe('MTGJSON TcgplayerSkus reader', () => {
  it('reads every SKU of the fixture with its real ids, condition, printing, finish and language', async () => {
    const skus = await collect(readTcgplayerSkus('TcgplayerSkus.json.gz', gzipped('TcgplayerSkus.json')));
    expect(skus).toHaveLength(10);
    expect(skus.find((s) => s.skuId === '5230101')).toEqual({
      uuid: '3c2b9e47-8a1f-5d60-b2e4-7f915a0c6d22',
      skuId: '5230101',
      productId: '240523',
      condition: 'NEAR_MINT',
      printing: 'FOIL',
      finish: 'FOIL_ETCHED',
      language: 'ENGLISH',
    });
    expect(skus.filter((s) => s.finish === null)).toHaveLength(9);
    expect(skus.find((s) => s.language === 'JAPANESE')!.uuid).toMatch(/^a57c3e19/);
  });

  it('reads numeric ids as text, and refuses a SKU without one', async () => {
    const ok =
      '{"data": {"c1": [{"condition": "NEAR_MINT", "language": "ENGLISH", "printing": "FOIL", "productId": 5, "skuId": 6}]}}';
    expect((await collect(readTcgplayerSkus('s.json', chunksOf(ok, 9))))[0]).toMatchObject({
      productId: '5',
      skuId: '6',
    });
    const bad =
      '{"data": {"c1": [{"condition": "NEAR_MINT", "language": "ENGLISH", "printing": "FOIL", "productId": "5"}]}}';
    await expect(collect(readTcgplayerSkus('s.json', chunksOf(bad, 9)))).rejects.toThrow(
      /card c1, SKU 0: skuId: expected text/,
    );
  });
});

describe('MTGJSON fixtures', () => {
  it.each(['AllPrices.json', 'TcgplayerSkus.json', 'AllPrintings.json'])(
    '%s.gz is the .json as published: gzip, with its sha256 beside it',
    async (name) => {
      const gz = await readFile(join(FIXTURES, `${name}.gz`));
      expect(createHash('sha256').update(gz).digest('hex')).toBe(
        (await readFile(join(FIXTURES, `${name}.gz.sha256`), 'utf8')).trim(),
      );
      expect(gunzipSync(gz).toString('utf8')).toBe(await readFile(join(FIXTURES, name), 'utf8'));
    },
  );
});

describe('MTGJSON AllPrintings reader', () => {
  const read = async (chunks: AsyncIterable<Buffer | Uint8Array>) =>
    collect(readAllPrintings('AllPrintings.json', chunks));
  const cards = (items: FeedPrintingsItem[]) => items.flatMap((i) => (i.kind === 'card' ? [i.card] : []));

  it('reads every set, card face and sealed product of the fixture, each set after its cards', async () => {
    const items = await read(gzipped('AllPrintings.json'));
    expect(items.map((i) => (i.kind === 'set' ? `set ${i.set.code}` : i.kind))).toEqual([
      'card',
      'card',
      'card',
      'set AER',
      'card',
      'set TSJ',
      'card',
      'card',
      'card',
      'card',
      'card',
      'sealed',
      'set TST',
    ]);
    expect(items.find((i) => i.kind === 'set' && i.set.code === 'TST')).toEqual({
      kind: 'set',
      set: {
        code: 'TST',
        name: 'Fixture Expansion',
        releaseDate: '2026-10-01',
        type: 'expansion',
        isOnlineOnly: false,
      },
    });
    const byUuid = new Map(cards(items).map((c) => [c.uuid, c]));
    expect(byUuid.get('1f8a2d1c-5b6e-5c4e-9d1a-0c3e2b7f4a10')).toEqual<FeedCard>({
      uuid: '1f8a2d1c-5b6e-5c4e-9d1a-0c3e2b7f4a10',
      setCode: 'TST',
      name: 'Ashen Sentry',
      faceName: null,
      side: null,
      number: '1',
      rarity: 'common',
      layout: 'normal',
      type: 'Creature',
      language: 'English',
      finishes: ['nonfoil', 'foil'],
      identifiers: {
        tcgplayerProductId: '230011',
        scryfallId: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
        mcmId: '700001',
        multiverseId: '600001',
      },
      foreignLanguages: ['Japanese', 'German'],
    });
    // A split card is two faces with one name and number; an etched printing has its own product.
    const split = cards(items).filter((c) => c.name === 'Fire // Ice');
    expect(split.map((c) => [c.side, c.faceName, c.number, c.layout])).toEqual([
      ['a', 'Fire', '3', 'split'],
      ['b', 'Ice', '3', 'split'],
    ]);
    expect(byUuid.get('3c2b9e47-8a1f-5d60-b2e4-7f915a0c6d22')).toMatchObject({
      finishes: ['nonfoil', 'foil', 'etched'],
      identifiers: { tcgplayerProductId: '240522', tcgplayerEtchedProductId: '240523' },
    });
    expect(
      byUuid.get('8d91f0e2-4c3b-5a7e-a6d5-2e8f9c1b0a44')!.identifiers.tcgplayerProductId,
    ).toBeUndefined();
    expect(byUuid.get('a57c3e19-6b2d-5e84-9f07-3c4a5d6e7b55')).toMatchObject({
      language: 'Japanese',
      setCode: 'TSJ',
    });
    expect(items.find((i) => i.kind === 'sealed')).toEqual({
      kind: 'sealed',
      product: {
        uuid: 'b1c2d3e4-f5a6-5b7c-8d9e-0f1a2b3c4d5e',
        setCode: 'TST',
        name: 'Fixture Expansion Draft Booster Box',
        category: 'booster_box',
        identifiers: { tcgplayerProductId: '230900' },
      },
    });
    // Tokens are not cards of the catalogue.
    expect(cards(items).some((c) => c.name === 'Spirit')).toBe(false);
  });

  it('reads the same whatever the chunking', async () => {
    const text = await readFile(join(FIXTURES, 'AllPrintings.json'));
    expect(await read(chunksOf(text, 3))).toEqual(await read(chunksOf(text, 1 << 16)));
  });

  it('refuses a card that breaks the model, naming its set and card', async () => {
    const text =
      '{"data": {"X": {"cards": [{"uuid": "u1", "setCode": "X", "name": "N", "number": "1", "layout": "normal", "language": "English", "finishes": ["nonfoil"], "identifiers": {}}]}}}';
    await expect(read(chunksOf(text, 32))).rejects.toThrow(/set X, card u1: rarity: expected text/);
  });
});
