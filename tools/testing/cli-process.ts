import { workerDatabaseUrl } from '@tcg/persistence/testing';
import { ChildProcess, spawn } from 'node:child_process';

/** A built CLI a test started (and may kill): the process, its exit, its stderr so far. */
export interface CliProcess {
  readonly child: ChildProcess;
  /** Resolves with the exit code (or the signal's name). */
  readonly exited: Promise<number | string>;
  stderr(): string;
}

/** `node <script> <args>` (a `dist/` file: build first) on this worker's database, as a user runs it. */
export function startCli(script: string, args: readonly string[]): CliProcess {
  const child = spawn(process.execPath, [script, ...args], {
    env: { ...process.env, DATABASE_URL: workerDatabaseUrl() },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | string>((done) =>
    child.once('exit', (code, signal) => done(code ?? signal ?? -1)),
  );
  return { child, exited, stderr: () => stderr };
}
