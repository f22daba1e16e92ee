import 'reflect-metadata';
import { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { strictRouting } from '@tcg/http-service';
import fc from 'fast-check';
import type { Express } from 'express';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isRejection, parseRequestTarget } from './common/request-target';
import { GATEWAY_APP_OPTIONS } from './configure-app';
import { ProxyController } from './proxy/proxy.controller';
import { ProxyService } from './proxy/proxy.service';
import { servedByProxyRoute } from './request-listener';

/** The proxy's Express routes as configureApp sets them up, with a stand-in proxy that says so. */
async function expressRoutes(): Promise<{ app: INestApplication; port: number }> {
  const moduleRef = await Test.createTestingModule({
    controllers: [ProxyController],
    providers: [
      {
        provide: ProxyService,
        useValue: { handle: (_req: unknown, res: { end(s: string): void }) => res.end('proxied') },
      },
    ],
  }).compile();
  const app = moduleRef.createNestApplication({ ...GATEWAY_APP_OPTIONS, logger: false });
  strictRouting(app.getHttpAdapter().getInstance() as Express);
  await app.listen(0, '127.0.0.1');
  return { app, port: (app.getHttpServer().address() as AddressInfo).port };
}

/** Whether Express hands this exact request target to the proxy (sent as is, never normalised). */
function routedByExpress(port: number, target: string): Promise<boolean> {
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path: target, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => done(res.statusCode === 200 && body === 'proxied'));
    });
    req.on('error', fail);
    req.end();
  });
}

describe('servedByProxyRoute', () => {
  let app: INestApplication;
  let port: number;

  beforeAll(async () => {
    ({ app, port } = await expressRoutes());
  });

  afterAll(async () => {
    await app.close();
  });

  /** Every target the guard accepts: the listener serves it only if Express would proxy it too. */
  const agreesWithExpress = async (target: string): Promise<void> => {
    const parsed = parseRequestTarget(target);
    if (isRejection(parsed)) return;
    const fast = servedByProxyRoute(parsed);
    const routed = await routedByExpress(port, target);
    // Paths with escapes are left to Express, so the listener may only ever under-claim.
    if (parsed.path.includes('%')) expect({ target, fast }).toEqual({ target, fast: false });
    else expect({ target, fast }).toEqual({ target, fast: routed });
  };

  it.each([
    '/v1',
    '/v1/',
    '/v1/cards',
    '/v1/cards/',
    '/v1?cardId=x',
    '/v1/?x=1',
    '/v1/cards?cardId=x&q=a%20b',
    '/v2/cards/abc',
    '/v2',
    '/v2/',
    '/v2/a/b/c/',
    '/V1/cards',
    '/v1cards',
    '/v12',
    '/v3/cards',
    '/health',
    '/v1/;',
    '/v1/:id',
    '/v1/*',
    '/v1/(x)',
    '/v1/a%20b',
    '/v1/%E2%82%AC',
    '/v1/%ff',
  ])('%s: served by the listener only where Express routes it to the proxy', agreesWithExpress);

  it('agrees with Express on generated paths', async () => {
    const segment = fc.constantFrom(
      '',
      'v1',
      'v2',
      'V2',
      'cards',
      'a',
      ';',
      ':x',
      '*',
      '(',
      '~',
      '.',
      '..',
      '%41',
      '%zz',
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(segment, { minLength: 1, maxLength: 4 }),
        fc.constantFrom('', '?', '?a=1', '/'),
        async (segments, tail) => agreesWithExpress(`/${segments.join('/')}${tail}`),
      ),
      { numRuns: 200 },
    );
  });
});
