import { PATH_METADATA } from '@nestjs/common/constants';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Every controller class in an app's source (`root`, its `src`): what its OpenAPI document must
 * list, read from the files (each `*.controller.ts`).
 */
export function controllersInSource(root: string): unknown[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.controller.ts'))
    .flatMap((file) => Object.values(require(join(root, file)) as Record<string, unknown>))
    .filter((value) => typeof value === 'function' && Reflect.hasMetadata(PATH_METADATA, value));
}

/**
 * Fails, saying how to fix it, unless `document` is the committed docs/openapi/<app>.json (under
 * `repoRoot`). `document` goes through JSON first, as the generator writes it.
 */
export function expectCommittedOpenApi(document: object, app: string, repoRoot: string): void {
  const file = `docs/openapi/${app}.json`;
  const hint = `${file} does not match the code: run \`npm run openapi\` and commit the result.`;
  const committed = join(repoRoot, file);
  if (!existsSync(committed)) throw new Error(hint);
  try {
    expect(JSON.parse(JSON.stringify(document))).toEqual(JSON.parse(readFileSync(committed, 'utf8')));
  } catch (error) {
    throw new Error(`${hint}\n\n${(error as Error).message}`);
  }
}
