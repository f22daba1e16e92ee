import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { languageOfScryfall } from '../magic/vocabulary';
import { readScryfallCards, type FeedScryfallCard } from './default-cards';

/** Card objects Scryfall's API answered, recorded by a client's test suite: fixtures/real/README.md. */
const REAL = join(__dirname, '..', 'fixtures', 'real', 'scryfall', 'default-cards-excerpt.json');

describe('Scryfall card objects as the API answered them (2019, before `cardmarket_id`)', () => {
  let cards: FeedScryfallCard[];
  beforeAll(async () => {
    cards = [];
    for await (const card of readScryfallCards('default-cards-excerpt.json', createReadStream(REAL)))
      cards.push(card);
  });

  it('reads a two-faced card, its image from its front face', () => {
    expect(cards[0]).toEqual({
      id: '02d6d693-f1f3-4317-bcc0-c21fa8490d38',
      lang: 'en',
      name: "Jace, Vryn's Prodigy // Jace, Telepath Unbound",
      set: 'ori',
      collectorNumber: '60',
      tcgplayerId: '100191',
      tcgplayerEtchedId: null,
      cardmarketId: null,
      prices: { usd: 22.39, usdFoil: 32.67, usdEtched: null, eur: 15.78, eurFoil: null },
      imageUri:
        'https://img.scryfall.com/cards/normal/front/0/2/02d6d693-f1f3-4317-bcc0-c21fa8490d38.jpg?1562005031',
    });
    expect(languageOfScryfall(cards[0]!.lang)).toBe('English');
  });

  it('reads a meld card with a lettered number and no EUR price', () => {
    expect(cards[1]).toMatchObject({
      name: 'Bruna, the Fading Light',
      set: 'emn',
      collectorNumber: '15a',
      tcgplayerId: '119686',
      prices: { usd: 1.52, usdFoil: 5.61, eur: null },
    });
  });
});
