import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { ApiKeySigner } from '@tcg/domain';
import { workerDatabaseUrl } from '@tcg/persistence/testing';
import { startStack, Stack } from './stack';

const run = promisify(execFile);
const CLI = join(resolve(__dirname, '../../..'), 'dist/tools/keys/keys.js');

describe('npm run keys (the key CLI) against the gateway', () => {
  let stack: Stack;
  const keys = (...args: string[]) => keysWith({}, ...args);
  const keysWith = (env: Record<string, string>, ...args: string[]) =>
    run(process.execPath, [CLI, ...args], {
      env: { ...process.env, API_KEY_SECRET: '', DATABASE_URL: workerDatabaseUrl(), ...env },
    });

  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack.close();
  });

  it('creates a key that works, lists it, changes its plan and revokes it', async () => {
    const { stdout } = await keys('create', '--plan', 'free', '--label', 'cli test');
    const key = stdout.trim();
    expect(key).toMatch(/^tcg_[0-9A-Za-z]{43}$/);
    expect(new ApiKeySigner(undefined).verify(key)).toBe(true); // the gateway's default, as here
    const call = () => fetch(`${stack.gatewayUrl}/v2/cards`, { headers: { 'x-api-key': key } });
    expect((await call()).headers.get('ratelimit-policy')).toContain('"minute";q=10;');

    const listed = (await keys('list')).stdout.split('\n').find((l) => l.includes(key.slice(0, 12)))!;
    expect(listed.split('\t')).toEqual([
      expect.any(String),
      key.slice(0, 12),
      'free',
      '"cli test"',
      expect.any(String),
      '-',
    ]);
    const id = listed.split('\t')[0]!;

    await keys('plan', id, 'enterprise');
    await new Promise((r) => setTimeout(r, 400)); // the gateway's key cache (300 ms in the stack)
    expect((await call()).headers.get('ratelimit-policy')).toContain('"minute";q=1000;');

    await keys('revoke', key.slice(0, 12));
    await new Promise((r) => setTimeout(r, 400));
    expect((await call()).status).toBe(401);
  });

  it('issues keys under API_KEY_SECRET, which a gateway with another secret refuses', async () => {
    const secret = 'keys-cli-secret-0123456789';
    const { stdout, stderr } = await keysWith({ API_KEY_SECRET: secret }, 'create', '--plan', 'free');
    const key = stdout.trim();
    expect(new ApiKeySigner(secret).verify(key)).toBe(true);
    expect(stderr).not.toContain('API_KEY_SECRET is not set');
    const res = await fetch(`${stack.gatewayUrl}/v1/games`, { headers: { 'x-api-key': key } });
    expect(res.status).toBe(401);
    // Without the secret the tool says what it issues under.
    expect((await keys('create', '--plan', 'free')).stderr).toContain('API_KEY_SECRET is not set');
  });

  it('prints usage and exits 2 on a bad command', async () => {
    await expect(keys('create', '--plan', 'platinum')).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('usage:'),
    });
  });
});
