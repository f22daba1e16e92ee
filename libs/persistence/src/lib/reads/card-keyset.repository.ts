import type { KeysetPage, KeysetPosition, KeysetQuery } from '@tcg/domain';
import type { CardKeysetReads } from './card-keyset.repository.port';
import type { ReadSource } from './read-replicas';
import { readAcceptedKinds } from './accepted-kinds.read';
import { readKeysetCount } from './card-keyset-count.read';
import { readKeysetPage } from './card-keyset-page.read';
import { keysetPlan, keysetReadsCardTops, type ResolvedKeysetQuery } from './card-keyset-plan';
import { TopRegions } from './top-region.read';

/**
 * v2's read side for browse and search: keyset pagination over a total order that always ends in
 * the card UUID, so a walk returns every card exactly once. Never OFFSET: a page costs the same
 * deep in a walk as at its start, and the set order reads the `(sort_key, uuid)` index.
 */
export class CardKeysetRepository implements CardKeysetReads {
  /** `reads`: a data source, or `ReadReplicas` (replicas up to date, else the primary). */
  constructor(private readonly reads: ReadSource) {}

  private readonly topRegions = new TopRegions(this.reads);

  /** A request's page and count run side by side on one query: resolved once for both. */
  private readonly resolved = new WeakMap<KeysetQuery, Promise<ResolvedKeysetQuery>>();

  async page(query: KeysetQuery, limit: number, position?: KeysetPosition): Promise<KeysetPage> {
    const plan = keysetPlan(await this.resolve(query));
    return readKeysetPage(this.reads, { plan, limit, position });
  }

  /**
   * How many cards match, or null when counting takes longer than `budgetMs` (docs/spec/decisions.md:
   * `total` is null past the budget).
   */
  async count(query: KeysetQuery, budgetMs: number): Promise<number | null> {
    if (budgetMs <= 0) return null;
    return readKeysetCount(this.reads, await this.resolve(query), budgetMs);
  }

  /**
   * The query with its filter's accepted kinds and, where it reads card_tops, whether card_tops
   * holds its region.
   */
  private resolve(query: KeysetQuery): Promise<ResolvedKeysetQuery> {
    let resolved = this.resolved.get(query);
    if (!resolved) {
      resolved = (async () => {
        const filter = await readAcceptedKinds(this.reads, query.filter);
        const priced = keysetReadsCardTops({ ...query, filter })
          ? await this.topRegions.priced(query.region)
          : undefined;
        return { ...query, filter, priced };
      })();
      this.resolved.set(query, resolved);
    }
    return resolved;
  }
}
