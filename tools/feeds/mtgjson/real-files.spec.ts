import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  conditionOfSku,
  languageOfPrinting,
  languageOfSku,
  printingOfFinish,
  printingOfSku,
  rarityOf,
} from '../magic/vocabulary';
import { readAllPrices } from './all-prices';
import { FeedCard, FeedSealedProduct, FeedSet, readAllPrintings } from './all-printings';
import { FeedSku, readTcgplayerSkus } from './tcgplayer-skus';
import { collect } from '../../testing/byte-streams';

/** Excerpts of files MTGJSON published, and files in its code's shape: fixtures/real/README.md. */
const REAL = join(__dirname, '..', 'fixtures', 'real', 'mtgjson');
const read = (name: string) => createReadStream(join(REAL, name));

async function* once(bytes: Buffer): AsyncGenerator<Buffer> {
  yield bytes;
}

/** A SKU in our words, or the first value the vocabulary has no word for. */
function mapped(sku: FeedSku) {
  return {
    printing: printingOfSku(sku.printing, sku.finish),
    condition: conditionOfSku(sku.condition),
    language: languageOfSku(sku.language),
  };
}

describe('a genuine MTGJSON 5.2.0 AllPrintings (2022-04-25 set files of 3ED and LEA)', () => {
  let sets: FeedSet[];
  let cards: FeedCard[];
  let sealed: FeedSealedProduct[];
  beforeAll(async () => {
    const items = await collect(
      readAllPrintings('AllPrintings-5.2.0-3ED-LEA.json', read('AllPrintings-5.2.0-3ED-LEA.json')),
    );
    sets = items.flatMap((i) => (i.kind === 'set' ? [i.set] : []));
    cards = items.flatMap((i) => (i.kind === 'card' ? [i.card] : []));
    sealed = items.flatMap((i) => (i.kind === 'sealed' ? [i.product] : []));
  });

  it('reads its sets, cards and sealed products though its cards predate `language`', () => {
    expect(sets).toEqual([
      { code: '3ED', name: 'Revised Edition', releaseDate: '1994-04-01', type: 'core', isOnlineOnly: false },
      {
        code: 'LEA',
        name: 'Limited Edition Alpha',
        releaseDate: '1993-08-05',
        type: 'core',
        isOnlineOnly: false,
      },
    ]);
    expect(cards).toHaveLength(20);
    expect(sealed.map((p) => [p.setCode, p.name, p.identifiers.tcgplayerProductId])).toEqual([
      ['3ED', 'Revised Edition Booster Box', '27303'],
      ['3ED', 'Revised Edition Booster Pack', '27365'],
      ['3ED', 'Revised Edition Starter Deck', '57941'],
      ['3ED', 'Revised Edition Starter Deck Display', '173066'],
      ['LEA', 'Alpha Edition Booster Box', '27262'],
      ['LEA', 'Alpha Edition Booster Pack', '27324'],
      ['LEA', 'Alpha Edition Starter Deck', '139147'],
    ]);
  });

  it('reads a card as published, `language` taking the model default (English)', () => {
    expect(cards.find((c) => c.setCode === '3ED' && c.number === '1')).toEqual({
      uuid: '6d340f3a-a8d1-5f4e-9c03-817db4e2435e',
      setCode: '3ED',
      name: 'Animate Wall',
      faceName: null,
      side: null,
      number: '1',
      rarity: 'rare',
      layout: 'normal',
      type: 'Enchantment — Aura',
      language: 'English',
      finishes: ['nonfoil'],
      identifiers: {
        tcgplayerProductId: '1332',
        scryfallId: 'dffd3a5f-066b-40c2-99e0-dba1771c899d',
        mcmId: '5713',
        multiverseId: '1327',
      },
      foreignLanguages: ['German', 'French', 'Italian'],
    });
    const alpha = cards.filter((c) => c.setCode === 'LEA');
    expect(alpha.map((c) => [c.number, c.name, c.identifiers.multiverseId])).toEqual([
      ['1', 'Animate Wall', '232'],
      ['2', 'Armageddon', '233'],
      ['3', 'Balance', '234'],
      ['4', 'Benalish Hero', '235'],
      ['5', 'Black Ward', '236'],
      ['6', 'Blaze of Glory', '237'],
      ['7', 'Blessing', '238'],
      ['8', 'Blue Ward', '239'],
      ['9', 'Castle', '240'],
      ['10', 'Circle of Protection: Blue', '241'],
    ]);
  });

  it('reads a 5.0/5.1 card, before `finishes`, by its `hasNonFoil`/`hasFoil`', async () => {
    // The same real card as a v5.1 file wrote it: no `finishes` (5.2.0), no `language` (5.2.1).
    const text = await readFile(join(REAL, 'AllPrintings-5.2.0-3ED-LEA.json'), 'utf8');
    const file = JSON.parse(text) as { data: Record<string, { cards: Record<string, unknown>[] }> };
    const wall = file.data['LEA']!.cards[0]!;
    delete wall['finishes'];
    file.data['LEA']!.cards = [
      wall,
      { ...wall, uuid: 'f0f0f0f0-0000-5000-8000-000000000001', hasFoil: true },
    ];
    file.data['3ED']!.cards = [];
    const items = await collect(readAllPrintings('v5.1.json', once(Buffer.from(JSON.stringify(file)))));
    const read = items.flatMap((i) => (i.kind === 'card' ? [i.card] : []));
    expect(read.map((c) => [c.name, c.language, c.finishes])).toEqual([
      ['Animate Wall', 'English', ['nonfoil']],
      ['Animate Wall', 'English', ['nonfoil', 'foil']],
    ]);
  });

  it('maps every card of it to our words: language, finish, rarity', () => {
    expect(cards.every((c) => languageOfPrinting(c.language) === 'English')).toBe(true);
    expect(new Set(cards.flatMap((c) => c.finishes.map(printingOfFinish)))).toEqual(new Set(['Normal']));
    expect(new Set(cards.map((c) => rarityOf(c.rarity)))).toEqual(new Set(['Rare', 'Common', 'Uncommon']));
  });
});

