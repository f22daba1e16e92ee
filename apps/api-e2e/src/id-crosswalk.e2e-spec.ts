import { truncateAll, withTestDatabase } from '@tcg/persistence/testing';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { copiedInto, FEED_FIXTURES, syncFeeds, useSyncedGateway } from './feeds-cli';
import { fetchWithKey } from './http';

/** Genuine MTGJSON 5.2.0 set files and SKU/price files in its code's shape: their README says whence. */
const REAL = join(FEED_FIXTURES, 'real');

/** Alpha's Animate Wall in AllPrintings-5.2.0-3ED-LEA.json: its uuid and identifiers block. */
const WALL = {
  mtgjson: '2b304dc1-8d7d-50a7-a310-2d0e5427935f',
  scryfall: 'd5c83259-9b90-47c2-b48e-c7d78519e792',
  tcgplayer: '1029',
  cardmarket: '5418',
  multiverse: '232',
};
/** TcgplayerSkus-code-shape-3ED-LEA.json: its five SKUs by condition. */
const WALL_SKUS = ['9100001', '9100002', '9100003', '9100004', '9100005'];
/** The deliberate disagreement: the product id Scryfall's (edited) object gives the card. */
const SCRYFALL_PRODUCT = '1030';

interface Assertion {
  kind: string;
  value: string;
  feed: string | null;
  first_seen: string | null;
  last_seen: string | null;
}
interface CardIds {
  data: {
    id: string;
    slug: string;
    ids: Assertion[];
    variants: { id: string; slug: string; ids: Assertion[] }[];
    conflicts: {
      reason: string;
      kind: string;
      detail: string;
      assertions: { card_id: string; value: string; feed: string }[];
    }[];
  };
}
interface Lookup {
  data: {
    kind: string;
    value: string;
    cards: {
      card_id: string;
      card_slug: string;
      variant_id: string | null;
      asserted_by: { feed: string }[];
    }[];
    conflicts: { reason: string }[];
  };
}
interface Problem {
  status: number;
  code: string;
  detail: string;
}

/**
 * The id crosswalk through the gateway, on what the built CLI synced from the genuine real-file
 * fixtures: MTGJSON's AllPrintings and SKUs, then Scryfall's real Jace object made Animate Wall
 * with another TCGplayer product id than MTGJSON's (the disagreement the answer must show).
 */
