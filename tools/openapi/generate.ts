import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { REPO_ROOT } from '../common/files';
import { log } from '../common/log';

/**
 * `npm run openapi`: writes each app's OpenAPI document to docs/openapi/<app>.json, where it is
 * committed; a spec in each app fails when the code and the committed document disagree.
 *
 * Tools may not import app code (Nx tags), so the documents come from the built apps in dist/
 * (the script builds first), loaded at run time the way `npm start` runs the built services.
 * Each app's `buildOpenApiDocument` needs no database or configuration.
 */
const APPS = ['api-v1', 'api-v2'] as const;

interface Document {
  readonly paths: Record<string, unknown>;
  readonly components?: Record<string, Record<string, unknown> | undefined>;
  readonly [key: string]: unknown;
}

const byName = <T>(map: Record<string, T> | undefined): Record<string, T> | undefined =>
  map && Object.fromEntries(Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/**
 * The order of paths and components follows the order Nest discovers modules in; sorting them by
 * name keeps the committed file from churning when imports move. Inside a schema, properties
 * stay in declaration order: the order the API sends them.
 */
function canonical({ openapi, info, servers, tags, paths, components, ...rest }: Document): Document {
  const sortedComponents =
    components && Object.fromEntries(Object.entries(byName(components)!).map(([k, v]) => [k, byName(v)]));
  return { openapi, info, servers, tags, ...rest, paths: byName(paths)!, components: sortedComponents };
}

async function main(): Promise<void> {
  for (const app of APPS) {
    const built = join(REPO_ROOT, 'dist/apps', app, 'src/openapi/openapi-document.js');
    const { buildOpenApiDocument } = (await import(built)) as { buildOpenApiDocument(): Promise<Document> };
    const document = canonical(await buildOpenApiDocument());
    const target = join(REPO_ROOT, 'docs/openapi', `${app}.json`);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, `${JSON.stringify(document, null, 2)}\n`);
    log('info', 'OpenAPI document written', {
      app,
      file: relative(REPO_ROOT, target),
      operations: Object.values(document.paths).reduce<number>(
        (n, ops) => n + Object.keys(ops as object).length,
        0,
      ),
    });
  }
}

main().catch((error: unknown) => {
  log('error', 'openapi failed', { error: (error as Error).stack ?? String(error) });
  process.exit(1);
});
