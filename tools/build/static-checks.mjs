// @ts-check
/**
 * `npm test`'s checks that read the sources without running them — the format check, lint and
 * type check — run at once: one at a time they left a core idle for most of their 75 s on a
 * 2-core machine, together they take 55 s. Each one's output is printed when it ends, under its
 * name and time, so the three never interleave; the exit code is 1 if any failed.
 */
import { spawn } from 'node:child_process';

const CHECKS = ['format:check', 'lint', 'typecheck'];

/** @param {string} script @returns {Promise<{ script: string, code: number | null, output: string, seconds: number }>} */
function run(script) {
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('error', (error) => done({ script, code: 1, output: String(error), seconds: 0 }));
    child.once('close', (code) => done({ script, code, output, seconds: (Date.now() - started) / 1000 }));
  });
}

const results = await Promise.all(
  CHECKS.map((script) =>
    run(script).then((result) => {
      const verdict = result.code === 0 ? 'passed' : `FAILED (exit ${result.code})`;
      process.stdout.write(
        `== npm run ${script}: ${verdict} in ${result.seconds.toFixed(0)} s\n${result.output}`,
      );
      return result;
    }),
  ),
);
process.exitCode = results.every((r) => r.code === 0) ? 0 : 1;