describe('the id crosswalk, synced from real files and read through the gateway', () => {
  let today: string;

  const gateway = useSyncedGateway(async () => {
    await withTestDatabase(truncateAll);
    const from = await copiedInto('id-crosswalk-e2e-', [
      [join(REAL, 'mtgjson/AllPrintings-5.2.0-3ED-LEA.json'), 'AllPrintings.json'],
      [join(REAL, 'mtgjson/TcgplayerSkus-code-shape-3ED-LEA.json'), 'TcgplayerSkus.json'],
      [join(REAL, 'mtgjson/AllPricesToday-code-shape-LEA.json'), 'AllPrices.json'],
    ]);
    const [jace] = JSON.parse(
      await readFile(join(REAL, 'scryfall/default-cards-excerpt.json'), 'utf8'),
    ) as Record<string, unknown>[];
    await writeFile(
      join(from, 'default-cards.json'),
      JSON.stringify([
        {
          ...jace,
          id: WALL.scryfall,
          name: 'Animate Wall',
          set: 'lea',
          collector_number: '1',
          tcgplayer_id: Number(SCRYFALL_PRODUCT),
          cardmarket_id: Number(WALL.cardmarket),
        },
      ]),
    );
    const started = new Date();
    await syncFeeds(['--feeds', 'mtgjson,scryfall', '--from', from, '--dir', join(from, 'cache')]);
    today = started.toISOString().slice(0, 10);
    return from;
  });
  const { get } = gateway;
  const problem = async (path: string, status: number) => {
    const res = await fetchWithKey(`${gateway.stack.gatewayUrl}${path}`, gateway.key);
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    return (await res.json()) as Problem;
  };

  /** The card's id as v2 gives it (v1 `uuid`), found by its MTGJSON uuid (v1 `opensetId`). */
  const wallId = async () =>
    (await get<{ data: { uuid: string }[] }>(`/v1/cards?opensetId=${WALL.mtgjson}`)).data[0]!.uuid;

  it('answers every id the files hold for the card and its variants, with feed and day', async () => {
    const { data: cards } = await get<{ data: { uuid: string; id: string }[] }>(
      `/v1/cards?opensetId=${WALL.mtgjson}`,
    );
    const { data } = await get<CardIds>(`/v2/cards/${cards[0]!.uuid}/ids`);
    expect(data).toMatchObject({ id: cards[0]!.uuid, slug: cards[0]!.id });
    const seen = (feed: string) => ({ feed, first_seen: expect.any(String), last_seen: expect.any(String) });
    expect(data.ids).toEqual([
      { kind: 'cardmarket_product', value: WALL.cardmarket, ...seen('mtgjson') },
      { kind: 'cardmarket_product', value: WALL.cardmarket, ...seen('scryfall') },
      { kind: 'mtgjson_uuid', value: WALL.mtgjson, ...seen('mtgjson') },
      { kind: 'multiverse_id', value: WALL.multiverse, ...seen('mtgjson') },
      { kind: 'scryfall_id', value: WALL.scryfall, ...seen('mtgjson') },
      { kind: 'scryfall_id', value: WALL.scryfall, ...seen('scryfall') },
      { kind: 'tcgplayer_product', value: WALL.tcgplayer, ...seen('mtgjson') },
      { kind: 'tcgplayer_product', value: SCRYFALL_PRODUCT, ...seen('scryfall') },
    ]);
    // The day of the sync (it ran in this test's beforeAll), the same first and last.
    for (const a of data.ids) expect([a.first_seen, a.last_seen]).toEqual([today, today]);
    // Each SKU on its condition's variant (slug `<card>_<condition>_<printing>`).
    expect(
      data.variants.map((v) => [v.slug.split('_')[1], v.ids.map((a) => [a.kind, a.value, a.feed])]).sort(),
    ).toEqual(
      (
        [
          ['damaged', WALL_SKUS[4]],
          ['heavily-played', WALL_SKUS[3]],
          ['lightly-played', WALL_SKUS[1]],
          ['moderately-played', WALL_SKUS[2]],
          ['near-mint', WALL_SKUS[0]],
        ] as const
      ).map(([condition, sku]) => [condition, [['tcgplayer_sku', sku, 'mtgjson']]]),
    );
    expect(data.variants).toHaveLength(5);
    // The slug answers the same.
    expect((await get<CardIds>(`/v2/cards/${cards[0]!.id}/ids`)).data).toEqual(data);
  });

  it('says where the two feeds disagree: which feed gave which product id', async () => {
    const { data } = await get<CardIds>(`/v2/cards/${await wallId()}/ids`);
    expect(data.conflicts).toEqual([
      {
        reason: 'values_differ',
        kind: 'tcgplayer_product',
        detail: `tcgplayer_product: mtgjson says ${WALL.tcgplayer}, scryfall says ${SCRYFALL_PRODUCT}`,
        assertions: [
          expect.objectContaining({ value: WALL.tcgplayer, feed: 'mtgjson', variant_id: null }),
          expect.objectContaining({ value: SCRYFALL_PRODUCT, feed: 'scryfall', variant_id: null }),
        ],
      },
    ]);
  });

  it('finds the card back by each kind of id it holds', async () => {
    const id = await wallId();
    for (const [kind, value] of [
      ['tcgplayer_product', WALL.tcgplayer],
      ['tcgplayer_product', SCRYFALL_PRODUCT],
      ['cardmarket_product', WALL.cardmarket],
      ['scryfall_id', WALL.scryfall.toUpperCase()],
      ['mtgjson_uuid', WALL.mtgjson],
      ['multiverse_id', WALL.multiverse],
      ['TCGPLAYER_PRODUCT', WALL.tcgplayer],
    ]) {
      const { data } = await get<Lookup>(`/v2/ids/${kind}/${value}`);
      expect(data.cards.map((c) => [c.card_id, c.variant_id])).toEqual([[id, null]]);
      expect(data.conflicts).toEqual([]);
    }
    const sku = await get<Lookup>(`/v2/ids/tcgplayer_sku/${WALL_SKUS[0]}`);
    expect(sku.data.cards).toEqual([
      expect.objectContaining({ card_id: id, variant_slug: expect.stringContaining('_near-mint_') }),
    ]);
    expect(sku.data.cards[0]!.asserted_by).toEqual([
      { feed: 'mtgjson', first_seen: today, last_seen: today },
    ]);
    // An id no feed gave: 200, no cards.
    expect((await get<Lookup>('/v2/ids/tcgplayer_product/999999999')).data).toEqual({
      kind: 'tcgplayer_product',
      value: '999999999',
      cards: [],
      conflicts: [],
    });
  });

  it('refuses a bad kind, a bad value and an unknown parameter with a 400 naming it; an unknown card is 404', async () => {
    expect(await problem('/v2/ids/ebay_listing/1029', 400)).toMatchObject({
      code: 'INVALID_REQUEST',
      detail: expect.stringMatching(
        /^Invalid value 'ebay_listing' for 'kind'\. Accepted: tcgplayer_product, /,
      ),
    });
    expect(await problem('/v2/ids/tcgplayer_product/12ab', 400)).toMatchObject({
      detail:
        "Invalid value '12ab' for 'value'. Accepted: a positive integer of at most 20 digits, no leading zero.",
    });
    expect(await problem('/v2/ids/tcgplayer_product/01029', 400)).toMatchObject({
      detail: expect.stringContaining("for 'value'"),
    });
    expect(await problem(`/v2/ids/scryfall_id/${'9'.repeat(300)}`, 400)).toMatchObject({
      detail: expect.stringMatching(/for 'value'\. Accepted: a UUID\.$/),
    });
    expect(await problem(`/v2/cards/${await wallId()}/ids?regions=EU`, 400)).toMatchObject({
      detail: expect.stringContaining("'regions'"),
    });
    expect(await problem('/v2/cards/no-such-card/ids', 404)).toMatchObject({
      code: 'NOT_FOUND',
      detail: "Card 'no-such-card' not found.",
    });
    expect(await problem('/v2/cards/00000000-0000-5000-8000-000000000000/ids', 404)).toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('meters the routes like any v2 request: one unit each, and a key is needed', async () => {
    const used = async () =>
      (await get<{ _metadata: { apiRequestsUsed: number } }>('/v1/games'))._metadata.apiRequestsUsed;
    const id = await wallId();
    const before = await used();
    const { stack, key } = gateway;
    expect(
      (await fetchWithKey(`${stack.gatewayUrl}/v2/ids/multiverse_id/${WALL.multiverse}`, key)).status,
    ).toBe(200);
    expect((await fetchWithKey(`${stack.gatewayUrl}/v2/cards/${id}/ids`, key)).status).toBe(200);
    // The two crosswalk requests and the reading's own.
    expect(await used()).toBe(before + 3);
    expect((await fetchWithKey(`${stack.gatewayUrl}/v2/ids/multiverse_id/232`)).status).toBe(401);
  });
});