describe('a genuine MTGJSON 5.2.2 set file (MH2, 2024-01-01)', () => {
  it('reads `language`, an etched finish with its own product id, and a split card’s two faces', async () => {
    const items = await collect(
      readAllPrintings('AllPrintings-5.2.2-MH2.json', read('AllPrintings-5.2.2-MH2.json')),
    );
    const cards = items.flatMap((i) => (i.kind === 'card' ? [i.card] : []));
    expect(cards.map((c) => [c.number, c.name, c.faceName, c.side, c.language])).toEqual([
      ['1', 'Abiding Grace', null, null, 'English'],
      ['2', 'Arcbound Javelineer', null, null, 'English'],
      ['60', 'Said // Done', 'Said', 'a', 'English'],
      ['60', 'Said // Done', 'Done', 'b', 'English'],
      ['262', 'Angelic Curator', null, null, 'English'],
    ]);
    expect(cards[4]).toMatchObject({
      uuid: 'bdf5a083-643a-5f6f-8bc9-0236b35d0a2e',
      finishes: ['nonfoil', 'foil', 'etched'],
      identifiers: { tcgplayerProductId: '240433', tcgplayerEtchedProductId: '240797', mcmId: '566933' },
    });
    expect(cards[4]!.finishes.map(printingOfFinish)).toEqual(['Normal', 'Foil', 'Etched Foil']);
    const sealed = items.flatMap((i) => (i.kind === 'sealed' ? [i.product] : []));
    expect(sealed.map((p) => [p.name, p.category, p.identifiers.tcgplayerProductId])).toEqual([
      ['Modern Horizons 2 Bundle', 'bundle', '238649'],
      ['Modern Horizons 2 Collector Booster Pack', 'booster_pack', '236349'],
      ['Modern Horizons 2 Draft Booster Pack', 'booster_pack', '236356'],
      ['Modern Horizons 2 Set Booster Pack', 'booster_pack', '236351'],
    ]);
  });

  it('maps the SKUs the 5.2.2 code writes for it, `FOIL ETCHED` to Etched Foil', async () => {
    const skus = await collect(
      readTcgplayerSkus(
        'TcgplayerSkus-5.2.2-code-shape-MH2.json',
        read('TcgplayerSkus-5.2.2-code-shape-MH2.json'),
      ),
    );
    expect(skus.filter((s) => s.productId === '240797').map((s) => [s.skuId, s.finish, mapped(s)])).toEqual([
      ['9200003', 'FOIL ETCHED', { printing: 'Etched Foil', condition: 'Near Mint', language: 'English' }],
      [
        '9200004',
        'FOIL ETCHED',
        { printing: 'Etched Foil', condition: 'Lightly Played', language: 'English' },
      ],
    ]);
  });
});

