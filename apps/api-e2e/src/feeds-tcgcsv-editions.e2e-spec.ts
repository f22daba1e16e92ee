import { uuidV5, variantSlug, type Card, type CardSet, type Variant } from '@tcg/domain';
import { writeCatalogue } from '@tcg/persistence';
import { useTestDatabase } from '@tcg/persistence/testing';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { FEED_FIXTURES, syncFeeds, useSyncedGateway } from './feeds-cli';

/**
 * One day of TCGCSV listing Flesh and Blood's Welcome to Rathe card Rhinar as two products: its
 * 1st Edition (225218, the packaged catalogue's id) and its Unlimited printing in the group
 * `Welcome to Rathe Unlimited` (tools/feeds/fixtures/tcgcsv-editions/README.md).
 */
const DUMP = join(FEED_FIXTURES, 'tcgcsv-editions');
const NOV_28 = Date.UTC(2026, 10, 28) / 1000;
/** The next day as TCGCSV's archive file holds it: prices alone. */
const ARCHIVE = join(FEED_FIXTURES, 'tcgcsv-editions-archive/prices-2026-11-29.ppmd.7z');
const NOV_29 = Date.UTC(2026, 10, 29) / 1000;

/** The packaged card as `npm run load` writes it (tools/loader/catalogue/fab-drafts.ts): one card, both editions. */
function packagedRhinar(): { sets: CardSet[]; cards: Card[]; variants: Variant[] } {
  const set: CardSet = {
    uuid: uuidV5('set:flesh-and-blood-welcome-to-rathe'),
    id: 'flesh-and-blood-welcome-to-rathe',
    gameId: 'flesh-and-blood',
    name: 'Welcome to Rathe',
    code: 'WTR',
    releaseDate: '2019-10-11',
  };
  const id = 'flesh-and-blood-welcome-to-rathe-rhinar-reckless-rampage-token';
  const card: Card = {
    uuid: uuidV5(id),
    id,
    gameId: 'flesh-and-blood',
    setId: set.id,
    name: 'Rhinar, Reckless Rampage',
    number: 'WTR001',
    rarity: 'Token',
    details: null,
    vendorId: '225218',
    opensetId: null,
    imagedbId: null,
    sealed: false,
  };
  const variants = ['Unlimited Edition Normal', '1st Edition Normal'].map((printing): Variant => {
    const slug = variantSlug(id, { condition: 'Near Mint', printing, language: 'English' });
    return {
      uuid: uuidV5(slug),
      id: slug,
      cardUuid: card.uuid,
      type: 'raw',
      condition: 'Near Mint',
      grading: null,
      printing,
      language: 'English',
      vendorSkuId: null,
    };
  });
  return { sets: [set], cards: [card], variants };
}

interface V1Card {
  id: string;
  name: string;
  vendorId: string | null;
  variants: { condition: string; printing: string; price: number | null; lastUpdated: number | null }[];
}

/**
 * The built CLI syncs the day with the default game list (TCGCSV_GAMES unset: every listed
 * category) onto the packaged card; a client then reads both editions' prices on that one card.
 */
describe('Flesh and Blood editions from TCGCSV, through the gateway', () => {
  let ds: DataSource;

  useTestDatabase((opened) => (ds = opened), { truncate: 'once' });
  const gateway = useSyncedGateway(async () => {
    await writeCatalogue(ds, {
      games: [{ id: 'flesh-and-blood', name: 'Flesh and Blood' }],
      ...packagedRhinar(),
    });
    const dir = await mkdtemp(join(tmpdir(), 'tcgcsv-editions-e2e-'));
    await syncFeeds(['--feeds', 'tcgcsv', '--from', DUMP, '--dir', dir]);
    return dir;
  });
  const { get } = gateway;

  it('prices the 1st Edition and the Unlimited product on the one packaged card', async () => {
    const { data } = await get<{ data: V1Card[] }>('/v1/cards?game=flesh-and-blood&q=rhinar');
    expect(data.map((c) => [c.id, c.vendorId])).toEqual([
      ['flesh-and-blood-welcome-to-rathe-rhinar-reckless-rampage-token', '225218'],
    ]);
    const nm = (printing: string) =>
      data[0]!.variants.find((v) => v.printing === printing && v.condition === 'Near Mint');
    expect(nm('1st Edition Normal')).toMatchObject({ price: 4, lastUpdated: NOV_28 });
    expect(nm('Unlimited Edition Normal')).toMatchObject({ price: 1.5, lastUpdated: NOV_28 });
  });

  it('lists the game once, with TCGplayer as its source, and no set for the Unlimited group', async () => {
    const games = await get<{ data: Record<string, unknown>[] }>('/v1/games');
    expect(games.data).toEqual([
      expect.objectContaining({ id: 'flesh-and-blood', cards_count: 1, price_sources: ['tcgplayer'] }),
    ]);
    const sets = await get<{ data: { id: string }[] }>('/v1/sets?game=flesh-and-blood');
    expect(sets.data.map((s) => s.id)).toEqual(['flesh-and-blood-welcome-to-rathe']);
  });

  it('takes the next day from its archive file alone (--from prices-YYYY-MM-DD.ppmd.7z)', async () => {
    // No --feeds: a TCGCSV archive file is the TCGCSV feed's.
    const done = await syncFeeds(['--from', ARCHIVE, '--dir', gateway.dir]);
    expect(`${done.stdout}${done.stderr}`).toMatch(/"msg":"tcgcsv archive extracted"/);
    const { data } = await get<{ data: V1Card[] }>('/v1/cards?game=flesh-and-blood&q=rhinar');
    const nm = (printing: string) =>
      data[0]!.variants.find((v) => v.printing === printing && v.condition === 'Near Mint');
    expect(nm('1st Edition Normal')).toMatchObject({ price: 4.25, lastUpdated: NOV_29 });
    // The Unlimited product is known as Rhinar only from a day's products: an archive has none.
    expect(nm('Unlimited Edition Normal')).toMatchObject({ price: 1.5, lastUpdated: NOV_28 });
  });
});
