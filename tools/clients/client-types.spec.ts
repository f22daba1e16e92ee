import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');

/** What the generator makes of the committed documents now, without writing anything. */
function generated(): { path: string; text: string }[] {
  const out = execFileSync(process.execPath, [join(ROOT, 'tools/clients/client-types.mjs'), '--print'], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(out) as { path: string; text: string }[];
}

describe('the TypeScript client types', () => {
  const files = generated();

  it('are what the committed OpenAPI documents generate (else run npm run clients:generate)', () => {
    expect(files.map((f) => f.path)).toEqual([
      'clients/typescript/src/generated/api-v1.ts',
      'clients/typescript/src/generated/api-v2.ts',
    ]);
    for (const file of files) {
      let committed = '(missing)';
      try {
        committed = readFileSync(join(ROOT, file.path), 'utf8');
      } catch {
        // Compared below, so that the failure names the file.
      }
      // Lines, not one string: a failure shows the lines that differ.
      expect([file.path, committed.split('\n')]).toEqual([file.path, file.text.split('\n')]);
    }
  });

  it('type every operation of the documents, under its operationId', () => {
    for (const [document, file] of [
      ['docs/openapi/api-v1.json', files[0]!],
      ['docs/openapi/api-v2.json', files[1]!],
    ] as const) {
      const spec = JSON.parse(readFileSync(join(ROOT, document), 'utf8')) as {
        paths: Record<string, Record<string, { operationId: string }>>;
      };
      const ids = Object.values(spec.paths).flatMap((ops) => Object.values(ops).map((op) => op.operationId));
      expect(ids.length).toBeGreaterThan(0);
      for (const id of ids) expect([id, file.text.includes(`\n    ${id}: {`)]).toEqual([id, true]);
    }
  });
});
