import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import { createPinoLogger } from './logger';
import { ServiceMetrics } from './metrics';
import { RequestObserver } from './request-observer';

/** A request and its response as far as the observer reads them; `close` ends the response. */
function exchange(method: string, headers: Record<string, string> = {}) {
  const res = Object.assign(new EventEmitter(), {
    statusCode: 200,
    writableFinished: true,
    getHeader: (name: string) => (name === 'x-request-id' ? headers['x-request-id'] : undefined),
  });
  const req = { method, headers, route: undefined as { path: string } | undefined, baseUrl: '' };
  return { req, res, close: () => res.emit('close') };
}

describe('RequestObserver', () => {
  let lines: Record<string, unknown>[];
  let sink: Writable;
  let metrics: ServiceMetrics;
  let observer: RequestObserver;

  beforeEach(() => {
    lines = [];
    sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const l of chunk.toString().split('\n').filter(Boolean))
          lines.push(JSON.parse(l) as Record<string, unknown>);
        done();
      },
    });
    metrics = new ServiceMetrics('api-test');
    observer = new RequestObserver(metrics, createPinoLogger('api-test', 'log', 'json', sink));
  });

  const count = async (labels: Record<string, string>) =>
    (await metrics.registry.getSingleMetric('tcg_http_requests_total')!.get()).values
      .filter((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l))
      .reduce((n, v) => n + v.value, 0);

  it('records a routed request once, under Express’s route template, with its caller', async () => {
    const { req, res, close } = exchange('GET', { 'x-request-id': 'abc-1' });
    const o = observer.observe(req as unknown as IncomingMessage, res as unknown as ServerResponse, 'v2');
    o.keyId = 'key-1';
    o.cost = 3;
    req.route = { path: '/v2/cards/:id' };
    close();
    close(); // a second close event changes nothing
    expect(await count({ route: '/v2/cards/:id', method: 'GET', version: 'v2', status: '200' })).toBe(1);
    expect(lines).toEqual([
      expect.objectContaining({
        msg: 'request',
        reqId: 'abc-1',
        route: '/v2/cards/:id',
        status: 200,
        keyId: 'key-1',
        cost: 3,
        durationMs: expect.any(Number),
      }),
    ]);
  });

  it('labels what no route matched `unmatched`, an unknown method `other`, and a cut response `aborted`', async () => {
    const { req, res, close } = exchange('BREW');
    observer.observe(req as unknown as IncomingMessage, res as unknown as ServerResponse, 'v1');
    res.writableFinished = false;
    close();
    expect(await count({ route: 'unmatched', method: 'other', status: 'aborted' })).toBe(1);
    expect(lines[0]).toMatchObject({ route: 'unmatched', method: 'other', status: 'aborted' });
  });

  it('writes no access line below LOG_LEVEL log, and still counts', async () => {
    const quiet = new RequestObserver(metrics, createPinoLogger('api-test', 'warn', 'json', new Writable()));
    const { req, res, close } = exchange('GET');
    quiet.observe(req as unknown as IncomingMessage, res as unknown as ServerResponse, 'v1');
    close();
    expect(await count({ route: 'unmatched' })).toBe(1);
    expect(lines).toEqual([]);
  });

  it('writes a health probe’s access line at debug only, and counts it', async () => {
    const probe = (o: RequestObserver): void => {
      const { req, res, close } = exchange('GET');
      o.observe(req as unknown as IncomingMessage, res as unknown as ServerResponse, 'none');
      req.route = { path: '/health/ready' };
      close();
    };
    probe(observer);
    expect(await count({ route: '/health/ready', status: '200' })).toBe(1);
    expect(lines).toEqual([]);

    probe(new RequestObserver(metrics, createPinoLogger('api-test', 'debug', 'json', sink)));
    expect(lines).toEqual([
      expect.objectContaining({ level: 'debug', msg: 'request', route: '/health/ready' }),
    ]);
  });
});
