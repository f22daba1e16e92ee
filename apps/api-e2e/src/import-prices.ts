import { workerDatabaseUrl } from '@tcg/persistence/testing';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const IMPORT = join(resolve(__dirname, '../../..'), 'dist/tools/importer/import.js');

/**
 * Runs the built price importer as a user does (`npm run import-prices -- file.ndjson`), on one
 * NDJSON file of these records, into this worker's database (or `databaseUrl`); resolves with its exit code once it
 * has exited, so every batch it applied has committed. Its log lines are shown only when it fails.
 */
export async function importPrices(
  records: readonly object[],
  databaseUrl = workerDatabaseUrl(),
): Promise<number | null> {
  const dir = await mkdtemp(join(tmpdir(), 'tcg-import-'));
  try {
    const file = join(dir, 'prices.ndjson');
    await writeFile(file, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
    let log = '';
    const code = await new Promise<number | null>((done) => {
      const child = spawn(process.execPath, [IMPORT, file], {
        env: { PATH: process.env['PATH'] ?? '', DATABASE_URL: databaseUrl },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
      child.on('close', done);
    });
    if (code !== 0) process.stderr.write(log);
    return code;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
