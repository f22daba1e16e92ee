import { restrictsKinds, type VariantFilter } from '@tcg/domain';
import { CARD_DOCUMENTS, CardDocument, JoinedVariantJson } from '@tcg/rendering';
import { sql } from 'kysely';
import { variantConditions } from '../sql/variant-conditions';
import { joined, type Sql } from '../sql/compile';
import { execute, type Connection } from '../sql/run';
import { RENDERED_COLUMN_OF } from '../sql/rendered-columns';

/** The variants every stored document holds: a default request's scope, the raw variants. */
const DOCUMENT_FILTER: VariantFilter = { includeNullPrices: true };
const DOCUMENT_SCOPE = variantConditions(DOCUMENT_FILTER, true);

/** Which variants of its cards a read returns: a filter, or the one variant or SKU a lookup names. */
export interface VariantScope {
  readonly filter: VariantFilter;
  readonly onlyVariant?: string;
  readonly onlySku?: string;
}

/**
 * Whether a read returns exactly the variants a stored document holds: every raw variant, in any
 * language, whatever its price (a price filter removes cards, never variants). Any other filter on
 * the variants, or a lookup's one variant or SKU, narrows them.
 */
export function holdsDocumentScope({ filter, onlyVariant, onlySku }: VariantScope): boolean {
  return (
    onlyVariant === undefined &&
    onlySku === undefined &&
    (filter.graded ?? 'exclude') === 'exclude' &&
    !restrictsKinds(filter) &&
    !filter.languages &&
    filter.updatedAfter === undefined
  );
}

/**
 * The correlated subquery that joins the JSON of card `c`'s variants matching `conditions` (over
 * `v` and `vp`) in SQL: per variant its stored head, `json.open`, the members, `json.close`;
 * comma-separated in variant order; NULL for none. `region` is the region of the series read.
 */
export function variantsAggregateSql(json: JoinedVariantJson, conditions: Sql, region: Sql): Sql {
  const members = joined(
    json.members.map((m) =>
      'part' in m ? sql`COALESCE(vp.${sql.raw(RENDERED_COLUMN_OF[m.part])}, ${m.missing})` : sql`${m.text}`,
    ),
    sql` || ',' || `,
  );
  const variantJson = sql`v.${sql.raw(`${json.head}_head`)} || ${json.open} || ${members} || ${json.close}`;
  return sql`(SELECT string_agg(${variantJson}, ',' ORDER BY v.id)
           FROM variants v
           LEFT JOIN variant_prices vp ON vp.variant_uuid = v.uuid AND vp.region = ${region}
           WHERE v.card_uuid = c.uuid AND ${conditions})`;
}

/**
 * The stored document that holds exactly what `json` joins over the variants `scope` returns with
 * their series in `region`, if there is one: a read then takes the card's stored text. The
 * specifications are built once (`v1JoinedJson`, `v2JoinedJson`), so the same one is the same object.
 */
export function storedDocument(
  json: JoinedVariantJson,
  scope: VariantScope,
  region: string,
): CardDocument | undefined {
  if (!holdsDocumentScope(scope)) return undefined;
  return CARD_DOCUMENTS.find((d) => d.region === region && d.json === json);
}

/**
 * Renders the stored documents of the given cards again, from their variants and series as this
 * transaction sees them; every write that changes a card's variants or their series in a
 * document's region calls it before committing.
 *
 * It first takes the transaction's data version (a no-op when its writes already took it, as every
 * write to the data tables does): writers hold it until they commit, one at a time, so the
 * rendering statement's snapshot includes every write committed before, and a writer committing
 * later renders after this one: a document never misses a committed write.
 */
export function refreshCardDocuments(
  client: Connection,
  cardUuids: readonly string[],
  /** Only these documents' columns (a migration renders those its schema has); default all. */
  columns?: readonly CardDocument['column'][],
): Promise<void> {
  const documents = columns ? CARD_DOCUMENTS.filter((d) => columns.includes(d.column)) : CARD_DOCUMENTS;
  if (cardUuids.length === 0) return Promise.resolve();
  return renderDocuments(client, sql`c.uuid = ANY(${cardUuids}::uuid[])`, documents);
}

/** The regions whose series the documents hold: a write of another region's series changes none. */
export const DOCUMENT_REGIONS: ReadonlySet<string> = new Set(CARD_DOCUMENTS.map((d) => d.region));

/** `refreshCardDocuments` for the cards of those of these variants that documents hold (raw ones). */
export function refreshDocumentsOfVariants(
  client: Connection,
  variantUuids: readonly string[],
): Promise<void> {
  if (variantUuids.length === 0) return Promise.resolve();
  return renderDocuments(
    client,
    sql`c.uuid IN (SELECT v.card_uuid FROM variants v WHERE v.uuid = ANY(${variantUuids}::uuid[]) AND ${DOCUMENT_SCOPE})`,
    CARD_DOCUMENTS,
  );
}

/**
 * Drops the stored documents of the cards of these variants, for a write that leaves their
 * rendering for later: such a card is answered from its parts, never from a stale document.
 */
export async function dropDocumentsOfVariants(
  client: Connection,
  variantUuids: readonly string[],
): Promise<void> {
  if (variantUuids.length === 0) return;
  await execute(
    client,
    sql`DELETE FROM card_documents d WHERE EXISTS
       (SELECT 1 FROM variants v WHERE v.card_uuid = d.card_uuid AND v.uuid = ANY(${variantUuids}::uuid[]))`,
  );
}

/**
 * Renders the documents of every card that has none: after a bulk write that left them out
 * (`writeCatalogue`'s `documents: false`), for the cards no price write rendered since.
 */
export function renderUndocumentedCards(client: Connection): Promise<void> {
  return renderDocuments(
    client,
    sql`NOT EXISTS (SELECT 1 FROM card_documents d WHERE d.card_uuid = c.uuid)
        AND EXISTS (SELECT 1 FROM variants v WHERE v.card_uuid = c.uuid AND ${DOCUMENT_SCOPE})`,
    CARD_DOCUMENTS,
  );
}

/** Renders `documents` of the cards `c` that `cardsWhere` selects. */
async function renderDocuments(
  client: Connection,
  cardsWhere: Sql,
  documents: readonly CardDocument[],
): Promise<void> {
  if (documents.length === 0) return;
  await execute(client, sql`SELECT next_data_version()`);
  // Columns from CARD_DOCUMENTS' own list.
  const columns = documents.map((d) => sql.raw(d.column));
  const rendered = documents.map((d) => variantsAggregateSql(d.json, DOCUMENT_SCOPE, sql`${d.region}::text`));
  await execute(
    client,
    sql`INSERT INTO card_documents (card_uuid, ${joined(columns)})
     SELECT c.uuid, ${joined(rendered)} FROM cards c WHERE ${cardsWhere}
     ON CONFLICT (card_uuid) DO UPDATE SET ${joined(columns.map((c) => sql`${c} = EXCLUDED.${c}`))}`,
  );
}
