import { cardSlug, slugify } from '@tcg/domain';

/**
 * New slugs for what a feed adds to a game's catalogue, by the loader's rules
 * (tools/loader/catalogue/build-catalogue.ts), unique among the stored ones and those given before:
 * a set `<game>-<name>` (its code appended when taken); a card `<set>-<name>-<rarity>`, its number
 * appended when that is taken, then an ordinal.
 */
export class CatalogueIds {
  private readonly setIds: Set<string>;
  private readonly cardIds: Set<string>;

  constructor(setIds: Iterable<string>, cardIds: Iterable<string>) {
    this.setIds = new Set(setIds);
    this.cardIds = new Set(cardIds);
  }

  newSetId(gameId: string, name: string, code: string): string {
    let id = `${gameId}-${slugify(name)}`;
    if (this.setIds.has(id)) id = `${id}-${slugify(code)}`;
    const stem = id;
    for (let k = 2; this.setIds.has(id); k++) id = `${stem}-${k}`;
    this.setIds.add(id);
    return id;
  }

  newCardId(setId: string, name: string, rarity: string, number: string | null): string {
    const base = cardSlug({ game: '', set: setId, name, rarity });
    let id = base;
    if (this.cardIds.has(id) && number) id = cardSlug({ game: '', set: setId, name, rarity, number });
    const stem = id;
    for (let k = 2; this.cardIds.has(id); k++) id = `${stem}-${k}`;
    this.cardIds.add(id);
    return id;
  }
}
