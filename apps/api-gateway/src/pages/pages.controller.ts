import { Controller, Get, Inject, NotFoundException, Param, Req, Res } from '@nestjs/common';
import { entityTag, ifNoneMatchHits, negotiateCoding } from '@tcg/http-service';
import type { Request, Response } from 'express';
import { endWithin } from '../common/write-idle';
import { Environment } from '../config/environment';
import { compress, isLoopbackHost, type PageCatalogue, type Served } from './page-catalogue';

export const PAGE_CATALOGUE = Symbol('PageCatalogue');

/**
 * What every page and asset is sent with. The pages load only the gateway's own scripts (no
 * inline script: the initialisers are files) and call only the gateway; Swagger UI draws its
 * icons as data: images, and the explorer shows a Magic card's image from Scryfall's image CDN
 * (that one origin, images only). Nothing may frame them.
 */
export const PAGE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; " +
    "img-src 'self' data: https://cards.scryfall.io; font-src 'self'; connect-src 'self'; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** Pages are revalidated on every load (cheap: a 304), so they always name the current assets. */
const PAGE_CACHE = 'no-cache';
/** Assets' URLs change with their bytes (the build digest in `assetBase`): cached for good. */
const ASSET_CACHE = 'public, max-age=31536000, immutable';

/**
 * The browser pages, without an API key and at no cost (they never reach the proxy): the price
 * explorer at `/`, the API reference at `/docs`, and their assets at `/assets/<build>/<name>`,
 * served from the allow-list read at start. GET and HEAD only (Express answers HEAD with the GET
 * route, without the body); anything else, or a name not in the list, is the gateway's 404.
 */
@Controller()
export class PagesController {
  /** WRITE_IDLE_TIMEOUT_MS: a client that stops reading a page or an asset is cut after it. */
  private readonly writeIdleMs: number;

  constructor(
    @Inject(PAGE_CATALOGUE) private readonly catalogue: PageCatalogue,
    env: Environment,
  ) {
    this.writeIdleMs = env.WRITE_IDLE_TIMEOUT_MS;
  }

  @Get()
  explorer(@Req() req: Request, @Res() res: Response): void {
    send(req, res, ...this.page(req, '/'), this.writeIdleMs);
  }

  @Get('docs')
  docs(@Req() req: Request, @Res() res: Response): void {
    send(req, res, ...this.page(req, '/docs'), this.writeIdleMs);
  }

  /**
   * The page with the prefill key (EXPLORER_API_KEY, `npm start`'s demo key) only for a loopback
   * `Host`; any other host gets the same page with the key field empty, not a refusal, so a
   * gateway reached under its public name still serves a usable explorer.
   */
  private page(req: Request, path: '/' | '/docs'): [Served, string, string] {
    const { pages, keylessPages } = this.catalogue;
    if (pages === keylessPages) return [pages.get(path)!, PAGE_CACHE, 'Accept-Encoding'];
    const served = (isLoopbackHost(req.headers.host) ? pages : keylessPages).get(path)!;
    return [served, PAGE_CACHE, 'Accept-Encoding, Host'];
  }

  @Get('assets/:build/:name')
  asset(
    @Param('build') build: string,
    @Param('name') name: string,
    @Req() req: Request,
    @Res() res: Response,
  ): void {
    const served =
      `/assets/${build}` === this.catalogue.assetBase ? this.catalogue.assets.get(name) : undefined;
    // The exception filter answers it like any unknown path (the v1 error shape).
    if (!served) throw new NotFoundException();
    send(req, res, served, ASSET_CACHE, 'Accept-Encoding', this.writeIdleMs);
  }
}

function send(
  req: Request,
  res: Response,
  served: Served,
  cacheControl: string,
  vary: string,
  writeIdleMs: number,
): void {
  const wanted = negotiateCoding(req.headers['accept-encoding']);
  if (wanted !== 'identity' && !served[wanted]) void compress(served);
  const coding = wanted !== 'identity' && served[wanted] ? wanted : 'identity';
  const body = coding === 'identity' ? served.body : served[coding]!;
  res.setHeader('content-type', served.contentType);
  res.setHeader('cache-control', cacheControl);
  res.setHeader('vary', vary);
  res.setHeader('etag', entityTag(served.tag, false, coding));
  for (const [name, value] of Object.entries(PAGE_SECURITY_HEADERS)) res.setHeader(name, value);
  if (ifNoneMatchHits(req.headers['if-none-match'], served.tag)) {
    res.status(304).end();
    return;
  }
  if (coding !== 'identity') res.setHeader('content-encoding', coding);
  res.setHeader('content-length', body.length);
  res.status(200);
  endWithin(res, body, writeIdleMs);
}
