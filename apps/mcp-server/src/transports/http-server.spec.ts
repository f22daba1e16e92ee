import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { INTERNAL_HEADERS } from '@tcg/http-service';
import { readHttpEnvironment, readStdioEnvironment, transportOf } from '../config/environment';
import { startHttpServer } from './http-server';

const TOKEN = 'mcp-spec-internal-credential-0123';
const CREDENTIAL = INTERNAL_HEADERS.credential;

describe('the MCP HTTP transport, before any tool runs', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    // Nothing listens at the API address: none of these requests reaches a tool.
    const env = readHttpEnvironment({
      INTERNAL_TOKEN: TOKEN,
      PORT: '1',
      TCG_API_URL: 'http://127.0.0.1:9',
      MCP_MAX_BODY_BYTES: '2048',
    });
    env.PORT = 0;
    server = await startHttpServer(env, pino({ level: 'silent' }));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  const post = (headers: Record<string, string>, body = '{"jsonrpc":"2.0","id":1,"method":"ping"}') =>
    fetch(`${base}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body,
    });

  it.each([
    ['no gateway credential', { 'x-api-key': 'k' }, 403, 'Requests must come through the API gateway.'],
    [
      'a wrong credential',
      { [CREDENTIAL]: 'x'.repeat(32), 'x-api-key': 'k' },
      403,
      'through the API gateway',
    ],
    ['no key', { [CREDENTIAL]: TOKEN }, 401, 'x-api-key'],
  ])('refuses a request with %s', async (_what, headers, status, message) => {
    const res = await post(headers);
    expect(res.status).toBe(status);
    const body = (await res.json()) as { error: { message: string } };
    expect(body.error.message).toContain(message);
  });

  it('answers a ping with the credential and a key, and the health paths without either', async () => {
    const res = await post({ [CREDENTIAL]: TOKEN, 'x-api-key': 'k' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    expect((await fetch(`${base}/health/live`)).status).toBe(200);
  });

  it('refuses a body that is not JSON (400, parse error), one past the cap (413) and a large batch (400)', async () => {
    const bad = await post({ [CREDENTIAL]: TOKEN, 'x-api-key': 'k' }, '{not json');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: number } }).error.code).toBe(-32700);
    const big = await post(
      { [CREDENTIAL]: TOKEN, 'x-api-key': 'k' },
      JSON.stringify({ pad: 'x'.repeat(4096) }),
    );
    expect(big.status).toBe(413);
    const ping = { jsonrpc: '2.0', method: 'ping' };
    const batch = await post(
      { [CREDENTIAL]: TOKEN, 'x-api-key': 'k' },
      JSON.stringify(Array.from({ length: 9 }, (_, id) => ({ ...ping, id }))),
    );
    expect(batch.status).toBe(400);
    expect(((await batch.json()) as { error: { message: string } }).error.message).toContain('at most 8');
  });

  it('is stateless: GET and DELETE are 405, naming POST', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${base}/mcp`, { method, headers: { [CREDENTIAL]: TOKEN, 'x-api-key': 'k' } });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
  });
});

describe('the MCP server configuration', () => {
  it('refuses a stdio start without a key, naming TCG_API_KEY', () => {
    expect(() => readStdioEnvironment({})).toThrow(/TCG_API_KEY/);
    expect(() => readStdioEnvironment({ TCG_API_KEY: 'k', TCG_API_URL: 'ftp://x' })).toThrow(/TCG_API_URL/);
    expect(readStdioEnvironment({ TCG_API_KEY: 'k' }).TCG_API_TIMEOUT_MS).toBe(10_000);
  });

  it('picks the transport from --http, else MCP_TRANSPORT', () => {
    expect(transportOf(['node', 'main.js'], {})).toBe('stdio');
    expect(transportOf(['node', 'main.js', '--http'], {})).toBe('http');
    expect(transportOf([], { MCP_TRANSPORT: 'http' })).toBe('http');
    expect(() => transportOf([], { MCP_TRANSPORT: 'sse' })).toThrow(/MCP_TRANSPORT must be stdio or http/);
  });
});