describe('a copy of a published TcgplayerSkus (5.2.2+20250920)', () => {
  let skus: FeedSku[];
  beforeAll(async () => {
    skus = await collect(
      readTcgplayerSkus('TcgplayerSkus-5.2.2-excerpt.json', read('TcgplayerSkus-5.2.2-excerpt.json')),
    );
  });

  it('reads each SKU with its integer ids as text and its words as published', () => {
    expect(skus).toHaveLength(57);
    expect(skus[0]).toEqual({
      uuid: '01359a41-06e6-5262-9fd0-ccad985803a0',
      skuId: '7267191',
      productId: '504636',
      condition: 'NEAR MINT',
      printing: 'FOIL',
      finish: 'FOIL ETCHED',
      language: 'ENGLISH',
    });
  });

  it('maps every one of its SKUs to a print type, condition and language of ours', () => {
    expect(skus.filter((s) => Object.values(mapped(s)).includes(undefined))).toEqual([]);
    expect(mapped(skus[0]!)).toEqual({
      printing: 'Etched Foil',
      condition: 'Near Mint',
      language: 'English',
    });
    const byId = (id: string) => mapped(skus.find((s) => s.skuId === id)!);
    expect(byId('3045711')).toEqual({ printing: 'Foil', condition: 'Near Mint', language: 'English' });
    expect(byId('7653764')).toEqual({ printing: 'Foil', condition: 'Damaged', language: 'Chinese (S)' });
    expect(byId('7653765')).toEqual({ printing: 'Foil', condition: 'Near Mint', language: 'Chinese (T)' });
    expect(byId('7653797')).toEqual({
      printing: 'Foil',
      condition: 'Moderately Played',
      language: 'Portuguese',
    });
    expect(new Set(skus.map((s) => mapped(s).language)).size).toBe(11);
  });
});

describe('TcgplayerSkus and AllPricesToday in the shape of MTGJSON 5.3 code', () => {
  it('reads the sealed product SKU as `UNOPENED`, `NON FOIL`: our Sealed, Normal', async () => {
    const skus = await collect(
      readTcgplayerSkus(
        'TcgplayerSkus-code-shape-3ED-LEA.json',
        read('TcgplayerSkus-code-shape-3ED-LEA.json'),
      ),
    );
    expect(skus).toHaveLength(8);
    const pack = skus.find((s) => s.uuid === '1dbdd2d3-1455-5a0d-b775-f33fc1fcd7e2')!;
    expect(pack).toMatchObject({
      skuId: '9100008',
      productId: '27324',
      condition: 'UNOPENED',
      printing: 'NON FOIL',
    });
    expect(mapped(pack)).toEqual({ printing: 'Normal', condition: 'Sealed', language: 'English' });
    expect(skus.filter((s) => s.productId === '1029').map((s) => mapped(s).condition)).toEqual([
      'Near Mint',
      'Lightly Played',
      'Moderately Played',
      'Heavily Played',
      'Damaged',
    ]);
  });

  it('reads the prices the code writes beside an empty `buylist`', async () => {
    const prices = await collect(
      readAllPrices('AllPricesToday-code-shape-LEA.json', read('AllPricesToday-code-shape-LEA.json')),
    );
    expect(
      prices.map((p) => [p.uuid.slice(0, 8), p.provider, p.finish, p.currency, p.date, p.price]),
    ).toEqual([
      ['1dbdd2d3', 'tcgplayer', 'normal', 'USD', '2026-11-26', 32000],
      ['2b304dc1', 'tcgplayer', 'normal', 'USD', '2026-11-26', 1450],
      ['2b304dc1', 'cardmarket', 'normal', 'EUR', '2026-11-26', 1200],
    ]);
  });
});

