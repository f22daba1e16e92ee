import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * Every error code docs/spec/interface.md lists ("### Codes": one row per code, its status in
 * parentheses at the end of its meaning) is in both committed OpenAPI documents (the codes are
 * the same in v1 and v2), under that status: named by every response of that status, and in the
 * error body's `code` enum. And every status the spec gives an endpoint ("### Status codes per
 * endpoint") is one that endpoint documents.
 */
const ROOT = resolve(__dirname, '../..');
const SPEC = readFileSync(join(ROOT, 'docs/spec/interface.md'), 'utf8');

interface Operation {
  responses: Record<
    string,
    { description?: string; content?: Record<string, { schema?: { $ref?: string } }> }
  >;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties?: { code?: { enum?: string[] } } }> };
}

/** The rows of the markdown table under `heading`, as cells (header and rule rows left out). */
function tableUnder(heading: string): string[][] {
  const start = SPEC.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`interface.md has no "${heading}"`);
  const rows = [];
  for (const line of SPEC.slice(start + heading.length + 2).split('\n')) {
    if (rows.length > 0 && !line.startsWith('|')) break;
    if (line.startsWith('|'))
      rows.push(
        line
          .split('|')
          .slice(1, -1)
          .map((cell) => cell.trim()),
      );
  }
  return rows.slice(2);
}

/** code → status, from "### Codes". */
function specCodes(): Map<string, string> {
  return new Map(
    tableUnder('### Codes').map(([code, meaning]) => {
      const status = /\((\d{3})\)\s*$/.exec(meaning ?? '')?.[1];
      if (!code || !status) throw new Error(`cannot read the status of "${code}" in interface.md`);
      return [code, status];
    }),
  );
}

const DOCUMENTS = ['api-v1.json', 'api-v2.json'].map((file) => ({
  file,
  document: JSON.parse(readFileSync(join(ROOT, 'docs/openapi', file), 'utf8')) as Document,
}));

const operationsOf = (document: Document) =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ id: `${method.toUpperCase()} ${path}`, op })),
  );

it('reads the six codes of interface.md with their statuses', () => {
  expect(Object.fromEntries(specCodes())).toEqual({
    MISSING_API_KEY: '401',
    INVALID_API_KEY: '401',
    INVALID_REQUEST: '400',
    RATE_LIMIT_EXCEEDED: '429',
    DAILY_LIMIT_EXCEEDED: '429',
    REQUEST_LIMIT_EXCEEDED: '429',
  });
});

describe.each(DOCUMENTS)('docs/openapi/$file', ({ document }) => {
  it.each([...specCodes()])('lists %s under %s', (code, status) => {
    const responses = operationsOf(document).flatMap(({ id, op }) =>
      op.responses[status] ? [{ id, description: op.responses[status].description ?? '' }] : [],
    );
    expect(responses.length).toBeGreaterThan(0);
    const silent = responses.filter(({ description }) => !new RegExp(`\\b${code}\\b`).test(description));
    expect(silent.map(({ id }) => id)).toEqual([]);
    // The error body's schema (v1 ErrorDto, v2 ProblemDetailsDto) admits it.
    const schemas = new Set(
      operationsOf(document).flatMap(({ op }) =>
        Object.values(op.responses[status]?.content ?? {}).map((media) =>
          media.schema?.$ref?.split('/').pop(),
        ),
      ),
    );
    for (const schema of schemas)
      expect([schema, document.components.schemas[schema!]?.properties?.code?.enum]).toEqual([
        schema,
        expect.arrayContaining([code]),
      ]);
  });

  it('documents every status interface.md gives its endpoints', () => {
    const ids = new Set(operationsOf(document).map(({ id }) => id));
    const endpoints = tableUnder('### Status codes per endpoint')
      .map(([endpoint, statuses]) => ({
        id: endpoint!.replace(/^(\w+) /, (m) => m.toUpperCase()),
        statuses: statuses!.split(',').map((s) => s.trim()),
      }))
      .filter(({ id }) => ids.has(id));
    expect(endpoints.length).toBeGreaterThan(0);
    const ops = new Map(operationsOf(document).map(({ id, op }) => [id, op]));
    for (const { id, statuses } of endpoints)
      expect([id, Object.keys(ops.get(id)!.responses)]).toEqual([id, expect.arrayContaining(statuses)]);
  });
});
