import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { compress, loadPageCatalogue, OWN_ASSETS_DIR } from './page-catalogue';

describe('loadPageCatalogue', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tcg-pages-'));
    writeFileSync(
      join(dir, 'index.html'),
      '<script src="{{ASSETS}}/a.js"></script><input value="{{API_KEY}}">',
    );
    writeFileSync(join(dir, 'docs.html'), '<meta content="{{API_KEY}}"><link href="{{ASSETS}}/a.css">');
    writeFileSync(join(dir, 'a.js'), 'export const a = 1;\n'.repeat(100));
    writeFileSync(join(dir, 'a.css'), 'body{}');
    writeFileSync(join(dir, 'notes.txt'), 'not served: no content type of the allow-list');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('serves the own files and the vendored ones by name, pages apart, nothing else', () => {
    const catalogue = loadPageCatalogue({ ownDir: dir });
    expect([...catalogue.assets.keys()].sort()).toEqual(
      ['a.css', 'a.js', 'swagger-ui-bundle.js', 'swagger-ui.css', 'uplot.min.css', 'uplot.min.js'].sort(),
    );
    expect(catalogue.assets.get('a.js')!.contentType).toBe('text/javascript; charset=utf-8');
    expect(catalogue.assets.get('swagger-ui-bundle.js')!.body.toString()).toContain('SwaggerUIBundle');
    expect(catalogue.assets.get('uplot.min.js')!.body.toString()).toContain('uPlot');
    expect(catalogue.assetBase).toMatch(/^\/assets\/[0-9a-f]{12}$/);
    expect(catalogue.pages.get('/')!.body.toString()).toBe(
      `<script src="${catalogue.assetBase}/a.js"></script><input value="">`,
    );
  });

  it('puts the prefill key into both pages, HTML-escaped, and refuses one that is not printable ASCII', () => {
    const catalogue = loadPageCatalogue({ ownDir: dir, prefillKey: 'tcg_a"b<c>&\'' });
    const escaped = 'tcg_a&quot;b&lt;c&gt;&amp;&#39;';
    expect(catalogue.pages.get('/')!.body.toString()).toContain(`value="${escaped}"`);
    expect(catalogue.pages.get('/docs')!.body.toString()).toContain(`content="${escaped}"`);
    expect(() => loadPageCatalogue({ ownDir: dir, prefillKey: 'a b' })).toThrow(/printable ASCII/);
  });

  it('names a new asset base when any asset changes, so cached copies are never stale', () => {
    const before = loadPageCatalogue({ ownDir: dir }).assetBase;
    expect(loadPageCatalogue({ ownDir: dir }).assetBase).toBe(before);
    writeFileSync(join(dir, 'a.css'), 'body{color:red}');
    expect(loadPageCatalogue({ ownDir: dir }).assetBase).not.toBe(before);
  });

  it('compresses a text file when asked, once, to the same bytes', async () => {
    const catalogue = loadPageCatalogue({ ownDir: dir });
    const js = catalogue.assets.get('a.js')!;
    expect(js.gzip).toBeUndefined(); // nothing spent before a first request
    const once = compress(js);
    expect(compress(js)).toBe(once);
    await once;
    expect(gunzipSync(js.gzip!)).toEqual(js.body);
    expect(js.br!.length).toBeLessThan(js.body.length);
    // Too small to gain anything: sent as it is.
    const css = catalogue.assets.get('a.css')!;
    await compress(css);
    expect(css.gzip).toBeUndefined();
  });

  it('loads the real pages: every asset they name is in the list', () => {
    const catalogue = loadPageCatalogue({ ownDir: OWN_ASSETS_DIR });
    for (const page of catalogue.pages.values()) {
      const named = [...page.body.toString().matchAll(/(?:src|href)="\/assets\/[0-9a-f]+\/([^"]+)"/g)].map(
        (m) => m[1]!,
      );
      expect(named.length).toBeGreaterThan(0);
      expect(named.filter((name) => !catalogue.assets.has(name))).toEqual([]);
    }
  });
});
