import { DataSource } from 'typeorm';
import { testDataSource, tinyCatalogue, truncateAll } from '../../testing';
import { writeCatalogue } from '../catalogue-writer';
import { TypeOrmCatalogueRepository } from './catalogue.repository';

describe('TypeOrmCatalogueRepository (PostgreSQL)', () => {
  let ds: DataSource;
  let repo: TypeOrmCatalogueRepository;
  const cat = tinyCatalogue();
  const card = cat.cards[0]!;

  beforeAll(async () => {
    ds = await testDataSource();
    repo = new TypeOrmCatalogueRepository(ds);
    await truncateAll(ds);
    await writeCatalogue(ds, cat);
  });
  afterAll(async () => {
    await ds.destroy();
  });

  it('returns the card it was given, by UUID (any case) or slug, naming its set by slug', async () => {
    expect(await repo.findCardByUuidOrSlug(card.uuid.toUpperCase())).toEqual(card);
    expect(await repo.findCardByUuidOrSlug(card.id)).toEqual(card);
    expect(await repo.findCardByUuidOrSlug('nope')).toBeNull();
  });

  it('returns raw and graded variants as domain types', async () => {
    const variants = await repo.variantsOfCards([card.uuid]);
    expect(variants.get(card.uuid)).toEqual(expect.arrayContaining(cat.variants));
    expect(variants.get(card.uuid)).toHaveLength(cat.variants.length);
  });

  it('finds a game by id or by display name, case-insensitively', async () => {
    expect(await repo.findGame('test-game')).toEqual({ id: 'test-game', name: 'Test Game' });
    expect(await repo.findGame('TEST game')).toEqual({ id: 'test-game', name: 'Test Game' });
    expect(await repo.counts()).toMatchObject({
      games: 1,
      sets: 1,
      cards: 1,
      rawVariants: 1,
      gradedVariants: 1,
    });
  });
});
