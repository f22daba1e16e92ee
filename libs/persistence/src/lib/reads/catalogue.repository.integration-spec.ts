import { DataSource } from 'typeorm';
import { seriesCards, seriesRead, tinyCatalogue, useTestDatabase } from '../../testing';
import { writeCatalogue } from '../catalogue';
import { CardQueryRepository } from './card-query.repository';
import { TypeOrmCatalogueRepository } from './catalogue.repository';

describe('TypeOrmCatalogueRepository (PostgreSQL)', () => {
  let ds: DataSource;
  let repo: TypeOrmCatalogueRepository;
  const cat = tinyCatalogue();
  const card = cat.cards[0]!;

  useTestDatabase((opened) => (ds = opened), { truncate: 'once' });
  beforeAll(async () => {
    repo = new TypeOrmCatalogueRepository(ds);
    await writeCatalogue(ds, cat);
  });

  it('reads back the card and its raw and graded variants as written, as domain types', async () => {
    const [read] = seriesCards(
      await new CardQueryRepository(ds).loadCards(
        [card.uuid],
        { includeNullPrices: true, graded: 'include' },
        seriesRead({ stats: false, parts: [] }),
      ),
    );
    expect(read?.card).toEqual(card);
    expect(read?.setName).toBe('First Edition');
    expect(read?.gameName).toBe('Test Game');
    expect(read?.variants.map((v) => v.variant)).toEqual(expect.arrayContaining(cat.variants));
    expect(read?.variants).toHaveLength(cat.variants.length);
  });

  it('finds a game by id or by display name, case-insensitively', async () => {
    expect(await repo.findGame('test-game')).toEqual({ id: 'test-game', name: 'Test Game' });
    expect(await repo.findGame('TEST game')).toEqual({ id: 'test-game', name: 'Test Game' });
    expect(await repo.findGame('chess')).toBeNull();
  });
});
