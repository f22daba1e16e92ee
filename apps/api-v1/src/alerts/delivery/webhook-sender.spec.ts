import { once } from 'node:events';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import tls from 'node:tls';
import { Webhook } from 'standardwebhooks';
import type { LookupAll } from './address-policy';
import { type SendOptions, sendWebhook } from './webhook-sender';
import { newWebhookSecret, webhookHeaders } from './webhook-signature';

/** What the local receiver saw. */
interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly method: string;
  readonly url: string;
  readonly body: string;
}

/** A receiver on 127.0.0.1: the only address these tests ever connect to. */
class Receiver {
  readonly requests: Received[] = [];
  connections = 0;
  private readonly server: Server;
  private readonly sockets = new Set<net.Socket>();

  constructor(handle: (req: IncomingMessage, res: ServerResponse) => void) {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        this.requests.push({
          headers: req.headers,
          method: req.method ?? '',
          url: req.url ?? '',
          body: Buffer.concat(chunks).toString('utf8'),
        });
        handle(req, res);
      });
    });
    this.server.on('connection', (socket: net.Socket) => {
      this.connections += 1;
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  async start(): Promise<this> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return this;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path = '/hook', host = '127.0.0.1'): URL {
    return new URL(`http://${host}:${this.port}${path}`);
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.server.close();
    await once(this.server, 'close');
  }
}

const options = (overrides: Partial<SendOptions> = {}): SendOptions => ({
  allowPrivate: true,
  connectTimeoutMs: 1000,
  responseTimeoutMs: 1000,
  maxResponseBytes: 64 * 1024,
  ...overrides,
});

const body = '{"alert":"price_above","cardId":42}';
const headers = () => webhookHeaders(newWebhookSecret(), 'msg_test', Math.floor(Date.now() / 1000), body);

