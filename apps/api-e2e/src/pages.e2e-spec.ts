import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { withTestDatabase } from '@tcg/persistence/testing';
import { type Browser, chromium, type Page } from 'playwright-core';
import { DAY, seedCatalogue, series, T_NOW, TEST_CARDS } from './fixtures';
import { newKey } from './keys';
import { startStack, Stack } from './stack';

const { dragon, goblin, goblinNm, jp, knight, knightNm, lp, nm, psa10 } = TEST_CARDS;

/**
 * The browser pages the gateway serves: over plain HTTP (headers, caching, refusals, no cost),
 * then in Debian's Chromium driven by playwright-core (the explorer searched and read, the
 * reference tried), with screenshots under the git-ignored .artifacts/screenshots/.
 */
const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) process.stdout.write(`${CHROMIUM} not found: the browser tests of the pages are skipped\n`);
const SCREENSHOTS = join(resolve(__dirname, '../../..'), '.artifacts/screenshots');

/**
 * Card images: the explorer shows a card's front from Scryfall's CDN when its imagedb id is a
 * Scryfall id (a UUID). The dragon is given one in the database, the goblin a value that only
 * starts like one; the browser never reaches the CDN: a route answers or refuses for it.
 */
const SCRYFALL_CDN = 'https://cards.scryfall.io';
const DRAGON_SCRYFALL_ID = '6da045f8-6278-4c84-9d39-025adf0789c1';
const DRAGON_IMAGE = `${SCRYFALL_CDN}/normal/front/6/d/${DRAGON_SCRYFALL_ID}.jpg`;
const NOT_A_SCRYFALL_ID = `${DRAGON_SCRYFALL_ID}/../../x`;
const CARD_PNG = cardPng();

/**
 * A 61 × 85 PNG, Scryfall's 488 × 680 `normal` at an eighth (so the same aspect ratio: the box
 * the page reserves is the one the image fills), drawn like a card: border, frame, art box.
 */
function cardPng(): Buffer {
  const [width, height] = [61, 85];
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3); // filter type 0, then RGB
    for (let x = 0; x < width; x++) {
      const border = x < 3 || y < 3 || x >= width - 3 || y >= height - 3;
      const art = x >= 6 && x < width - 6 && y >= 12 && y < 46;
      row.set(border ? [0x17, 0x13, 0x14] : art ? [0x6b, 0x8f, 0xb3] : [0xd8, 0xc9, 0xa3], 1 + x * 3);
    }
    rows.push(row);
  }
  const chunk = (type: string, data: Buffer) => {
    const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(8 + typed.length);
    out.writeUInt32BE(data.length, 0);
    typed.copy(out, 4);
    out.writeUInt32BE(crc32(typed), 4 + typed.length);
    return out;
  };
  const header = Buffer.alloc(13); // 8-bit RGB, no interlace
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** `text` matched literally in a RegExp. */
function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

interface Market {
  region: string;
  currency: string;
  price: number | null;
  updated_at: number | null;
  source: string | null;
  periods: Record<string, { avg?: number | null }>;
  price_history: { t: number; p: number }[];
}

