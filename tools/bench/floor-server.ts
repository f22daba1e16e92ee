import 'reflect-metadata';
import { All, Controller, Get, Header, HttpCode, Module, Res } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Response } from 'express';
import { readFileSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import { parseArgs } from '../common/log';

export const FLOOR_PATH = '/floor';

/**
 * A floor: the least a server can do to send the benchmark's sample bytes, run as its own process
 * on PORT like the services. The raw and Nest floors answer every path the same; the forwarder
 * answers `GET /floor`.
 *
 *   raw      node:http, the bytes from `--body <file>`
 *   nest     a Nest-on-Express controller returning the bytes as a string, to any method (a POST's
 *            JSON body is parsed, as a service's would be)
 *   forward  a Nest-on-Express controller that forwards each request over a keep-alive node:http
 *            agent to `--upstream <url>` and streams the answer back: the two-hop floor
 *
 * The Nest floor is also the upstream of the two-hop floor and, standing in for a service behind
 * the real gateway (it ignores the gateway's internal credential), of the gateway's hop: both hops
 * then forward to the same server, and differ only in what forwards.
 */
async function main(): Promise<void> {
  const { options } = parseArgs(process.argv.slice(2));
  const mode = options.get('mode');
  const port = Number(process.env['PORT'] ?? 0);
  const host = process.env['HOST'] ?? '127.0.0.1';
  const bodyFile = options.get('body');
  const body = typeof bodyFile === 'string' ? readFileSync(bodyFile) : Buffer.alloc(0);
  const contentType = 'application/json; charset=utf-8';

  // Milliseconds before a raw answer: an upstream as slow as a service under load, so the
  // gateway's cost per request can be seen apart from its upstream's latency.
  const delayMs = Number(options.get('delay-ms') ?? 0);
  if (mode === 'raw') {
    const server = createServer((req, res) => {
      req.resume();
      const answer = () => {
        res.writeHead(200, { 'content-type': contentType, 'content-length': body.length });
        res.end(body);
      };
      if (delayMs > 0) setTimeout(answer, delayMs);
      else answer();
    });
    server.keepAliveTimeout = 65_000;
    server.listen(port, host);
    return;
  }

  if (mode === 'nest') {
    const text = body.toString('utf8');
    @Controller()
    class FloorController {
      // Any method: a batch row's floor is POSTed the same JSON bodies, which Nest's parser reads.
      @All('{*path}')
      @HttpCode(200)
      @Header('content-type', contentType)
      answer(): string {
        return text; // a string goes out as-is (a Buffer would be serialised as JSON)
      }
    }
    @Module({ controllers: [FloorController] })
    class FloorModule {}
    const app = await NestFactory.create(FloorModule, { logger: ['error'] });
    await app.listen(port, host);
    return;
  }

  if (mode === 'forward') {
    const given = options.get('upstream');
    if (typeof given !== 'string') throw new Error('--upstream <url> is required with --mode forward');
    const upstream = new URL(FLOOR_PATH, given);
    const agent = new Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 64, scheduling: 'lifo' });
    @Controller()
    class ForwardController {
      @Get(FLOOR_PATH.slice(1))
      forward(@Res() res: Response): void {
        const call = request(upstream, { agent }, (answer) => {
          const headers: Record<string, string> = {};
          for (const name of ['content-type', 'content-length', 'content-encoding', 'etag']) {
            const value = answer.headers[name];
            if (typeof value === 'string') headers[name] = value;
          }
          res.writeHead(answer.statusCode ?? 502, headers);
          answer.pipe(res);
        });
        call.on('error', () => {
          if (!res.headersSent) res.status(502);
          res.end();
        });
        call.end();
      }
    }
    @Module({ controllers: [ForwardController] })
    class ForwardModule {}
    const app = await NestFactory.create(ForwardModule, { logger: ['error'] });
    await app.listen(port, host);
    return;
  }

  throw new Error(
    `usage: floor-server.js --mode raw|nest|forward [--body <file>] [--delay-ms <n>] [--upstream <url>]`,
  );
}

if (require.main === module)
  main().catch((error: unknown) => {
    process.stderr.write(`floor server failed: ${(error as Error).message}\n`);
    process.exit(1);
  });
