import 'reflect-metadata';
import { All, Controller, INestApplication, Res } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { type RequestObserver, strictRouting } from '@tcg/http-service';
import fc from 'fast-check';
import type { Express, Response } from 'express';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GatewayExceptionFilter } from './common/gateway-exception.filter';
import { isRejection, parseRequestTarget } from './common/request-target';
import { GATEWAY_APP_OPTIONS } from './configure-app';
import type { ProxyService } from './proxy/proxy.service';
import { serveProxyBeforeExpress } from './request-listener';

const DOCS_URL = 'https://docs.example.com/errors';

/** The proxy's routes as they were when Express routed to them (before the listener served them all). */
@Controller()
class FormerProxyRoutes {
  @All(['v1', 'v1/*path'])
  v1(@Res() res: Response): void {
    res.end('proxied');
  }

  @All(['v2', 'v2/*path'])
  v2(@Res() res: Response): void {
    res.end('proxied');
  }
}

async function formerRoutes(): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({ controllers: [FormerProxyRoutes] }).compile();
  const app = moduleRef.createNestApplication({ ...GATEWAY_APP_OPTIONS, logger: false });
  strictRouting(app.getHttpAdapter().getInstance() as Express);
  app.useGlobalFilters(new GatewayExceptionFilter(DOCS_URL));
  await app.listen(0, '127.0.0.1');
  return app;
}

/** The gateway's listener with a proxy that says it was reached, and Express answering 'express'. */
async function listener(): Promise<Server> {
  const express = (_req: unknown, res: { end(s: string): void }) => res.end('express');
  const server = createServer(express);
  const proxy = { serve: (_req: unknown, res: { end(s: string): void }) => res.end('proxied') };
  const observer = {
    observe: () => ({ route: undefined, version: 'none', keyId: undefined, cost: undefined }),
  };
  serveProxyBeforeExpress(
    server,
    express,
    proxy as unknown as ProxyService,
    { maxBodyBytes: 1024, docsUrl: DOCS_URL, linger: { maxBytes: 4096, ms: 1_000 } },
    '*',
    observer as unknown as RequestObserver,
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return server;
}

/** What a client gets for this exact request target (sent as is, never normalised). */
function answer(port: number, target: string, method: string): Promise<string> {
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path: target, method, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => done(`${res.statusCode} ${res.headers['content-type'] ?? '-'} ${body}`));
    });
    req.on('error', fail);
    req.end();
  });
}

describe('the gateway listener routes /v1 and /v2 as the former Express routes did', () => {
  let former: INestApplication;
  let ours: Server;
  let formerPort: number;
  let ourPort: number;

  beforeAll(async () => {
    [former, ours] = await Promise.all([formerRoutes(), listener()]);
    formerPort = (former.getHttpServer().address() as AddressInfo).port;
    ourPort = (ours.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await former.close();
    await new Promise((r) => ours.close(r));
  });

  /** Every versioned target the guard accepts gets the same status, type and body from both. */
  const agrees = async (target: string, method = 'GET'): Promise<void> => {
    const parsed = parseRequestTarget(target);
    if (isRejection(parsed) || !parsed.version) return;
    const [was, is] = await Promise.all([
      answer(formerPort, target, method),
      answer(ourPort, target, method),
    ]);
    expect({ target, method, is }).toEqual({ target, method, is: was });
  };

  it.each([
    '/v1',
    '/v1/',
    '/v1/cards',
    '/v1/cards/',
    '/v1?cardId=x',
    '/v1/?x=1',
    '/v1/cards?cardId=x&q=a%20b',
    '/v1/cards?cardId=%ff',
    '/v2/cards/abc',
    '/v2',
    '/v2/',
    '/v2/a/b/c/',
    '/v1/;',
    '/v1/:id',
    '/v1/*',
    '/v1/(x)',
    '/v1/a%20b',
    '/v1/%E2%82%AC',
    '/v1/%ff',
    '/v1/cards/%ff',
    '/v1/x%ffy/%fe',
    '/v2/cards/%ff',
    '/v2/cards/%C3',
    '/v1/%c0%af',
    '/v1/%ed%a0%80',
  ])('%s', (target) => agrees(target));

  it.each(['HEAD', 'POST', 'OPTIONS', 'DELETE'])('%s on /v1/ and an undecodable path', async (method) => {
    await agrees('/v1/', method);
    await agrees('/v2/cards/%ff', method);
  });

  it('agrees on generated paths', async () => {
    const segment = fc.constantFrom(
      '',
      'v1',
      'v2',
      'cards',
      'a',
      ';',
      ':x',
      '*',
      '(',
      '~',
      '%41',
      '%zz',
      '%ff',
      '%C3%A9',
      '%C3',
      '%e2%82%ac',
      'a%80b',
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/v1', '/v2'),
        fc.array(segment, { maxLength: 4 }),
        fc.constantFrom('', '?', '?a=%ff', '/'),
        async (version, segments, tail) =>
          agrees(`${version}${segments.map((s) => `/${s}`).join('')}${tail}`),
      ),
      { numRuns: 200 },
    );
  });
});
