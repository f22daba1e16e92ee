import fc from 'fast-check';
import { listJson } from './series';

describe('listJson', () => {
  it('is, joined, the page’s JSON: its cards in order and its meta', () => {
    const card = fc.dictionary(
      fc.stringMatching(/^[a-z]{1,8}$/),
      fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
    );
    fc.assert(
      fc.property(
        fc.array(card, { maxLength: 5 }),
        fc.record({ total: fc.nat(), hasMore: fc.boolean() }),
        (cards, meta) => {
          const parts = listJson(
            cards.map((c) => JSON.stringify(c)),
            meta,
          );
          expect(JSON.parse(parts.join(''))).toEqual({ data: cards, meta });
          expect(parts[parts.length - 1]!.endsWith('}')).toBe(true);
        },
      ),
    );
  });
});
