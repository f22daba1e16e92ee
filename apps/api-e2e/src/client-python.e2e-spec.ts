import { execFile, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { card, dragon, goblin, knight, raw, seedCatalogue, series, SET, GAME } from './fixtures';
import { newKey } from './keys';
import { startStack, Stack } from './stack';

const ROOT = resolve(__dirname, '../../..');
const TESTS = 'clients/python/tests';
/** Unit and integration tests together take about 20 s here when the machine is idle. */
const PYTHON_DEADLINE_MS = 240_000;

/** The dragon, the knight, the goblin and five more, each with a priced Near Mint: pages of 3 need three. */
const cards = [dragon, knight, goblin, ...[1, 2, 3, 4, 5].map((n) => card(`Test Card ${n}`, String(20 + n)))];
const variants = cards.map((c) => raw(c, 'Near Mint', 'Normal', 'English'));

interface Run {
  code: number | string | null;
  output: string;
}

/** Runs the Python suite with `env`, its stdout and stderr together (unittest reports on stderr). */
function runPython(env: Record<string, string>): Promise<Run> {
  return new Promise((done) => {
    execFile(
      'python3',
      ['-m', 'unittest', 'discover', '-s', TESTS, '-v'],
      {
        cwd: ROOT,
        env: { PATH: process.env['PATH'] ?? '', PYTHONDONTWRITEBYTECODE: '1', ...env },
        timeout: PYTHON_DEADLINE_MS,
        killSignal: 'SIGKILL',
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error ? (error.code ?? error.signal ?? 'failed') : 0;
        done({ code, output: `${stdout}${stderr}` });
      },
    );
  });
}

/** `name → outcome` of each test of `module` in unittest's verbose report. */
function outcomes(output: string, module: string): Map<string, string> {
  const line = new RegExp(`^(test_\\w+) \\(${module}\\.(\\w+)\\.test_\\w+\\) \\.\\.\\. (\\w+)`, 'gm');
  return new Map([...output.matchAll(line)].map((m) => [`${m[2]}.${m[1]}`, m[3]!]));
}

describe('the Python client (clients/python) against the stack', () => {
  let stack: Stack;

  beforeAll(async () => {
    const python = spawnSync('python3', ['--version'], { encoding: 'utf8' });
    if (python.error || python.status !== 0)
      throw new Error(
        `python3 is not installed or does not run (${python.error?.message ?? python.stderr}): ` +
          'the Python client tests cannot run; install Python 3.10 or later',
      );
    await seedCatalogue(
      cards,
      variants,
      variants.map((v, i) => ({ variantUuid: v.uuid, ...series(500 + 100 * i) })),
    );
    // Webhook URLs on 127.0.0.1 are accepted; the sender is off, so nothing is sent to it.
    stack = await startStack({ v1Env: { ALERT_PRIVATE_URLS: 'allow' } });
  });

  afterAll(async () => {
    await stack?.close();
  });

  it(
    'passes its unit tests and its integration tests, none of them skipped',
    async () => {
      const [key, lowPlanKey] = await Promise.all([newKey('enterprise'), newKey('free')]);
      const seed = {
        game: GAME,
        set: { id: SET.id, name: SET.name },
        cards: cards.map((c) => ({ id: c.id, uuid: c.uuid, name: c.name })),
      };
      const { code, output } = await runPython({
        TCG_BASE_URL: stack.gatewayUrl,
        TCG_API_KEY: key,
        TCG_LOW_PLAN_KEY: lowPlanKey,
        TCG_SEED: JSON.stringify(seed),
        TCG_ALERT_URL: 'http://127.0.0.1:9/hook',
      });
      // The whole report on failure: which Python test failed and why.
      expect({ code, tail: output.slice(-6000) }).toEqual({
        code: 0,
        tail: expect.stringMatching(/\nOK\n?$/),
      });

      const integration = outcomes(output, 'test_integration');
      const skipped = [...integration].filter(([, outcome]) => outcome !== 'ok');
      expect(skipped).toEqual([]);
      // Ten checks through the sync and the async client each, and the README's and /docs's examples.
      expect(integration.size).toBe(22);
      expect([...integration.keys()].filter((k) => k.startsWith('AsyncLiveTest.'))).toHaveLength(10);
      expect(outcomes(output, 'test_client').size).toBeGreaterThan(60);
    },
    PYTHON_DEADLINE_MS + 30_000,
  );
});
