import type { IdFeed, IdKind, StoredIdAssertion } from '@tcg/persistence';

/** An assertion a feed made (unattributed back-filled rows are no feed's word: they never conflict). */
export type FeedAssertion = StoredIdAssertion & { readonly feed: IdFeed };

export interface IdConflict {
  readonly reason: 'values_differ' | 'value_shared';
  readonly kind: IdKind;
  readonly detail: string;
  readonly assertions: readonly FeedAssertion[];
}

const byFeed = (a: FeedAssertion, b: FeedAssertion) =>
  a.feed.localeCompare(b.feed) || a.value.localeCompare(b.value) || a.cardSlug.localeCompare(b.cardSlug);

function attributed(assertions: readonly StoredIdAssertion[]): FeedAssertion[] {
  return assertions.filter((a): a is FeedAssertion => a.feed !== null);
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): T[][] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return [...groups.values()];
}

/** A feed's latest word on one kind of one holder: the values of its latest day (null days are oldest). */
function latest(assertions: readonly FeedAssertion[]): FeedAssertion[] {
  const last = assertions.reduce<string | null>(
    (max, a) => (a.lastSeen !== null && (max === null || a.lastSeen > max) ? a.lastSeen : max),
    null,
  );
  return assertions.filter((a) => a.lastSeen === last);
}

const holderOf = (a: StoredIdAssertion) => `${a.cardUuid}|${a.variantUuid ?? ''}`;
const named = (a: StoredIdAssertion) => a.variantSlug ?? a.cardSlug;

/**
 * Where the feeds disagree over `own` (one card's assertions, or one id's holders) and `elsewhere`
 * (other cards' assertions of the same kinds and values):
 * - `values_differ`: for one card or variant and kind, two feeds whose latest values are not the
 *   same set (a feed that changed its value since is compared by its latest day only; one feed
 *   giving several values, as MTGJSON gives each face of a card its uuid, is no disagreement);
 * - `value_shared`: one value of a kind given to more than one card or variant, by any feeds.
 * Linear in the assertions, but for the sorts.
 */
export function idConflicts(
  own: readonly StoredIdAssertion[],
  elsewhere: readonly StoredIdAssertion[] = [],
): IdConflict[] {
  const conflicts: IdConflict[] = [];
  for (const sameKind of groupBy(attributed(own), (a) => `${holderOf(a)}|${a.kind}`)) {
    const feeds = groupBy(sameKind, (a) => a.feed).map(latest);
    if (feeds.length < 2) continue;
    const sets = feeds.map((f) => [...new Set(f.map((a) => a.value))].sort().join(' '));
    if (sets.every((s) => s === sets[0])) continue;
    const shown = feeds.flat().sort(byFeed);
    const said = feeds
      .map((f) => `${f[0]!.feed} says ${[...new Set(f.map((a) => a.value))].sort().join(', ')}`)
      .sort();
    const of = shown[0]!.variantSlug ? ` (variant ${shown[0]!.variantSlug})` : '';
    conflicts.push({
      reason: 'values_differ',
      kind: shown[0]!.kind,
      detail: `${shown[0]!.kind}${of}: ${said.join(', ')}`,
      assertions: shown,
    });
  }
  for (const sameValue of groupBy(attributed([...own, ...elsewhere]), (a) => `${a.kind}|${a.value}`)) {
    const holders = groupBy(sameValue, holderOf);
    if (holders.length < 2) continue;
    const shown = [...sameValue].sort(
      (a, b) => named(a).localeCompare(named(b)) || a.feed.localeCompare(b.feed),
    );
    const who = holders
      .map((h) => `${named(h[0]!)} (${[...new Set(h.map((a) => a.feed))].sort().join(', ')})`)
      .sort();
    conflicts.push({
      reason: 'value_shared',
      kind: shown[0]!.kind,
      detail: `${shown[0]!.kind} ${shown[0]!.value} is given to ${holders.length} ${shown[0]!.variantUuid ? 'variants' : 'cards'}: ${who.join(', ')}`,
      assertions: shown,
    });
  }
  return conflicts.sort(
    (a, b) =>
      a.reason.localeCompare(b.reason) || a.kind.localeCompare(b.kind) || a.detail.localeCompare(b.detail),
  );
}
