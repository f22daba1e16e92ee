import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';

/** One file the gateway serves to browsers, held in memory from start. */
export interface Served {
  readonly body: Buffer;
  readonly contentType: string;
  /** Strong entity tag of the identity bytes, without quotes. */
  readonly tag: string;
  /** The compressed forms, once made (see `compress`); absent until then, or when they save nothing. */
  br?: Buffer;
  gzip?: Buffer;
  compressing?: Promise<void>;
}

/** The pages, by path, and the assets they load, by name under `assetBase`. */
export interface PageCatalogue {
  readonly pages: ReadonlyMap<'/' | '/docs', Served>;
  /**
   * The same pages without the prefill key: what a request naming another host than loopback
   * gets (see `isLoopbackHost`). The same map as `pages` when there is no key.
   */
  readonly keylessPages: ReadonlyMap<'/' | '/docs', Served>;
  readonly assets: ReadonlyMap<string, Served>;
  /** `/assets/<build>`: the build is a digest of every asset, so their URLs change with their bytes. */
  readonly assetBase: string;
}

/** The gateway's own page files (their sources, readable, next to this file). */
export const OWN_ASSETS_DIR = join(__dirname, 'assets');

/**
 * Third-party files, resolved in node_modules as installed (package.json's `files`), under the
 * names the pages use. Swagger UI without its standalone preset (its top bar is replaced by the
 * page's own version switcher); uPlot as its minified script, which defines the global `uPlot`.
 */
const VENDOR_ASSETS: Record<string, readonly [packageName: string, file: string]> = {
  'swagger-ui-bundle.js': ['swagger-ui-dist', 'swagger-ui-bundle.js'],
  'swagger-ui.css': ['swagger-ui-dist', 'swagger-ui.css'],
  'uplot.min.js': ['uplot', 'dist/uPlot.iife.min.js'],
  'uplot.min.css': ['uplot', 'dist/uPlot.min.css'],
};

const PAGES = { '/': 'index.html', '/docs': 'docs.html' } as const;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** Longest an API key the explorer is prefilled with may be; also its characters (printable ASCII). */
export const PREFILL_KEY_FORMAT = /^[\x21-\x7e]{1,256}$/;

export interface CatalogueOptions {
  /** Put in the explorer's key field (`npm start`'s demo key); absent: the field starts empty. */
  readonly prefillKey?: string;
  readonly ownDir?: string;
}

/**
 * Reads every page and asset once: the allow-list the controller serves from (a URL is looked up
 * by name, never joined to a path). Pages are templates: `{{ASSETS}}` becomes the versioned asset
 * base and `{{API_KEY}}` the prefilled key, HTML-escaped.
 */
export function loadPageCatalogue(options: CatalogueOptions = {}): PageCatalogue {
  const ownDir = options.ownDir ?? OWN_ASSETS_DIR;
  const sources = new Map<string, string>();
  for (const file of readdirSync(ownDir).sort()) {
    if (extname(file) === '.html' || !(extname(file) in CONTENT_TYPES)) continue;
    sources.set(file, join(ownDir, file));
  }
  for (const [name, [pkg, file]] of Object.entries(VENDOR_ASSETS))
    sources.set(name, join(dirname(require.resolve(`${pkg}/package.json`)), file));

  const assets = new Map<string, Served>();
  const build = createHash('sha256');
  for (const [name, path] of sources) {
    const served = serve(readFileSync(path), name);
    assets.set(name, served);
    build.update(`${name}\0${served.tag}\0`);
  }
  const assetBase = `/assets/${build.digest('hex').slice(0, 12)}`;
  const key = options.prefillKey ?? '';
  if (key !== '' && !PREFILL_KEY_FORMAT.test(key))
    throw new Error('the prefill key is not 1 to 256 printable ASCII characters');
  const render = (prefill: string): Map<'/' | '/docs', Served> => {
    const pages = new Map<'/' | '/docs', Served>();
    for (const [path, file] of Object.entries(PAGES) as ['/' | '/docs', string][]) {
      const html = readFileSync(join(ownDir, file), 'utf8')
        .replaceAll('{{ASSETS}}', assetBase)
        .replaceAll('{{API_KEY}}', escapeHtml(prefill));
      pages.set(path, serve(Buffer.from(html), file));
    }
    return pages;
  };
  const keylessPages = render('');
  return { pages: key === '' ? keylessPages : render(key), keylessPages, assets, assetBase };
}

/**
 * Whether a request's `Host` names this machine's loopback: `localhost`, `127.0.0.1` or `[::1]`,
 * with or without a port. Only such a request gets the pages with the prefill key: a page
 * reached under any other name (a public address, a DNS-rebinding name pointing at 127.0.0.1)
 * would hand the key to whoever can make a browser load it.
 */
export function isLoopbackHost(host: string | undefined): boolean {
  if (host === undefined) return false;
  return /^(?:localhost|127\.0\.0\.1|\[::1\])(?::\d{1,5})?$/i.test(host);
}

function serve(body: Buffer, name: string): Served {
  const contentType = CONTENT_TYPES[extname(name)];
  if (!contentType) throw new Error(`no content type for ${name}`);
  return { body, contentType, tag: createHash('sha256').update(body).digest('base64url').slice(0, 22) };
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Makes the br and gzip forms of a text file, once, off the event loop (Swagger UI's bundle takes
 * about half a second at these levels). Started by the file's first request, so a gateway whose
 * pages nobody loads spends nothing on them; until the forms exist the identity bytes go out.
 * Never rejects: a file that fails to compress is sent as it is.
 */
export function compress(file: Served): Promise<void> {
  file.compressing ??= (async () => {
    if (!file.contentType.startsWith('text/') && file.contentType !== 'image/svg+xml') return;
    try {
      const [br, gz] = await Promise.all([
        brotli(file.body, {
          params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_SIZE_HINT]: file.body.length },
        }),
        gzipAsync(file.body, { level: 9 }),
      ]);
      // Only when it saves something (a tiny file can grow).
      if (br.length < file.body.length) file.br = br;
      if (gz.length < file.body.length) file.gzip = gz;
    } catch {
      // Sent uncompressed.
    }
  })();
  return file.compressing;
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}
