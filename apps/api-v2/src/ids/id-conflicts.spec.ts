import type { StoredIdAssertion } from '@tcg/persistence';
import { idConflicts } from './id-conflicts';

const WALL = '2b304dc1-0000-5000-8000-000000000001';
const BOLT = '2b304dc1-0000-5000-8000-000000000002';
const NM = '2b304dc1-0000-5000-8000-0000000000a1';
const LP = '2b304dc1-0000-5000-8000-0000000000a2';

const said = (over: Partial<StoredIdAssertion>): StoredIdAssertion => ({
  cardUuid: WALL,
  cardSlug: 'animate-wall',
  variantUuid: null,
  variantSlug: null,
  kind: 'tcgplayer_product',
  value: '1029',
  feed: 'mtgjson',
  firstSeen: '2026-12-01',
  lastSeen: '2026-12-07',
  ...over,
});

describe('idConflicts', () => {
  it.each<[string, StoredIdAssertion[], string[]]>([
    ['one feed alone', [said({})], []],
    ['two feeds agreeing', [said({}), said({ feed: 'scryfall' })], []],
    [
      'two feeds giving another value',
      [said({}), said({ feed: 'scryfall', value: '1030' })],
      ['tcgplayer_product: mtgjson says 1029, scryfall says 1030'],
    ],
    [
      // MTGJSON gives each face of a card its own uuid: several values of one feed are no disagreement.
      'one feed giving two values',
      [said({ kind: 'mtgjson_uuid', value: 'a' }), said({ kind: 'mtgjson_uuid', value: 'b' })],
      [],
    ],
    [
      'a feed that changed its value since: its latest day counts',
      [said({ lastSeen: '2026-11-30' }), said({ value: '1030' }), said({ feed: 'scryfall', value: '1030' })],
      [],
    ],
    [
      'an unattributed back-fill is no feed’s word',
      [said({}), said({ feed: null, value: '999', firstSeen: null, lastSeen: null })],
      [],
    ],
    [
      'two variants, each agreed on',
      [
        said({ variantUuid: NM, variantSlug: 'nm', kind: 'tcgplayer_sku', value: '1' }),
        said({ variantUuid: LP, variantSlug: 'lp', kind: 'tcgplayer_sku', value: '2' }),
      ],
      [],
    ],
    [
      'one SKU on two variants',
      [
        said({ variantUuid: NM, variantSlug: 'nm', kind: 'tcgplayer_sku', value: '1' }),
        said({ variantUuid: LP, variantSlug: 'lp', kind: 'tcgplayer_sku', value: '1', feed: 'tcgcsv' }),
      ],
      ['tcgplayer_sku 1 is given to 2 variants: lp (tcgcsv), nm (mtgjson)'],
    ],
    [
      'a variant’s SKU the feeds disagree on',
      [
        said({ variantUuid: NM, variantSlug: 'nm', kind: 'tcgplayer_sku', value: '1' }),
        said({ variantUuid: NM, variantSlug: 'nm', kind: 'tcgplayer_sku', value: '7', feed: 'tcgcsv' }),
      ],
      ['tcgplayer_sku (variant nm): mtgjson says 1, tcgcsv says 7'],
    ],
  ])('%s', (_, own, details) => {
    expect(idConflicts(own).map((c) => c.detail)).toEqual(details);
  });

  it('names another card holding one of the card’s values, with every assertion', () => {
    const elsewhere = [said({ cardUuid: BOLT, cardSlug: 'lightning-bolt', feed: 'scryfall' })];
    const [conflict, ...rest] = idConflicts([said({})], elsewhere);
    expect(rest).toEqual([]);
    expect(conflict).toEqual({
      reason: 'value_shared',
      kind: 'tcgplayer_product',
      detail: 'tcgplayer_product 1029 is given to 2 cards: animate-wall (mtgjson), lightning-bolt (scryfall)',
      assertions: [said({}), elsewhere[0]],
    });
  });
});
