import { Controller, Get, Logger, NotFoundException, Res } from '@nestjs/common';
import type { Response } from 'express';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { endWithin } from '../common/write-idle';
import { Environment } from '../config/environment';

/** The documents served, by version: the files `npm run openapi` writes under OPENAPI_DIR. */
const FILES = { v1: 'api-v1.json', v2: 'api-v2.json' } as const;
export type Version = keyof typeof FILES;

/** The documents under `dir`, read once; a missing one is logged and left out. */
export function readOpenApiDocuments(dir: string): ReadonlyMap<Version, Buffer> {
  const documents = new Map<Version, Buffer>();
  for (const [version, file] of Object.entries(FILES) as [Version, string][]) {
    const path = resolve(dir, file);
    try {
      documents.set(version, readFileSync(path));
    } catch (error) {
      new Logger('OpenApi').warn({ msg: 'OpenAPI document missing', file: path, error: String(error) });
    }
  }
  return documents;
}

/**
 * A body read at start, sent whole with a five-minute public cache; a client that stops reading
 * it is cut, as for the pages' assets.
 */
export function sendStatic(res: Response, body: Buffer, contentType: string, writeIdleMs: number): void {
  res
    .status(200)
    .setHeader('content-type', contentType)
    .setHeader('cache-control', 'public, max-age=300')
    .setHeader('content-length', body.length);
  endWithin(res, body, writeIdleMs);
}

/**
 * The OpenAPI documents of the two versions at `/openapi/v1.json` and `/openapi/v2.json`, without
 * an API key: what a client generator or the docs page loads. Read once at start (they change only
 * with a release); a document that is missing is logged then and answered 404.
 */
@Controller('openapi')
export class OpenApiController {
  private readonly documents: ReadonlyMap<Version, Buffer>;
  private readonly writeIdleMs: number;

  constructor(env: Environment) {
    this.writeIdleMs = env.WRITE_IDLE_TIMEOUT_MS;
    this.documents = readOpenApiDocuments(env.OPENAPI_DIR);
  }

  @Get('v1.json')
  v1(@Res() res: Response): void {
    this.send('v1', res);
  }

  @Get('v2.json')
  v2(@Res() res: Response): void {
    this.send('v2', res);
  }

  private send(version: Version, res: Response): void {
    const document = this.documents.get(version);
    if (!document) throw new NotFoundException(`The ${version} OpenAPI document is not installed.`);
    sendStatic(res, document, 'application/json; charset=utf-8', this.writeIdleMs);
  }
}
