import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '../common/database';
import { freePort } from '../common/ports';

export interface RunningService {
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * Starts a built service (`dist/apps/<app>/src/main.js`) on a free port and waits for /health.
 * With BENCH_CPU_PROF=<dir> each service writes a V8 CPU profile there when it stops.
 */
export async function startService(app: string, env: Record<string, string>): Promise<RunningService> {
  const port = await freePort();
  const profileDir = process.env['BENCH_CPU_PROF'];
  const flags = profileDir
    ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${app}.cpuprofile`]
    : [];
  const child: ChildProcess = spawn(
    process.execPath,
    [...flags, join(REPO_ROOT, 'dist/apps', app, 'src/main.js')],
    {
      env: {
        PATH: process.env['PATH'] ?? '',
        LOG_LEVEL: 'warn',
        ...env,
        PORT: String(port),
        HOST: '127.0.0.1',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${app} exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/health`)).status < 500) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${app} did not start`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
