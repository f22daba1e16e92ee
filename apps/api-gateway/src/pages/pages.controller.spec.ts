import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Environment } from '../config/environment';
import { loadPageCatalogue } from './page-catalogue';
import { PAGE_CATALOGUE, PagesController } from './pages.controller';

/** GET `path` with this Host header (sent as is); the status, body and Vary. */
function get(port: number, path: string, host: string | undefined) {
  return new Promise<{ status: number; body: string; vary: string | undefined }>((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path, setHost: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () =>
        done({ status: res.statusCode ?? 0, body, vary: res.headers['vary'] as string | undefined }),
      );
    });
    if (host !== undefined) req.setHeader('host', host);
    req.on('error', fail);
    req.end();
  });
}

describe('PagesController: the prefilled key only under a loopback Host (issue 37)', () => {
  const key = 'tcg_DEMOdemoDEMOdemoDEMOdemoDEMOdemo12';
  let dir: string;
  let app: INestApplication;
  let port: number;

  async function start(prefillKey: string | undefined): Promise<void> {
    const moduleRef = await Test.createTestingModule({
      controllers: [PagesController],
      providers: [
        { provide: PAGE_CATALOGUE, useValue: loadPageCatalogue({ ownDir: dir, prefillKey }) },
        { provide: Environment, useValue: { WRITE_IDLE_TIMEOUT_MS: 10_000 } },
      ],
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.listen(0, '127.0.0.1');
    port = (app.getHttpServer().address() as AddressInfo).port;
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tcg-pages-host-'));
    writeFileSync(join(dir, 'index.html'), '<input value="{{API_KEY}}">');
    writeFileSync(join(dir, 'docs.html'), '<meta content="{{API_KEY}}">');
  });
  afterEach(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    'localhost',
    'localhost:8080',
    'LOCALHOST:8080',
    '127.0.0.1',
    '127.0.0.1:8080',
    '[::1]',
    '[::1]:8080',
  ])('gives the pages with the key to Host %s', async (host) => {
    await start(key);
    for (const path of ['/', '/docs']) {
      const page = await get(port, path, host);
      expect(page.status).toBe(200);
      expect(page.body).toContain(key);
      expect(page.vary).toBe('Accept-Encoding, Host');
    }
  });

  it.each([
    'evil.example',
    'evil.example:8080',
    'localhost.evil.example',
    '127.0.0.1.nip.io',
    '127.0.0.2:8080',
    '0.0.0.0:8080',
    '192.168.1.20:8080',
    '[::1].evil.example',
    'localhost:8080@evil.example',
  ])('gives the pages without the key to Host %s', async (host) => {
    await start(key);
    for (const path of ['/', '/docs']) {
      const page = await get(port, path, host);
      expect(page.status).toBe(200);
      expect(page.body).not.toContain(key);
      expect(page.body).toMatch(/value=""|content=""/);
    }
  });

  it('serves one page to every host when no key is prefilled', async () => {
    await start(undefined);
    const page = await get(port, '/', 'evil.example');
    expect(page).toMatchObject({ status: 200, body: '<input value="">', vary: 'Accept-Encoding' });
  });
});
