import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DataSource } from 'typeorm';
import type { AccessService } from '../access/access.service';
import type { Environment } from '../config/environment';
import type { Limits } from '../limits/limits.module';
import { ReadinessService } from './readiness.service';

describe('ReadinessService', () => {
  let services: Server;
  let url: string;

  beforeAll(async () => {
    // Both services answer their health checks.
    services = createServer((_req, res) => res.end('{}'));
    await new Promise<void>((r) => services.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(services.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => services.close(() => r())));

  it('is not ready until the legacy keys are read: till then their holders would get 503s', async () => {
    const access = { legacyKeysLoaded: false };
    const readiness = () =>
      new ReadinessService(
        { query: () => Promise.resolve([]) } as unknown as DataSource,
        { status: () => ({ store: 'postgres', counting: 'postgres' }) } as unknown as Limits,
        { API_V1_URL: url, API_V2_URL: url } as Environment,
        access as unknown as AccessService,
      ).check();
    expect(await readiness()).toMatchObject({ status: 'degraded', database: 'up', legacyKeys: 'unread' });
    access.legacyKeysLoaded = true;
    expect(await readiness()).toMatchObject({ status: 'ok', legacyKeys: 'read' });
  });
});
