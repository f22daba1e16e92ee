import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BaseEnvironment } from '../environment';
import { ServiceMetrics } from './metrics';

/** A scrape that has not sent its request within this is cut off. */
const SCRAPE_REQUEST_TIMEOUT_MS = 5_000;

/**
 * What the admin port's `GET /health` shows: everything the open `/health` no longer says (the
 * database and services, where quotas are counted, read replicas, the response cache).
 */
export interface HealthReport {
  readonly status: 'ok' | 'degraded';
}

/**
 * `GET /metrics` (and `GET /health`'s details, see reportHealth) on the process's admin port
 * (`METRICS_PORT` on `METRICS_HOST`, loopback unless set), apart from the port API clients reach: nothing a client sends to the API can reach the
 * metrics, and a scraper needs no credential. A plain node server, so a scrape never goes through
 * the app's middlewares, guards or access log. `METRICS_PORT=0` serves nothing.
 */
@Injectable()
export class MetricsServer implements OnApplicationShutdown {
  private server: Server | undefined;
  private health: (() => Promise<HealthReport>) | undefined;

  constructor(
    private readonly metrics: ServiceMetrics,
    private readonly env: BaseEnvironment,
  ) {}

  /**
   * Serves `GET /health` with this report too (200 when ok, else 503). The open `/health` on the
   * API port says only up or degraded: the details (quotas counted in memory during an outage, a
   * replica behind) are a cue to an attacker, and only the operator's side may read them.
   */
  reportHealth(report: () => Promise<HealthReport>): void {
    this.health = report;
  }

  /** Listens on the admin port; resolves with it (undefined when metrics are off), rejects when taken. */
  async listen(): Promise<number | undefined> {
    const port = this.env.METRICS_PORT;
    if (port === 0) return undefined;
    const server = createServer((req, res) => void this.answer(req, res));
    server.requestTimeout = SCRAPE_REQUEST_TIMEOUT_MS;
    server.headersTimeout = SCRAPE_REQUEST_TIMEOUT_MS;
    await new Promise<void>((done, fail) => {
      server.once('error', fail);
      server.listen(port, this.env.METRICS_HOST, () => {
        server.off('error', fail);
        done();
      });
    });
    this.server = server;
    return (server.address() as AddressInfo).port;
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?', 1)[0];
    const health = path === '/health' ? this.health : undefined;
    if (path !== '/metrics' && !health) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: try /metrics\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    try {
      let status = 200;
      let type = this.metrics.contentType;
      let text: string;
      if (health) {
        const report = await health();
        status = report.status === 'ok' ? 200 : 503;
        type = 'application/json; charset=utf-8';
        text = JSON.stringify(report);
      } else text = await this.metrics.text();
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : text);
    } catch (error) {
      res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(`${String(error)}\n`);
    }
  }

  onApplicationShutdown(): void {
    this.server?.close();
    this.server?.closeAllConnections();
  }
}
