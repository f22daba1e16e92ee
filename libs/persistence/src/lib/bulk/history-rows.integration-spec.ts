import { Card, cardSlug, uuidV5, Variant, variantSlug } from '@tcg/domain';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { tinyCatalogue, useTestClient, useTestDatabase } from '../../testing';
import { writeCatalogue } from '../catalogue';
import { PriceIngestRepository } from '../prices';
import { historyLines, HistoryLine } from './history-rows';

/** Unix seconds of a UTC instant. */
const at = (y: number, m: number, d: number, h = 0, min = 0, s = 0) =>
  Date.UTC(y, m - 1, d, h, min, s) / 1000;

/** The file's text for these lines: built from object literals, so key order is checked too. */
const ndjson = (lines: HistoryLine[]) => lines.map((l) => `${JSON.stringify(l)}\n`).join('');

describe('history lines (PostgreSQL)', () => {
  let ds: DataSource;
  let client: Client;
  let ingest: PriceIngestRepository;
  const cat = tinyCatalogue();
  const [card] = cat.cards;
  const [nm, psa] = cat.variants;

  // A second card, with two variants whose slugs sort the other way round from their listing.
  const otherId = cardSlug({ game: 'test-game', set: 'First Edition', name: 'Test Wyvern', rarity: 'Rare' });
  const other: Card = { ...card!, uuid: uuidV5(otherId), id: otherId, name: 'Test Wyvern', number: '8' };
  const rawVariant = (condition: 'Near Mint' | 'Lightly Played'): Variant => {
    const id = variantSlug(otherId, { condition, printing: 'Normal', language: 'English' });
    return {
      uuid: uuidV5(id),
      id,
      cardUuid: other.uuid,
      type: 'raw',
      condition,
      grading: null,
      printing: 'Normal',
      language: 'English',
      vendorSkuId: null,
    };
  };
  const otherNm = rawVariant('Near Mint');
  const otherLp = rawVariant('Lightly Played');

  useTestDatabase((opened) => (ds = opened));
  useTestClient((opened) => (client = opened));
  beforeEach(async () => {
    await writeCatalogue(ds, {
      ...cat,
      cards: [card!, other],
      variants: [...cat.variants, otherNm, otherLp],
    });
    ingest = new PriceIngestRepository(ds);
  });
  const nmLine = (
    region: string,
    currency: string,
    from: string,
    prices: (number | null)[],
  ): HistoryLine => ({
    card_id: card!.id,
    variant_id: nm!.id,
    variant_uuid: nm!.uuid,
    region,
    currency,
    from,
    prices,
  });

  it("reduces each UTC day to its last observation, a null for a day without, across months, per region (NA first), in the region's currency", async () => {
    const v = nm!.uuid;
    await ingest.ingest([
      // Two on one day: the later one's price is the day's.
      { variantUuid: v, region: 'NA', t: at(2025, 10, 28, 8), price: 1000 },
      { variantUuid: v, region: 'NA', t: at(2025, 10, 28, 20), price: 1234 },
      // Either side of midnight at a month's turn: two days, two month rows.
      { variantUuid: v, region: 'NA', t: at(2025, 10, 31, 23, 59, 59), price: 1500 },
      { variantUuid: v, region: 'NA', t: at(2025, 11, 1), price: 1600 },
      { variantUuid: v, region: 'NA', t: at(2025, 11, 1, 0, 0, 1), price: 1605 },
      { variantUuid: v, region: 'EU', t: at(2025, 11, 2, 12), price: 1050 },
      { variantUuid: v, region: 'EU', t: at(2025, 10, 28, 10), price: 999 },
      // Yen have no minor unit: 1480 minor units are 1480 yen.
      { variantUuid: v, region: 'JP', t: at(2025, 10, 30, 9), price: 1500 },
      { variantUuid: v, region: 'JP', t: at(2025, 10, 30, 18), price: 1480 },
    ]);
    // Written later but earlier in the day: the last by time, not by arrival, is the day's price.
    await ingest.ingest([{ variantUuid: v, region: 'NA', t: at(2025, 10, 28, 6), price: 700 }]);

    const result = await historyLines(client, [card!.uuid]);

    // The slab has no observations anywhere: no line of its own.
    expect(result.lines).toBe(3);
    expect(result.text).toBe(
      ndjson([
        // 28, 29 (none), 30 (none), 31 October, 1 November.
        nmLine('NA', 'USD', '2025-10-28', [12.34, null, null, 15, 16.05]),
        nmLine('EU', 'EUR', '2025-10-28', [9.99, null, null, null, null, 10.5]),
        nmLine('JP', 'JPY', '2025-10-30', [1480]),
      ]),
    );
    expect(result.text).not.toContain(psa!.id);
  });

  it('lists cards in the order given, then variants by id; unknown and unpriced cards add nothing', async () => {
    const t = at(2025, 10, 28, 12);
    await ingest.ingest([
      { variantUuid: nm!.uuid, region: 'NA', t, price: 100 },
      { variantUuid: otherNm.uuid, region: 'NA', t, price: 200 },
      { variantUuid: otherLp.uuid, region: 'NA', t, price: 300 },
    ]);
    const line = (c: Card, v: Variant, price: number): HistoryLine => ({
      card_id: c.id,
      variant_id: v.id,
      variant_uuid: v.uuid,
      region: 'NA',
      currency: 'USD',
      from: '2025-10-28',
      prices: [price],
    });
    expect([otherLp.id, otherNm.id].sort()).toEqual([otherLp.id, otherNm.id]);

    const unknown = uuidV5('no such card');
    expect(await historyLines(client, [other.uuid, unknown, card!.uuid])).toEqual({
      text: ndjson([line(other, otherLp, 3), line(other, otherNm, 2), line(card!, nm!, 1)]),
      lines: 3,
    });
    expect(await historyLines(client, [unknown])).toEqual({ text: '', lines: 0 });
    expect(await historyLines(client, [])).toEqual({ text: '', lines: 0 });
  });
});
