import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { DAY, dragon, jp, knight, knightNm, lp, nm, psa10, seedCatalogue, series, T_NOW } from './fixtures';
import { newKey } from './keys';
import { startStack, Stack } from './stack';

/**
 * The browser pages the gateway serves: over plain HTTP (headers, caching, refusals, no cost),
 * then in Debian's Chromium driven by playwright-core (the explorer searched and read, the
 * reference tried), with screenshots under the git-ignored .artifacts/screenshots/.
 */
const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) process.stdout.write(`${CHROMIUM} not found: the browser tests of the pages are skipped\n`);
const SCREENSHOTS = join(resolve(__dirname, '../../..'), '.artifacts/screenshots');

interface Market {
  region: string;
  currency: string;
  price: number | null;
  periods: Record<string, { avg?: number | null }>;
  price_history: { t: number; p: number }[];
}

describe('the browser pages (real HTTP to the real services)', () => {
  let stack: Stack;
  let key: string;

  beforeAll(async () => {
    await seedCatalogue(
      [dragon, knight],
      [nm, lp, jp, psa10, knightNm],
      [
        { variantUuid: nm.uuid, ...series(1000) },
        { variantUuid: nm.uuid, region: 'EU', t: [T_NOW - 2 * DAY, T_NOW - DAY, T_NOW], p: [900, 920, 950] },
        { variantUuid: lp.uuid, ...series(800) },
        { variantUuid: psa10.uuid, t: [T_NOW - 3 * DAY, T_NOW], p: [80_000, 90_000] },
      ],
    );
    stack = await startStack();
    key = await newKey('professional');
  });
  afterAll(async () => {
    await stack?.close();
  });

  /** The market of one variant in one region over one window, straight from the API. */
  async function market(variantId: string, region: string, window: string): Promise<Market> {
    const params = new URLSearchParams({
      variant_id: variantId,
      regions: region,
      include: `periods,price_history.${window}`,
    });
    const res = await fetch(`${stack.gatewayUrl}/v2/cards?${params}`, { headers: { 'x-api-key': key } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { variants: { markets: Market[] }[] }[] };
    return body.data[0]!.variants[0]!.markets[0]!;
  }

  describe('over HTTP', () => {
    const assetUrls = (html: string) =>
      [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);

    it('serves both pages without a key, with a strict CSP, nosniff, a referrer policy and revalidation', async () => {
      for (const path of ['/', '/docs']) {
        const res = await fetch(`${stack.gatewayUrl}${path}`);
        expect([path, res.status]).toEqual([path, 200]);
        expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
        const csp = res.headers.get('content-security-policy') ?? '';
        expect(csp).toContain("script-src 'self'");
        expect(csp).toContain("connect-src 'self'");
        expect(csp).not.toContain('unsafe');
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        expect(res.headers.get('referrer-policy')).toBe('no-referrer');
        expect(res.headers.get('cache-control')).toBe('no-cache');
        const html = await res.text();
        // No inline script: every script is a file of the gateway's.
        expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
        const etag = res.headers.get('etag')!;
        const again = await fetch(`${stack.gatewayUrl}${path}`, { headers: { 'if-none-match': etag } });
        expect(again.status).toBe(304);
      }
      // Not prefilled unless EXPLORER_API_KEY says so (npm start sets it to its demo key).
      expect(await (await fetch(`${stack.gatewayUrl}/`)).text()).toContain('value=""');
    });

    it('serves every asset the pages name, compressed when asked, cached for good', async () => {
      const urls = new Set([
        ...assetUrls(await (await fetch(`${stack.gatewayUrl}/`)).text()),
        ...assetUrls(await (await fetch(`${stack.gatewayUrl}/docs`)).text()),
      ]);
      expect([...urls].map((u) => u.split('/').pop())).toEqual(
        expect.arrayContaining([
          'swagger-ui-bundle.js',
          'swagger-ui.css',
          'uplot.min.js',
          'explorer.js',
          'docs.js',
        ]),
      );
      for (const url of urls) {
        const res = await fetch(`${stack.gatewayUrl}${url}`, { method: 'HEAD' });
        expect([url, res.status]).toEqual([url, 200]);
        expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      }
      // Compressed off the event loop from its first request: poll until the bundle goes out as br.
      const bundle = [...urls].find((u) => u.endsWith('/swagger-ui-bundle.js'))!;
      let encoding: string | null = null;
      for (let i = 0; i < 100 && encoding !== 'br'; i++) {
        const res = await fetch(`${stack.gatewayUrl}${bundle}`, {
          method: 'HEAD',
          headers: { 'accept-encoding': 'gzip, br' },
        });
        encoding = res.headers.get('content-encoding');
        if (encoding !== 'br') await new Promise((r) => setTimeout(r, 100));
      }
      expect(encoding).toBe('br');
      const js = await fetch(`${stack.gatewayUrl}${bundle}`); // fetch decodes it
      expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect((await js.text()).length).toBeGreaterThan(1_000_000);
    });

    it('answers an unknown asset, an old build, another method or a traversal like any unknown path', async () => {
      const html = await (await fetch(`${stack.gatewayUrl}/`)).text();
      const explorer = assetUrls(html).find((u) => u.endsWith('/explorer.js'))!;
      const base = explorer.slice(0, explorer.lastIndexOf('/'));
      for (const [method, path] of [
        ['GET', `${base}/nope.js`],
        ['GET', `${base}/index.html`],
        ['GET', `/assets/000000000000/explorer.js`],
        ['GET', `${base}/..%2F..%2Fpackage.json`],
        // Dot segments are refused by the request guard before any route (404 off the API paths).
        ['GET', `${base}/%2e%2e/%2e%2e/package.json`],
        ['POST', '/'],
        ['DELETE', '/docs'],
      ] as const) {
        const res = await fetch(`${stack.gatewayUrl}${path}`, { method });
        expect([method, path, res.status]).toEqual([method, path, 404]);
        expect(await res.json()).toEqual({ error: expect.any(String), code: 'NOT_FOUND' });
      }
    });

    it('costs nothing: a free key that loads the pages often still has its whole minute', async () => {
      const free = await newKey('free'); // 10 requests a minute
      for (let i = 0; i < 15; i++) {
        const res = await fetch(`${stack.gatewayUrl}${i % 2 ? '/docs' : '/'}`, {
          headers: { 'x-api-key': free },
        });
        expect(res.status).toBe(200);
      }
      const api = await fetch(`${stack.gatewayUrl}/v2/cards?q=dragon&include=`, {
        headers: { 'x-api-key': free },
      });
      expect(api.status).toBe(200);
      expect(api.headers.get('ratelimit-remaining')).toBe('9');
    });
  });

  (hasChromium ? describe : describe.skip)('in Chromium', () => {
    let browser: Browser;
    let page: Page;
    const consoleErrors: string[] = [];

    beforeAll(async () => {
      mkdirSync(SCREENSHOTS, { recursive: true });
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
        timeout: 30_000,
      });
    });
    afterAll(async () => {
      await browser?.close();
    });
    beforeEach(async () => {
      // A fresh context per test: its own profile state (no key kept between tests).
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
      context.setDefaultTimeout(10_000);
      page = await context.newPage();
      consoleErrors.length = 0;
      page.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(message.text());
      });
      page.on('pageerror', (error) => consoleErrors.push(`uncaught: ${error.message}`));
    });
    afterEach(async () => {
      await page.context().close();
    });

    const shown = async () =>
      JSON.parse((await page.getAttribute('#chart', 'data-points')) ?? 'null') as { t: number; p: number }[];
    const chartReady = (window: string, region = 'NA') =>
      page.waitForSelector(`#chart[data-state="ready"][data-window="${window}"][data-region="${region}"]`);
    const usd = (v: number) =>
      new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(v);

    it('explorer: search by keyboard, pick a variant, and the chart shows what the API returns per window', async () => {
      await page.goto(`${stack.gatewayUrl}/`);
      await page.getByLabel('API key').fill(key);
      await page.getByLabel('Card name').fill('dragon');
      await page.getByLabel('Card name').press('Enter');
      const result = page.getByRole('button', { name: /Test Dragon/ });
      await result.focus();
      await page.keyboard.press('Enter');

      // Near Mint, English, Normal first; the 30-day window by default.
      await chartReady('30d');
      expect(await page.getByLabel('Variant').inputValue()).toBe(nm.uuid);
      const month = await market(nm.uuid, 'NA', '30d');
      expect(month.price_history.length).toBeGreaterThan(20);
      expect(await shown()).toEqual(month.price_history);
      expect(await page.textContent('#price')).toBe(usd(month.price!));
      const rows = page.locator('#stats tbody tr');
      expect(await rows.locator('th').allTextContents()).toEqual([
        '7 days',
        '30 days',
        '90 days',
        '1 year',
        'All time',
      ]);
      expect(await rows.nth(1).locator('td').nth(1).textContent()).toBe(usd(month.periods['30d']!.avg!));
      await page.screenshot({ path: join(SCREENSHOTS, 'explorer-30d.png'), fullPage: true });

      // The window picker is a radio group: arrow keys move through it.
      await page.focus('#w-30d');
      await page.keyboard.press('ArrowRight');
      await chartReady('90d');
      const quarter = await market(nm.uuid, 'NA', '90d');
      expect(await shown()).toEqual(quarter.price_history);
      expect(quarter.price_history.length).toBeGreaterThan(month.price_history.length);

      await page.getByLabel('Variant').selectOption(lp.uuid);
      await page.waitForSelector(`#chart[data-state="ready"][data-variant="${lp.uuid}"]`);
      expect(await shown()).toEqual((await market(lp.uuid, 'NA', '90d')).price_history);

      // Another region, where this variant has prices of its own, in its own currency.
      await page.getByLabel('Variant').selectOption(nm.uuid);
      await page.getByLabel('Region').selectOption('EU');
      await page.waitForSelector(`#chart[data-state="ready"][data-variant="${nm.uuid}"][data-region="EU"]`);
      const eu = await market(nm.uuid, 'EU', '90d');
      expect(eu.currency).toBe('EUR');
      expect(await shown()).toEqual(eu.price_history);
      expect(await page.textContent('#price')).toContain('€');
      await page.screenshot({ path: join(SCREENSHOTS, 'explorer-90d-eu.png'), fullPage: true });

      // And one without: said in words, not an empty frame.
      await page.getByLabel('Region').selectOption('JP');
      await chartReady('90d', 'JP');
      expect(await shown()).toEqual([]);
      expect(await page.textContent('#chart')).toContain('No prices in JP');
      expect(consoleErrors).toEqual([]);
    });

    it('explorer: a bad key and an exhausted quota are said in words', async () => {
      await page.goto(`${stack.gatewayUrl}/`);
      await page.getByLabel('API key').fill('tcg_not-a-real-key');
      await page.getByLabel('Card name').fill('dragon');
      await page.getByRole('button', { name: 'Search' }).click();
      const alert = page.getByRole('alert');
      await alert.waitFor();
      expect(await alert.textContent()).toMatch(/The API key was refused \(401 INVALID_API_KEY\)/);
      await page.screenshot({ path: join(SCREENSHOTS, 'explorer-401.png'), fullPage: false });

      const free = await newKey('free');
      for (let i = 0; i < 10; i++)
        await fetch(`${stack.gatewayUrl}/v1/games`, { headers: { 'x-api-key': free } });
      await page.getByLabel('API key').fill(free);
      await page.getByRole('button', { name: 'Search' }).click();
      await page.getByText(/Too many requests \(429 RATE_LIMIT_EXCEEDED\)/).waitFor();
      expect(await alert.textContent()).toMatch(/Try again in \d+ s\./);
      // The browser reports each refused request itself; nothing else went wrong.
      expect(consoleErrors).toEqual([
        expect.stringMatching(/status of 401/),
        expect.stringMatching(/status of 429/),
      ]);
    });

    it('docs: both versions render, and an authorised "Try it out" gets a 200', async () => {
      await page.goto(`${stack.gatewayUrl}/docs`);
      await page.locator('.opblock-summary-path', { hasText: '/v1/games' }).waitFor();
      await page.screenshot({ path: join(SCREENSHOTS, 'docs-v1.png'), fullPage: false });

      await page.locator('button.authorize').first().click();
      await page.locator('.modal-ux input').fill(key);
      await page.locator('.modal-ux button.authorize').click();
      await page.locator('.modal-ux button.btn-done').click();

      await page.locator('.opblock-summary', { hasText: '/v1/games' }).click();
      await page.getByRole('button', { name: 'Try it out' }).click();
      await page.getByRole('button', { name: 'Execute' }).click();
      const status = page.locator('.live-responses-table tbody .response-col_status');
      await status.waitFor();
      expect((await status.textContent())?.trim()).toBe('200');
      expect(
        await page.locator('.live-responses-table tbody .response-col_description').textContent(),
      ).toContain('Test Game');
      await status.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SCREENSHOTS, 'docs-try-it-out.png'), fullPage: false });

      await page.getByLabel('API version').selectOption('v2');
      await page.locator('.opblock-summary-path', { hasText: '/v2/cards/{id}' }).waitFor();
      expect(page.url()).toMatch(/\/docs\?version=v2$/);
      await page.screenshot({ path: join(SCREENSHOTS, 'docs-v2.png'), fullPage: false });
      expect(consoleErrors).toEqual([]);
    });
  });
});
