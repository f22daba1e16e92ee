import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createGunzip, gunzipSync } from 'node:zlib';
import { FeedParseError } from '../json-stream';
import { FeedScryfallCard, readScryfallCards } from './default-cards';
import { chunksOf, collect } from '../../testing/byte-streams';

const FIXTURES = join(__dirname, '..', 'fixtures', 'scryfall');

describe('Scryfall default_cards reader', () => {
  it('reads every card with its ids, today’s prices and its image', async () => {
    const cards = await collect(
      readScryfallCards(
        'default-cards.json.gz',
        createReadStream(join(FIXTURES, 'default-cards.json.gz')).pipe(createGunzip()),
      ),
    );
    expect(cards.map((c) => c.name)).toEqual([
      'Ashen Sentry',
      'Gilded Archivist',
      'Fire // Ice',
      'Wandering Cartographer',
      'Daybreak Warden // Nightfall Stalker',
      '灰の歩哨',
    ]);
    expect(cards[1]).toEqual<FeedScryfallCard>({
      id: '1b2c3d4e-5f6a-4b7c-9d8e-0f1a2b3c4d5e',
      lang: 'en',
      name: 'Gilded Archivist',
      set: 'tst',
      collectorNumber: '2',
      tcgplayerId: '240522',
      tcgplayerEtchedId: '240523',
      cardmarketId: '700002',
      prices: { usd: 5.1, usdFoil: 6.1, usdEtched: 7.4, eur: 4.2, eurFoil: null },
      imageUri:
        'https://cards.scryfall.io/normal/front/1/b/1b2c3d4e-5f6a-4b7c-9d8e-0f1a2b3c4d5e.jpg?1790000000',
    });
    expect(cards[3]).toMatchObject({ tcgplayerId: null, prices: { usd: null, eur: 3.95 } });
    expect(cards[4]!.imageUri).toMatch(/\/normal\/front\/3\/e\//); // the first face's
    expect(cards[5]).toMatchObject({ lang: 'ja', collectorNumber: '1★', prices: { usd: null, eur: null } });
  });

  it('is the .json as published (gzip)', async () => {
    const gz = await readFile(join(FIXTURES, 'default-cards.json.gz'));
    expect(gunzipSync(gz).toString('utf8')).toBe(
      await readFile(join(FIXTURES, 'default-cards.json'), 'utf8'),
    );
  });

  it.each([
    ['a price that is a number', '{"usd": 0.25}', /prices.usd: expected a decimal string, got 0.25/],
    ['a price with three decimals', '{"usd": "0.255"}', /prices.usd: expected a decimal string/],
    ['no prices', 'null', /prices: expected an object/],
  ])('refuses %s, naming the card', async (_case, prices, reason) => {
    const text = `[{"object": "card", "id": "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", "lang": "en", "name": "N", "set": "s", "collector_number": "1", "prices": ${prices}}]`;
    const error = await collect(readScryfallCards('d.json', chunksOf(text, 16))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FeedParseError);
    expect((error as Error).message).toMatch(/card 0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d: /);
    expect((error as Error).message).toMatch(reason);
  });

  it('refuses a file that is not an array of cards', async () => {
    await expect(
      collect(readScryfallCards('d.json', chunksOf('{"object": "list", "data": []}', 8))),
    ).rejects.toThrow(/expected the file to be an array of card objects/);
  });
});