describe('every spelling MTGJSON has published for a SKU word', () => {
  it.each([
    ['NEAR MINT', 'Near Mint'],
    ['NEAR_MINT', 'Near Mint'],
    ['LIGHTLY PLAYED', 'Lightly Played'],
    ['MODERATELY_PLAYED', 'Moderately Played'],
    ['HEAVILY PLAYED', 'Heavily Played'],
    ['DAMAGED', 'Damaged'],
    ['UNOPENED', 'Sealed'],
    ['MINT', undefined],
  ])('condition %s → %s', (word, ours) => expect(conditionOfSku(word)).toBe(ours));

  it.each([
    ['NON FOIL', null, 'Normal'],
    ['NON_FOIL', null, 'Normal'],
    ['FOIL', null, 'Foil'],
    ['FOIL', 'FOIL ETCHED', 'Etched Foil'],
    ['FOIL', 'FOIL_ETCHED', 'Etched Foil'],
    ['FOIL', 'ETCHED', 'Etched Foil'],
    ['NON FOIL', 'ETCHED', 'Etched Foil'],
    ['FOIL', 'GALAXY', undefined],
    ['HOLOGRAPHIC', null, undefined],
  ])('printing %s, finish %s → %s', (printing, finish, ours) =>
    expect(printingOfSku(printing, finish)).toBe(ours),
  );

  it('has no word for a name every object inherits', () => {
    expect(conditionOfSku('constructor')).toBeUndefined();
    expect(printingOfFinish('constructor')).toBeUndefined();
    expect(languageOfPrinting('constructor')).toBeUndefined();
    expect(rarityOf('toString')).toBe('ToString');
  });

  it.each([
    ['ENGLISH', 'English'],
    ['CHINESE SIMPLIFIED', 'Chinese (S)'],
    ['CHINESE_SIMPLIFIED', 'Chinese (S)'],
    ['CHINESE TRADITIONAL', 'Chinese (T)'],
    ['PORTUGUESE BRAZIL', 'Portuguese'],
    ['PORTUGUESE_BRAZIL', 'Portuguese'],
    ['KLINGON', undefined],
  ])('language %s → %s', (word, ours) => expect(languageOfSku(word)).toBe(ours));
});

describe('AllPrices as the legacy build (5.2.2) wrote it', () => {
  it('reads a price beside an empty finish (`foil: {}`)', async () => {
    const legacy = {
      meta: { date: '2023-09-12', version: '5.2.2+20230912' },
      data: {
        '2b304dc1-8d7d-50a7-a310-2d0e5427935f': {
          paper: { tcgplayer: { retail: { normal: { '2023-09-12': 1450.0 }, foil: {} }, currency: 'USD' } },
        },
      },
    };
    const prices = await collect(readAllPrices('legacy.json', once(Buffer.from(JSON.stringify(legacy)))));
    expect(prices.map((p) => [p.finish, p.price])).toEqual([['normal', 1450]]);
  });
});