describe('sendWebhook', () => {
  let receiver: Receiver | undefined;
  const listen = async (handle: (req: IncomingMessage, res: ServerResponse) => void) =>
    (receiver = await new Receiver(handle).start());

  afterEach(async () => {
    jest.restoreAllMocks();
    await receiver?.stop();
    receiver = undefined;
  });

  it.each([200, 201, 204])('succeeds on %i, posting the body and headers as given', async (status) => {
    const secret = newWebhookSecret();
    const timestamp = Math.floor(Date.now() / 1000);
    const sent = webhookHeaders(secret, 'msg_2xx', timestamp, body);
    const local = await listen((_req, res) =>
      res.writeHead(status).end(status === 204 ? undefined : 'thanks'),
    );

    const result = await sendWebhook(local.url('/hook?tenant=7'), sent, body, options());

    expect(result).toEqual({ ok: true, status, durationMs: expect.any(Number), error: null });
    expect(local.requests).toHaveLength(1);
    const [received] = local.requests;
    expect(received).toMatchObject({ method: 'POST', url: '/hook?tenant=7', body });
    expect(received.headers).toMatchObject({
      'webhook-id': 'msg_2xx',
      'webhook-timestamp': String(timestamp),
      'webhook-signature': sent['webhook-signature'],
      'content-type': 'application/json',
      'user-agent': 'tcg-pricing-webhooks/1',
      'content-length': String(Buffer.byteLength(body)),
      host: `127.0.0.1:${local.port}`,
    });
    // What a receiver does with it.
    expect(() =>
      new Webhook(secret).verify(received.body, received.headers as Record<string, string>),
    ).not.toThrow();
  });

  it.each([
    [500, 'http_500'],
    [404, 'http_404'],
    [429, 'http_429'],
  ])('fails on %i, keeping the status', async (status, error) => {
    const local = await listen((_req, res) => res.writeHead(status).end('nope'));
    const result = await sendWebhook(local.url(), headers(), body, options());
    expect(result).toEqual({ ok: false, status, durationMs: expect.any(Number), error });
  });

  it.each([301, 302, 307, 308])('does not follow a %i', async (status) => {
    const local = await listen((req, res) =>
      req.url === '/hook'
        ? res.writeHead(status, { location: '/elsewhere' }).end()
        : res.writeHead(200).end(),
    );
    const result = await sendWebhook(local.url(), headers(), body, options());
    expect(result).toEqual({
      ok: false,
      status,
      durationMs: expect.any(Number),
      error: 'redirect_not_followed',
    });
    expect(local.requests.map((r) => r.url)).toEqual(['/hook']);
  });

  it('times out on a receiver that never answers', async () => {
    const local = await listen(() => undefined);
    const result = await sendWebhook(local.url(), headers(), body, options({ responseTimeoutMs: 300 }));
    expect(result).toMatchObject({ ok: false, status: null, error: 'timeout' });
    expect(result.durationMs).toBeLessThan(3000);
  });

  it('stops reading a body that trickles past the deadline, keeping the status', async () => {
    const local = await listen((_req, res) => {
      res.writeHead(200);
      const drip = setInterval(() => res.write('.'), 20);
      res.on('close', () => clearInterval(drip));
    });
    const result = await sendWebhook(local.url(), headers(), body, options({ responseTimeoutMs: 300 }));
    expect(result).toMatchObject({ ok: true, status: 200, error: null });
    expect(result.durationMs).toBeLessThan(3000);
  });

  it('reads at most maxResponseBytes of a huge body and drops the connection', async () => {
    const total = 512 * 1024 * 1024;
    let written = 0;
    let finished = false;
    const closed = new Promise<void>((resolve) => {
      void listen((_req, res) => {
        res.writeHead(200, { 'content-length': String(total) });
        const chunk = Buffer.alloc(64 * 1024, 'x');
        const pump = () => {
          while (written < total && !res.destroyed) {
            written += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          if (written >= total) {
            finished = true;
            res.end();
          }
        };
        res.on('close', () => resolve());
        pump();
      });
    });
    await new Promise((resolve) => setImmediate(resolve));
    while (!receiver) await new Promise((resolve) => setTimeout(resolve, 5));

    const result = await sendWebhook(
      receiver.url(),
      headers(),
      body,
      options({ maxResponseBytes: 64 * 1024 }),
    );

    expect(result).toMatchObject({ ok: true, status: 200, error: null });
    expect(finished).toBe(false);
    await closed;
    // Socket buffers on both sides hold a few MB at most; the server never got near the whole body.
    expect(written).toBeLessThan(64 * 1024 * 1024);
  });

  it('refuses 127.0.0.1 when private addresses are not allowed, without connecting', async () => {
    const local = await listen((_req, res) => res.writeHead(200).end());
    const lookup = jest.fn<ReturnType<LookupAll>, Parameters<LookupAll>>();
    const result = await sendWebhook(
      new URL(`https://127.0.0.1:${local.port}/hook`),
      headers(),
      body,
      options({ allowPrivate: false, lookup }),
    );
    expect(result).toEqual({
      ok: false,
      status: null,
      durationMs: expect.any(Number),
      error: 'private_address',
    });
    expect(local.connections).toBe(0);
    expect(lookup).not.toHaveBeenCalled();
  });

  it('refuses plain http when private addresses are not allowed', async () => {
    const result = await sendWebhook(
      new URL('http://hooks.example.test/hook'),
      headers(),
      body,
      options({ allowPrivate: false, lookup: async () => [{ address: '8.8.8.8', family: 4 }] }),
    );
    expect(result).toMatchObject({ ok: false, status: null, error: 'https_required' });
  });

  it.each([
    [[{ address: '10.0.0.1', family: 4 }]],
    [
      [
        { address: '8.8.8.8', family: 4 },
        { address: '169.254.169.254', family: 4 },
      ],
    ],
  ])('refuses a name resolving to %j without connecting anywhere', async (addresses) => {
    // Connecting at all would be the bug: fail loudly instead of sending anything out.
    const netConnect = jest.spyOn(net, 'connect').mockImplementation(() => {
      throw new Error('net.connect must not be called');
    });
    const tlsConnect = jest.spyOn(tls, 'connect').mockImplementation(() => {
      throw new Error('tls.connect must not be called');
    });
    const result = await sendWebhook(
      new URL('https://hooks.example.test/hook'),
      headers(),
      body,
      options({ allowPrivate: false, lookup: async () => addresses }),
    );
    expect(result).toMatchObject({ ok: false, status: null, error: 'private_address' });
    expect(netConnect).not.toHaveBeenCalled();
    expect(tlsConnect).not.toHaveBeenCalled();
  });

  it('connects only to the address it checked, keeping the name as Host', async () => {
    const local = await listen((_req, res) => res.writeHead(202).end());
    // A second answer pointing elsewhere (DNS rebinding) must never be asked for.
    const answers = ['127.0.0.1', '10.0.0.1'];
    const lookup = jest.fn(async () => [{ address: answers.shift()!, family: 4 }]);

    const result = await sendWebhook(
      local.url('/hook', 'hooks.example.test'),
      headers(),
      body,
      options({ lookup }),
    );

    expect(result).toMatchObject({ ok: true, status: 202, error: null });
    expect(lookup).toHaveBeenCalledTimes(1);
    expect(local.requests).toHaveLength(1);
    expect(local.requests[0].headers.host).toBe(`hooks.example.test:${local.port}`);
  });

  it('ignores a host header among the headers given', async () => {
    const local = await listen((_req, res) => res.writeHead(200).end());
    const result = await sendWebhook(local.url(), { ...headers(), Host: 'evil.example' }, body, options());
    expect(result.ok).toBe(true);
    expect(local.requests[0].headers.host).toBe(`127.0.0.1:${local.port}`);
  });

  it('reports a refused connection', async () => {
    const local = await listen(() => undefined);
    const url = local.url();
    await local.stop();
    receiver = undefined;
    const result = await sendWebhook(url, headers(), body, options());
    expect(result).toMatchObject({ ok: false, status: null, error: 'connect_refused' });
  });

  it('reports a TLS failure (https to a plain-http receiver, through the pinned name)', async () => {
    const local = await listen((_req, res) => res.writeHead(200).end());
    const result = await sendWebhook(
      new URL(`https://hooks.example.test:${local.port}/hook`),
      headers(),
      body,
      options({ lookup: async () => [{ address: '127.0.0.1', family: 4 }] }),
    );
    expect(result).toMatchObject({ ok: false, status: null, error: 'tls_error' });
    expect(local.requests).toHaveLength(0);
  });

  it('calls an unresolvable name unresolvable', async () => {
    const result = await sendWebhook(
      new URL('https://nowhere.example.test/hook'),
      headers(),
      body,
      options({ allowPrivate: false, lookup: async () => [] }),
    );
    expect(result).toMatchObject({ ok: false, status: null, error: 'unresolvable' });
  });
});
