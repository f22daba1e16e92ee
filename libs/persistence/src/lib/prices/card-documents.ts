import { restrictsKinds, type VariantFilter } from '@tcg/domain';
import { CARD_DOCUMENTS, CardDocument, JoinedVariantJson } from '@tcg/rendering';
import { Bind, binder, variantConditions } from '../repositories/card-sql';
import type { SqlClient } from '../summaries';
import { RENDERED_COLUMN_OF } from './rendered-columns';

/** The variants every stored document holds: a default request's scope, the raw variants. */
const DOCUMENT_FILTER: VariantFilter = { includeNullPrices: true };
const DOCUMENT_SCOPE = variantConditions(DOCUMENT_FILTER, binder([]), true);

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
 * comma-separated in variant order; NULL for none. `regionSql` is the region of the series read.
 */
export function variantsAggregateSql(
  json: JoinedVariantJson,
  conditions: string,
  p: Bind,
  regionSql: string,
): string {
  const members = json.members
    .map((m) => ('part' in m ? `COALESCE(vp.${RENDERED_COLUMN_OF[m.part]}, ${p(m.missing)})` : p(m.text)))
    .join(` || ',' || `);
  const variantJson = `v.${json.head}_head || ${p(json.open)} || ${members} || ${p(json.close)}`;
  return `(SELECT string_agg(${variantJson}, ',' ORDER BY v.id)
           FROM variants v
           LEFT JOIN variant_prices vp ON vp.variant_uuid = v.uuid AND vp.region = ${regionSql}
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
  client: SqlClient,
  cardUuids: readonly string[],
  /** Only these documents' columns (a migration renders those its schema has); default all. */
  columns?: readonly CardDocument['column'][],
): Promise<void> {
  const documents = columns ? CARD_DOCUMENTS.filter((d) => columns.includes(d.column)) : CARD_DOCUMENTS;
  return renderDocuments(client, 'c.uuid = ANY($1::uuid[])', cardUuids, documents);
}

/** The regions whose series the documents hold: a write of another region's series changes none. */
export const DOCUMENT_REGIONS: ReadonlySet<string> = new Set(CARD_DOCUMENTS.map((d) => d.region));

/** `refreshCardDocuments` for the cards of those of these variants that documents hold (raw ones). */
export function refreshDocumentsOfVariants(
  client: SqlClient,
  variantUuids: readonly string[],
): Promise<void> {
  return renderDocuments(
    client,
    `c.uuid IN (SELECT v.card_uuid FROM variants v WHERE v.uuid = ANY($1::uuid[]) AND ${DOCUMENT_SCOPE})`,
    variantUuids,
    CARD_DOCUMENTS,
  );
}

/** Renders `documents` of the cards `c` that `cardsWhere` (over `$1`, `uuids`) selects. */
async function renderDocuments(
  client: SqlClient,
  cardsWhere: string,
  uuids: readonly string[],
  documents: readonly CardDocument[],
): Promise<void> {
  if (uuids.length === 0 || documents.length === 0) return;
  await client.query('SELECT next_data_version()');
  const params: unknown[] = [uuids];
  const p = binder(params);
  const columns = documents.map((d) => d.column);
  const rendered = documents.map((d) =>
    variantsAggregateSql(d.json, DOCUMENT_SCOPE, p, `${p(d.region)}::text`),
  );
  await client.query(
    `INSERT INTO card_documents (card_uuid, ${columns.join(', ')})
     SELECT c.uuid, ${rendered.join(', ')} FROM cards c WHERE ${cardsWhere}
     ON CONFLICT (card_uuid) DO UPDATE SET ${columns.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}`,
    params,
  );
}
