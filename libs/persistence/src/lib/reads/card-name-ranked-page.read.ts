import { sql } from 'kysely';
import type { NamedSearch } from './card-page-plan';
import type { PageRange, PageStatement } from './card-page';
import { gameAndSet, relevance } from './card-fragments';
import { and } from '../sql/compile';

/**
 * A page of a search ranked by name (`CardPagePlan.named`), its count joined to it as a deep page's
 * is (a page past the end is one row without a card). A search's relevance is its name's alone,
 * so the distinct names are matched and ranked once each (search_names' trigram index), and the
 * matches are counted from card_name_facets, each name's cards by game, region and variant kinds.
 * The cards read are those of the names ranked down to the page's last position (ties included),
 * each probed for a variant the filter returns as a search of the cards is: the same cards in the
 * same order (the plan's, relevance then catalogue order), without visiting every match. The match
 * is three arms, the substring, the similar names and the names with a similar word, each planned
 * on its own: a pattern the trigram index cannot narrow (the APIs refuse a `q` without three
 * letters or digits in a row, but the statement does not rely on it) then costs a LIKE per name,
 * not every name's similarity too, and a candidate of one trigram arm is rechecked by its own
 * operator only (one arm with `%` OR `<%` computed both for each). A name's count is a probe of
 * card_name_facets' key, which leads with the name, rather than a join the planner may build over
 * every name's rows: a hash join over all of them took 44 ms at `full` for 172 names. `OFFSET 0`
 * keeps that probe to one per name: pulled up, the subquery's count was computed for the filter
 * and again for the output. The two took the statement from 12.6 to 10.4 ms a search (300 words
 * of card names at `full`, the same rows). The game, if any, is `gameAndSet`'s condition, as on a
 * search of the cards.
 */
export function nameRankedCardPage(named: NamedSearch, { limit, offset }: PageRange): PageStatement {
  const { text, selector, facets, cardHasVariant } = named;
  return {
    shape: 'deep',
    offset,
    sql: sql`WITH m AS (
           SELECT n.folded FROM search_names n WHERE n.folded LIKE ${text.like}
           UNION
           SELECT n.folded FROM search_names n WHERE n.folded % ${text.q}
           UNION
           SELECT n.folded FROM search_names n WHERE ${text.q} <% n.folded),
         counted AS (
           SELECT x.folded, x.rel, x.cards FROM (
             SELECT m.folded, ${relevance(text, sql`m.folded`)} AS rel,
                    (SELECT sum(f.cards) FROM card_name_facets f WHERE ${and([sql`f.folded = m.folded`, facets, ...gameAndSet(selector, 'f')])})::int AS cards
             FROM m OFFSET 0) x
           WHERE x.cards > 0),
         cut AS (
           SELECT x.rel FROM (SELECT rel, sum(cards) OVER (ORDER BY rel DESC) AS upto FROM counted) x
           WHERE x.upto >= ${offset + limit}::int ORDER BY x.rel DESC LIMIT 1)
         SELECT pg.uuid, t.n AS total FROM (SELECT coalesce(sum(cards), 0)::int AS n FROM counted) t
         LEFT JOIN (SELECT o.uuid, row_number() OVER () AS ord FROM (
           SELECT c.uuid FROM counted n JOIN cards c ON ${and([sql`lower(c.name) = n.folded`, ...gameAndSet(selector, 'c')])}
           WHERE n.rel >= coalesce((SELECT rel FROM cut), '-Infinity'::float8) AND ${cardHasVariant}
           ORDER BY n.rel DESC, c.sort_key, c.uuid
           LIMIT ${limit} OFFSET ${offset}) o) pg ON true
         ORDER BY pg.ord`,
  };
}
