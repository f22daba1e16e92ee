import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The committed documents (each app's openapi-document spec keeps them equal to the code). */
const ROOT = resolve(__dirname, '../..');
const DOCUMENTS = ['api-v1.json', 'api-v2.json'].map((file) => ({
  file,
  path: join(ROOT, 'docs/openapi', file),
}));

/** @apidevtools/swagger-parser's verdict on a file, from a Node process of its own. */
function validate(path: string): { file: string; valid: boolean; error?: string } {
  const out = execFileSync(process.execPath, [join(ROOT, 'tools/openapi/validate-document.mjs'), path], {
    encoding: 'utf8',
  });
  return JSON.parse(out) as { file: string; valid: boolean; error?: string };
}

/** Every object in `node` with its JSON pointer. */
function objectsIn(node: unknown, path = ''): { path: string; object: Record<string, unknown> }[] {
  if (node === null || typeof node !== 'object') return [];
  const here = Array.isArray(node) ? [] : [{ path, object: node as Record<string, unknown> }];
  return [...here, ...Object.entries(node).flatMap(([key, value]) => objectsIn(value, `${path}/${key}`))];
}

describe.each(DOCUMENTS)('docs/openapi/$file', ({ path }) => {
  it('is a valid OpenAPI 3.0 document (schema and references, by @apidevtools/swagger-parser)', () => {
    expect(validate(path)).toEqual({ file: path, valid: true });
  });

  it('admits null in every nullable enum, as OpenAPI 3.0 requires for null to pass', () => {
    const refusing = objectsIn(JSON.parse(readFileSync(path, 'utf8')))
      .filter(({ object }) => object['nullable'] === true && Array.isArray(object['enum']))
      .filter(({ object }) => !(object['enum'] as unknown[]).includes(null))
      .map(({ path: pointer }) => pointer);
    expect(refusing).toEqual([]);
  });
});

it('the validator refuses what is not an OpenAPI document, saying why', () => {
  const bad = join(ROOT, 'tools/openapi/openapi-documents.spec.ts'); // not JSON at all
  expect(validate(bad)).toMatchObject({ valid: false, error: expect.stringMatching(/JSON/) });
});
