// Validates OpenAPI documents with @apidevtools/swagger-parser (an ES module, which Jest's
// CommonJS runtime cannot load: tools/openapi/openapi-documents.spec.ts runs this in Node).
// Usage: node tools/openapi/validate-document.mjs FILE...; prints one JSON line per file.
import SwaggerParser from '@apidevtools/swagger-parser';
import { readFileSync } from 'node:fs';

for (const file of process.argv.slice(2)) {
  try {
    await SwaggerParser.validate(JSON.parse(readFileSync(file, 'utf8')));
    process.stdout.write(`${JSON.stringify({ file, valid: true })}\n`);
  } catch (error) {
    process.stdout.write(
      `${JSON.stringify({ file, valid: false, error: String(error?.message ?? error) })}\n`,
    );
  }
}
