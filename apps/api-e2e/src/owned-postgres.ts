import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * A PostgreSQL server a fault suite owns, to stop and resume as it likes: the machine's shared
 * one is never touched.
 */

/** The part of tools/common/embedded-postgres.ts the fault suites use. */
export interface EmbeddedServer {
  readonly url: (database: string) => string;
  readonly dataDir: string;
  stop(): Promise<void>;
}

/**
 * The embedded PostgreSQL that `npm start` and the test setup run, from its build in dist/ (as
 * the keys CLI suite runs the built CLI): tests import no tool code.
 */
export function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  persistent: boolean;
}): Promise<EmbeddedServer> {
  const built = join(resolve(__dirname, '../../..'), 'dist/tools/common/embedded-postgres.js');
  const tool = require(built) as { startEmbeddedPostgres: (o: typeof opts) => Promise<EmbeddedServer> };
  return tool.startEmbeddedPostgres(opts);
}

/** The postmaster (from its pid file) and every process it started: the whole server. */
export function serverProcesses(dataDir: string): number[] {
  const postmaster = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        // Field 4 of /proc/<pid>/stat, after the parenthesised command name, is the parent pid.
        const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster;
      } catch {
        return false; // exited meanwhile
      }
    })
    .map(Number);
  return [postmaster, ...children];
}

/** Sends `sig` to each process still there (SIGSTOP/SIGCONT to the whole server). */
export function signal(pids: readonly number[], sig: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, sig);
    } catch {
      // already gone
    }
  }
}
