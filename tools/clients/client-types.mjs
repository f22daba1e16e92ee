// The TypeScript client's types (clients/typescript/src/generated/), made from the committed
// OpenAPI documents (docs/openapi/, what the gateway serves at /openapi/v1.json and v2.json) by
// openapi-typescript. An ES module run by Node, because openapi-typescript's dependencies are ES
// modules that Jest's CommonJS runtime cannot load; client-types.spec.ts runs it the same way.
//   node tools/clients/client-types.mjs           rewrites the files (npm run clients:generate)
//   node tools/clients/client-types.mjs --print   prints them as JSON [{ path, text }], writes nothing
import openapiTS, { astToString } from 'openapi-typescript';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '../..');

export const CLIENT_TYPES = [
  { document: 'docs/openapi/api-v1.json', output: 'clients/typescript/src/generated/api-v1.ts' },
  { document: 'docs/openapi/api-v2.json', output: 'clients/typescript/src/generated/api-v2.ts' },
];

/** The generator's version goes into each file's header, so that an upgrade shows up as drift too. */
const version = JSON.parse(
  await readFile(join(ROOT, 'node_modules/openapi-typescript/package.json'), 'utf8'),
).version;

async function generate({ document, output }) {
  // Parsed here and passed as an object: nothing is fetched, no $ref leaves the document.
  const schema = JSON.parse(await readFile(join(ROOT, document), 'utf8'));
  const body = astToString(await openapiTS(schema));
  const header =
    `// Generated from ${document} by openapi-typescript ${version} (\`npm run clients:generate\`).\n` +
    '// Do not edit: change the API, run `npm run openapi`, then `npm run clients:generate`.\n';
  return { path: output, text: `${header}${body}` };
}

const files = await Promise.all(CLIENT_TYPES.map(generate));
if (process.argv.includes('--print')) {
  process.stdout.write(JSON.stringify(files));
} else {
  for (const { path, text } of files) {
    const target = join(ROOT, path);
    await mkdir(dirname(target), { recursive: true });
    // Aside, then renamed into place: a reader never sees half a file.
    await writeFile(`${target}.${process.pid}.partial`, text);
    await rename(`${target}.${process.pid}.partial`, target);
    process.stderr.write(
      `${JSON.stringify({ time: new Date().toISOString(), level: 'info', msg: 'client types written', file: path, bytes: Buffer.byteLength(text) })}\n`,
    );
  }
}