describe('the browser pages (real HTTP to the real services)', () => {
  let stack: Stack;
  let key: string;

  beforeAll(async () => {
    await seedCatalogue(
      [dragon, knight, goblin],
      [nm, lp, jp, psa10, knightNm, goblinNm],
      [
        { variantUuid: nm.uuid, ...series(1000) },
        { variantUuid: nm.uuid, region: 'EU', t: [T_NOW - 2 * DAY, T_NOW - DAY, T_NOW], p: [900, 920, 950] },
        // The one series of real prices; the others are simulated, as seedCatalogue writes them.
        { variantUuid: lp.uuid, ...series(800), source: 'tcgplayer' },
        { variantUuid: psa10.uuid, t: [T_NOW - 3 * DAY, T_NOW], p: [80_000, 90_000] },
      ],
    );
    // As a feed sync sets them: on the card's row, which both versions read the card's fields from
    // (the stored documents hold its variants only). The knight keeps none.
    await withTestDatabase(async (ds) => {
      for (const [imagedbId, cardId] of [
        [DRAGON_SCRYFALL_ID, dragon.id],
        [NOT_A_SCRYFALL_ID, goblin.id],
      ])
        await ds.query('UPDATE cards SET imagedb_id = $1 WHERE id = $2', [imagedbId, cardId]);
    });
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
        // Card images from Scryfall's CDN, that origin and only as images.
        const directives = csp.split(';').map((d) => d.trim());
        expect(directives).toContain("img-src 'self' data: https://cards.scryfall.io");
        expect(directives.filter((d) => d.includes('scryfall'))).toHaveLength(1);
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

    it('answers the imagedb ids set in the database in both versions, as the explorer reads them', async () => {
      for (const [c, imagedbId] of [
        [dragon, DRAGON_SCRYFALL_ID],
        [knight, null],
        [goblin, NOT_A_SCRYFALL_ID],
      ] as const) {
        const v2 = await fetch(`${stack.gatewayUrl}/v2/cards/${c.uuid}?include=`, {
          headers: { 'x-api-key': key },
        });
        expect(
          ((await v2.json()) as { data: { external_ids: { imagedb: string | null } } }).data.external_ids,
        ).toEqual(expect.objectContaining({ imagedb: imagedbId }));
        const v1 = await fetch(`${stack.gatewayUrl}/v1/cards?cardId=${c.id}&include_null_prices=true`, {
          headers: { 'x-api-key': key },
        });
        expect(((await v1.json()) as { data: { imagedbId: string | null }[] }).data[0]!.imagedbId).toBe(
          imagedbId,
        );
      }
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
    /** Every request for another origin than the gateways'; none reaches the network. */
    const offsite: string[] = [];
    /** The gateway given a key to prefill (EXPLORER_API_KEY, as `npm start` does), while its tests run. */
    let prefilled: Stack | undefined;

    beforeAll(async () => {
      mkdirSync(SCREENSHOTS, { recursive: true });
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          // Nothing but the gateway resolves: a request the routes below let through cannot leave.
          '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
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
      // Off the gateways, the CDN's card images are answered with CARD_PNG unless a test routes them
      // itself (a page's routes come first); anything else is refused.
      const gateways = [stack, prefilled].flatMap((s) => (s ? [new URL(s.gatewayUrl).origin] : []));
      offsite.length = 0;
      await context.route(
        (url) => !gateways.includes(url.origin),
        (route) => {
          const url = route.request().url();
          offsite.push(url);
          return url.startsWith(`${SCRYFALL_CDN}/`)
            ? route.fulfill({ contentType: 'image/png', body: CARD_PNG })
            : route.abort('blockedbyclient');
        },
      );
      page = await context.newPage();
      consoleErrors.length = 0;
      page.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(message.text());
      });
      page.on('pageerror', (error) => consoleErrors.push(`uncaught: ${error.message}`));
    });
    afterEach(async () => {
      await page.context().close();
      expect(offsite.filter((url) => !url.startsWith(`${SCRYFALL_CDN}/`))).toEqual([]);
    });

    const shown = async () =>
      JSON.parse((await page.getAttribute('#chart', 'data-points')) ?? 'null') as { t: number; p: number }[];
    const chartReady = (window: string, region = 'NA') =>
      page.waitForSelector(`#chart[data-state="ready"][data-window="${window}"][data-region="${region}"]`);
    const usd = (v: number) =>
      new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(v);

    /** Searches `query` in the explorer (loading it first unless `again`) and picks `name`, until its chart is drawn. */
    async function openCard(query: string, name: string, variantUuid: string, again = false) {
      if (!again) {
        await page.goto(`${stack.gatewayUrl}/`);
        await page.getByLabel('API key').fill(key);
      }
      await page.getByLabel('Card name').fill(query);
      await page.getByLabel('Card name').press('Enter');
      await page.getByRole('button', { name: new RegExp(name) }).click();
      await page.locator('#card-title', { hasText: name }).waitFor();
      await page.waitForSelector(`#chart[data-state="ready"][data-variant="${variantUuid}"]`);
    }

    type Box = { x: number; y: number; width: number; height: number };
    /** Where `selector` is relative to the page's <main> (so not to the viewport: scrolling does not count). */
    async function placed(selector: string): Promise<Box> {
      const [main, box] = [
        await page.locator('main').boundingBox(),
        await page.locator(selector).boundingBox(),
      ];
      if (!main || !box) throw new Error(`${selector} is not laid out`);
      return { x: box.x - main.x, y: box.y - main.y, width: box.width, height: box.height };
    }
    /** Where the card view's parts are. */
    const CARD_PARTS = [
      '#card',
      '.card-head',
      '#card-title',
      '#card-meta',
      '#price',
      '#price-meta',
      '.controls',
      '#chart',
      '#stats',
    ];
    async function layout(): Promise<Record<string, Box>> {
      const parts: Record<string, Box> = {};
      for (const selector of CARD_PARTS) parts[selector] = await placed(selector);
      return parts;
    }
    const cardImage = () => page.locator('#card img');

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

    it('explorer: the name field suggests names as one types; arrows and Enter pick one, which is searched', async () => {
      await page.goto(`${stack.gatewayUrl}/`);
      await page.getByLabel('API key').fill(key);
      const field = page.getByRole('combobox', { name: 'Card name' });
      // Typed key by key: one request once typing pauses, not one per key.
      const asked: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes('/v1/cards/autocomplete')) asked.push(new URL(r.url()).searchParams.get('q')!);
      });
      await field.pressSequentially('drag', { delay: 20 });
      const listbox = page.getByRole('listbox', { name: 'Suggested names' });
      await listbox.getByRole('option', { name: 'Test Dragon' }).waitFor();
      expect(asked).toEqual(['drag']);
      expect(await field.getAttribute('aria-expanded')).toBe('true');
      await page.screenshot({ path: join(SCREENSHOTS, 'explorer-suggestions.png') });

      await field.press('ArrowDown');
      const active = await field.getAttribute('aria-activedescendant');
      expect(await page.locator(`#${active}`).textContent()).toBe('Test Dragon');
      expect(await page.locator(`#${active}`).getAttribute('aria-selected')).toBe('true');
      await field.press('Enter');
      expect(await field.inputValue()).toBe('Test Dragon');
      expect(await field.getAttribute('aria-expanded')).toBe('false');
      await page.getByRole('button', { name: /Test Dragon/ }).waitFor();

      // Escape closes the list; one letter asks nothing.
      await field.fill('');
      await field.pressSequentially('kn', { delay: 20 });
      await listbox.getByRole('option').first().waitFor();
      await field.press('Escape');
      expect(await listbox.isHidden()).toBe(true);
      await field.fill('k');
      await page.waitForTimeout(400);
      expect(asked).toEqual(['drag', 'kn']);
      expect(consoleErrors).toEqual([]);
    });

    /** The line under the current price, and the label a simulated price carries in it. */
    const priceLine = () => page.locator('#price-meta');
    const simulatedLabel = () => page.locator('#price-meta .simulated');
    /** A market's `updated_at` as the page writes it (the browser's locale and time zone). */
    const updatedAt = (t: number | null) => page.evaluate((s) => new Date(s * 1000).toLocaleString(), t!);
    /** The whole price line: `end` (region, source, time), after the 24-hour change if there is one. */
    const priceLineOf = (end: string) => new RegExp(`^([-+]?\\d+\\.\\d\\d % in 24 h · )?${literal(end)}$`);

    it('explorer: the price line says where the price comes from, a simulated one with a label of its own', async () => {
      await openCard('dragon', 'Test Dragon', nm.uuid);
      const simulated = await market(nm.uuid, 'NA', '30d');
      expect([simulated.source, simulated.updated_at]).toEqual(['simulated', T_NOW]);
      let end = `NA · simulated sample price, updated ${await updatedAt(simulated.updated_at)}`;
      expect(await priceLine().textContent()).toMatch(priceLineOf(end));
      expect(await simulatedLabel().count()).toBe(1);
      expect(await simulatedLabel().textContent()).toBe('simulated');
      expect(await simulatedLabel().isVisible()).toBe(true);
      // Set apart: its own colours, not the line's.
      const [label, line] = await simulatedLabel().evaluate((el) =>
        [el, el.parentElement!].map((e) => {
          const style = el.ownerDocument.defaultView!.getComputedStyle(e);
          return { color: style.color, background: style.backgroundColor, border: style.borderTopStyle };
        }),
      );
      expect(label!.color).not.toBe(line!.color);
      expect(label!.background).not.toBe('rgba(0, 0, 0, 0)');
      expect(label!.border).toBe('solid');
      expect(await page.textContent('#chart-caption')).toMatch(/^\d+ simulated observations in USD/);
      await page
        .locator('.card-head')
        .screenshot({ path: join(SCREENSHOTS, 'explorer-source-simulated.png') });

      // The series of real prices: named, without the label.
      await page.getByLabel('Variant').selectOption(lp.uuid);
      await page.waitForSelector(`#chart[data-state="ready"][data-variant="${lp.uuid}"]`);
      const real = await market(lp.uuid, 'NA', '30d');
      expect(real.source).toBe('tcgplayer');
      end = `NA · TCGplayer market price, updated ${await updatedAt(real.updated_at)}`;
      expect(await priceLine().textContent()).toMatch(priceLineOf(end));
      expect(await simulatedLabel().count()).toBe(0);
      expect(await page.textContent('#chart-caption')).toMatch(/^\d+ observations in USD/);
      await page.locator('.card-head').screenshot({ path: join(SCREENSHOTS, 'explorer-source-real.png') });

      // No observation, no source.
      await page.getByLabel('Region').selectOption('JP');
      await chartReady('30d', 'JP');
      expect((await market(lp.uuid, 'JP', '30d')).source).toBeNull();
      expect(await priceLine().textContent()).toBe('no observations in JP');
      expect(consoleErrors).toEqual([]);
    });

    it('explorer: each source v2 may name is said in words, one it does not know yet as sent, as text', async () => {
      // The variant lookups' answers, with the market's source replaced by the one under test.
      let source: string | null = 'cardmarket';
      let updated: number | null = null;
      await page.route(
        (url) => url.pathname === '/v2/cards' && url.searchParams.has('variant_id'),
        async (route) => {
          const answer = await route.fetch();
          const body = (await answer.json()) as { data: { variants: { markets: Market[] }[] }[] };
          const m = body.data[0]!.variants[0]!.markets[0]!;
          m.source = source;
          updated = m.updated_at;
          await route.fulfill({ status: answer.status(), json: body });
        },
      );
      await openCard('dragon', 'Test Dragon', nm.uuid);
      for (const [window, next, words] of [
        ['30d', 'cardmarket', 'NA · Cardmarket trend price'],
        ['7d', 'imported', 'NA · imported price'],
        ['90d', 'tcgplayer', 'NA · TCGplayer market price'],
        ['180d', '<b>ebay</b>', 'NA · <b>ebay</b>'],
        ['1y', null, 'NA'],
      ] as const) {
        if (window !== '30d') {
          source = next;
          await page.locator(`label[for="w-${window}"]`).click();
          await chartReady(window);
        }
        const end = `${words}, updated ${await updatedAt(updated)}`;
        expect([window, await priceLine().textContent()]).toEqual([
          window,
          expect.stringMatching(priceLineOf(end)),
        ]);
        expect(await simulatedLabel().count()).toBe(0);
        expect(await priceLine().locator('*:not(.up):not(.down)').count()).toBe(0);
      }
      expect(consoleErrors).toEqual([]);
    });

    it('explorer: a card with a Scryfall id shows its image from the CDN, in a box kept before it arrives', async () => {
      let release!: () => void;
      const released = new Promise<void>((done) => (release = done));
      const asked: { url: string; referer: string | undefined }[] = [];
      await page.route(`${SCRYFALL_CDN}/**`, async (route) => {
        asked.push({ url: route.request().url(), referer: route.request().headers()['referer'] });
        await released; // held, to see the box the page keeps for the image meanwhile
        await route.fulfill({ contentType: 'image/png', body: CARD_PNG });
      });
      const imageRequested = page.waitForRequest(DRAGON_IMAGE);
      await openCard('dragon', 'Test Dragon', nm.uuid);
      await imageRequested;

      const image = page.getByRole('img', { name: 'Test Dragon' });
      expect(await cardImage().count()).toBe(1);
      expect(await image.evaluate((img) => img.closest('.card-head') !== null)).toBe(true);
      for (const [name, value] of [
        ['src', DRAGON_IMAGE],
        ['alt', 'Test Dragon'],
        ['loading', 'lazy'],
        ['referrerpolicy', 'no-referrer'],
        ['width', '488'],
        ['height', '680'],
      ])
        expect([name, await image.getAttribute(name)]).toEqual([name, value]);
      const box = await placed('#card img');
      const parts = await layout();
      expect(box.width).toBeGreaterThan(100);
      expect(box.height / box.width).toBeCloseTo(680 / 488, 2);

      release();
      await image.evaluate((img) => img.decode());
      expect(await image.isVisible()).toBe(true);
      expect(await image.evaluate((img) => [img.naturalWidth, img.naturalHeight])).toEqual([61, 85]);
      // Nothing moved when it arrived.
      expect([await placed('#card img'), await layout()]).toEqual([box, parts]);
      // Beside the name and the price, above the controls: it covers none of them.
      expect(box.x + box.width).toBeLessThanOrEqual(parts['#card-title']!.x);
      expect(box.x + box.width).toBeLessThanOrEqual(parts['#price']!.x);
      expect(box.y + box.height).toBeLessThanOrEqual(parts['.controls']!.y);
      // Asked once, the CDN's path for the id, without saying where from.
      expect(asked).toEqual([{ url: DRAGON_IMAGE, referer: undefined }]);
      await page.screenshot({ path: join(SCREENSHOTS, 'explorer-card-image.png'), fullPage: true });
      expect(consoleErrors).toEqual([]);
    });

    it('explorer: offline, the card image is dropped and the card reads as one without an image', async () => {
      // The same card as the API would send it without an imagedb id: where everything is then.
      await page.route(
        (url) => url.pathname.startsWith('/v2/cards/'),
        async (route) => {
          const answer = await route.fetch();
          const body = (await answer.json()) as { data: { external_ids: { imagedb: string | null } } };
          body.data.external_ids.imagedb = null;
          await route.fulfill({ status: answer.status(), json: body });
        },
      );
      await openCard('dragon', 'Test Dragon', nm.uuid);
      expect(await cardImage().count()).toBe(0);
      const withoutImage = await layout();
      await page.unrouteAll();

      // Now with its id, and the CDN out of reach.
      let refused = 0;
      await page.route(`${SCRYFALL_CDN}/**`, (route) => {
        refused++;
        return route.abort('internetdisconnected');
      });
      const imageFailed = page.waitForEvent('requestfailed', (request) => request.url() === DRAGON_IMAGE);
      await openCard('dragon', 'Test Dragon', nm.uuid);
      await imageFailed;
      await cardImage().waitFor({ state: 'detached' });
      expect(refused).toBe(1);
      expect(await page.locator('#card-title').textContent()).toBe('Test Dragon');
      expect(await page.locator('#card-title').isVisible()).toBe(true);
      expect(await page.textContent('#price')).toBe(usd((await market(nm.uuid, 'NA', '30d')).price!));
      expect(await page.locator('#stats tbody tr').count()).toBe(5);
      expect(await page.locator('#stats').isVisible()).toBe(true);
      expect(await layout()).toEqual(withoutImage);
      await page.screenshot({ path: join(SCREENSHOTS, 'explorer-card-image-offline.png'), fullPage: true });
      // The browser reports the failed image itself; nothing else went wrong.
      expect(consoleErrors).toEqual([
        expect.stringMatching(/Failed to load resource: net::ERR_INTERNET_DISCONNECTED/),
      ]);
    });

    it('explorer: a card without a Scryfall id shows no image and asks the CDN for nothing', async () => {
      await openCard('dragon', 'Test Dragon', nm.uuid);
      await page.getByRole('img', { name: 'Test Dragon' }).waitFor();
      expect(offsite).toEqual([DRAGON_IMAGE]); // answered by the context's route

      // No imagedb id, then one that only starts like a Scryfall id: the dragon's image goes, none comes.
      for (const [query, c, variant] of [
        ['knight', knight, knightNm],
        ['goblin', goblin, goblinNm],
      ] as const) {
        await openCard(query, c.name, variant.uuid, true);
        expect([c.name, await cardImage().count()]).toEqual([c.name, 0]);
        expect(await page.locator('.card-head > :first-child #card-title').count()).toBe(1);
      }
      expect(offsite).toEqual([DRAGON_IMAGE]);
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
      // By its exact path: `/v2/cards/{id}/ids` holds the same text.
      await page.locator('.opblock-summary-path[data-path="/v2/cards/{id}"]').waitFor();
      expect(page.url()).toMatch(/\/docs\?version=v2$/);
      await page.screenshot({ path: join(SCREENSHOTS, 'docs-v2.png'), fullPage: false });
      expect(consoleErrors).toEqual([]);
    });

    it('docs: the Clients section holds a TypeScript and a Python example, folded until opened', async () => {
      await page.goto(`${stack.gatewayUrl}/docs`);
      const clients = page.getByRole('region', { name: 'Clients' });
      await clients.waitFor();
      // Above the toolbar and Swagger UI, as the sources are.
      const [section, toolbar] = [await clients.boundingBox(), await page.locator('.toolbar').boundingBox()];
      expect(section!.y + section!.height).toBeLessThanOrEqual(toolbar!.y);
      expect(await clients.getByRole('heading', { level: 3 }).allInnerTexts()).toEqual([
        'TypeScript',
        'Python',
      ]);
      const example = page.getByLabel('TypeScript example');
      expect(await example.isVisible()).toBe(false);
      await clients.locator('summary', { hasText: 'TypeScript' }).click();
      expect(await example.isVisible()).toBe(true);
      // What a reader copies: the escaped HTML shown as code (docs-examples.spec compiles the same text).
      const code = await example.innerText();
      expect(code).toContain(
        "import { TcgClient, TcgApiError, TcgRateLimitError } from '@tcg-pricing/client';",
      );
      expect(code).toContain('console.log(games.map((game) => game.name));');
      await clients.screenshot({ path: join(SCREENSHOTS, 'docs-clients.png') });
      expect(consoleErrors).toEqual([]);
    });

    /** The docs page's section on where the prices come from, and its parts filled from GET /v1/games. */
    const sources = () => page.getByRole('region', { name: 'Where the prices come from' });
    const gameList = () => page.locator('#game-sources-list');
    const quietLine = () => page.locator('#game-sources-status');
    /** The sources in words, the same with or without a key. */
    const STATIC_WORDS = [
      'TCGplayer market price',
      'Cardmarket trend price',
      "the operator's own price files",
      'generated sample prices, not market data',
      'tcgplayer',
      'cardmarket',
      'imported',
      'simulated',
      'source',
      'GET /v1/games',
      'price_sources',
    ];
    /** Every request the page makes for `/v1/games`, with the key it sends. */
    function gamesRequests(): { url: string; key: string | undefined }[] {
      const asked: { url: string; key: string | undefined }[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/v1/games')
          asked.push({ url: request.url(), key: request.headers()['x-api-key'] });
      });
      return asked;
    }

    it('docs: without a prefilled key, where the prices come from is said in words and nothing is asked', async () => {
      const asked = gamesRequests();
      await page.goto(`${stack.gatewayUrl}/docs`);
      await page.locator('.opblock-summary-path', { hasText: '/v1/games' }).waitFor();
      expect(await sources().isVisible()).toBe(true);
      const words = await sources().innerText();
      for (const w of STATIC_WORDS) expect([w, words.includes(w)]).toEqual([w, true]);
      // Above the toolbar and Swagger UI.
      const [section, toolbar] = [
        await sources().boundingBox(),
        await page.locator('.toolbar').boundingBox(),
      ];
      expect(section!.y + section!.height).toBeLessThanOrEqual(toolbar!.y);
      // Only that: no list of games, no line about one.
      expect(await page.locator('#game-sources').isVisible()).toBe(false);
      expect(await quietLine().isVisible()).toBe(false);
      expect(await gameList().locator('dt').count()).toBe(0);
      expect(words).not.toContain('Test Game');
      expect(asked).toEqual([]);
      await sources().screenshot({ path: join(SCREENSHOTS, 'docs-sources-no-key.png') });
      expect(consoleErrors).toEqual([]);
    });

    describe('with a key prefilled, as under npm start', () => {
      let demoKey: string;

      beforeAll(async () => {
        demoKey = await newKey('professional');
        // A gateway of its own (and api-v2), to the same api-v1 and database.
        prefilled = await startStack({ v1Url: stack.v1Url, gatewayEnv: { EXPLORER_API_KEY: demoKey } });
      });
      afterAll(async () => {
        await prefilled?.close();
        prefilled = undefined;
      });

      it('docs: lists each game with its sources as GET /v1/games answers them, asked once with the key', async () => {
        const gateway = prefilled!.gatewayUrl;
        const asked = gamesRequests();
        await page.goto(`${gateway}/docs`);
        await gameList().locator('dt').first().waitFor();
        await page.locator('.opblock-summary-path', { hasText: '/v1/games' }).waitFor();

        const res = await fetch(`${gateway}/v1/games`, { headers: { 'x-api-key': demoKey } });
        expect(res.status).toBe(200);
        const games = ((await res.json()) as { data: { name: string; price_sources: string[] }[] }).data;
        // The seeded game: simulated series, and the one of TCGplayer's.
        expect(games.map((g) => [g.name, g.price_sources])).toEqual([
          ['Test Game', ['simulated', 'tcgplayer']],
        ]);
        expect(await gameList().locator('dt').allTextContents()).toEqual(games.map((g) => g.name));
        expect(await gameList().locator('dd').allTextContents()).toEqual(['real (TCGplayer) and simulated']);
        const label = gameList().locator('dd .simulated');
        expect(await label.textContent()).toBe('simulated');
        expect(await label.isVisible()).toBe(true);
        expect(await page.locator('#game-sources').isVisible()).toBe(true);
        expect(await quietLine().isVisible()).toBe(false);
        const words = await sources().innerText();
        for (const w of STATIC_WORDS) expect([w, words.includes(w)]).toEqual([w, true]);
        expect(asked).toEqual([{ url: `${gateway}/v1/games`, key: demoKey }]);
        await sources().screenshot({ path: join(SCREENSHOTS, 'docs-sources.png') });
        expect(consoleErrors).toEqual([]);
      });

      it('docs: every kind of source is said in words, and names and unknown values as text', async () => {
        const games = [
          ['Magic', ['cardmarket', 'tcgplayer'], 'real: TCGplayer (NA), Cardmarket (EU)'],
          ['Flesh and Blood', ['tcgplayer'], 'real: TCGplayer (NA)'],
          ['Pokémon', ['simulated'], 'simulated sample prices'],
          ['Lorcana', ['imported'], 'imported prices'],
          ['One Piece', [], 'no prices yet'],
          ['Yu-Gi-Oh!', ['imported', 'simulated'], 'imported and simulated'],
          [
            'Digimon',
            ['cardmarket', 'imported', 'simulated', 'tcgplayer'],
            'real (TCGplayer, Cardmarket), imported and simulated',
          ],
          ['<img src="x.png">', ['<b>ebay</b>', 'cardmarket'], 'real (Cardmarket) and <b>ebay</b>'],
        ] as const;
        await page.route('**/v1/games', (route) =>
          route.fulfill({
            json: { data: games.map(([name, price_sources]) => ({ id: name, name, price_sources })) },
          }),
        );
        await page.goto(`${prefilled!.gatewayUrl}/docs`);
        await gameList().locator('dt').first().waitFor();
        expect(await gameList().locator('dt').allTextContents()).toEqual(games.map(([name]) => name));
        expect(await gameList().locator('dd').allTextContents()).toEqual(games.map(([, , words]) => words));
        // "simulated" carries its label wherever it is said.
        expect(await gameList().locator('.simulated').count()).toBe(3);
        expect(await gameList().locator('img, b').count()).toBe(0);
        await sources().screenshot({ path: join(SCREENSHOTS, 'docs-sources-kinds.png') });
        expect(consoleErrors).toEqual([]);
      });

      it('docs: when GET /v1/games fails, the text stays as without a key, with a quiet line', async () => {
        await page.route('**/v1/games', (route) =>
          route.fulfill({
            status: 503,
            json: { error: 'Service unavailable', code: 'UPSTREAM_UNAVAILABLE' },
          }),
        );
        await page.goto(`${prefilled!.gatewayUrl}/docs`);
        await page.locator('.opblock-summary-path', { hasText: '/v1/games' }).waitFor();
        await quietLine().getByText('could not be listed').waitFor();
        expect(await quietLine().textContent()).toBe(
          "This deployment's games could not be listed (HTTP 503).",
        );
        expect(await page.locator('#game-sources').isVisible()).toBe(false);
        expect(await gameList().locator('dt').count()).toBe(0);
        const words = await sources().innerText();
        for (const w of STATIC_WORDS) expect([w, words.includes(w)]).toEqual([w, true]);
        // In the muted colour of the page's hints, not an error box.
        expect(
          await quietLine().evaluate((el) => el.ownerDocument.defaultView!.getComputedStyle(el).color),
        ).toBe(
          await page
            .locator('.toolbar .hint')
            .evaluate((el) => el.ownerDocument.defaultView!.getComputedStyle(el).color),
        );
        expect(await page.getByRole('alert').count()).toBe(0);
        // The browser reports the refused request itself; nothing else went wrong.
        expect(consoleErrors).toEqual([expect.stringMatching(/status of 503/)]);
      });
    });
  });
});
