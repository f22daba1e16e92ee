import { Controller, Get, Logger, NotFoundException, Res } from '@nestjs/common';
import type { Response } from 'express';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { endWithin } from '../common/write-idle';
import { Environment } from '../config/environment';

/** The documents served, by version: the files `npm run openapi` writes under OPENAPI_DIR. */
const FILES = { v1: 'api-v1.json', v2: 'api-v2.json' } as const;
type Version = keyof typeof FILES;

/**
 * The OpenAPI documents of the two versions at `/openapi/v1.json` and `/openapi/v2.json`, without
 * an API key: what a client generator or the docs page loads. Read once at start (they change only
 * with a release); a document that is missing is logged then and answered 404.
 */
@Controller('openapi')
export class OpenApiController {
  private readonly documents = new Map<Version, Buffer>();
  private readonly writeIdleMs: number;

  constructor(env: Environment) {
    this.writeIdleMs = env.WRITE_IDLE_TIMEOUT_MS;
    const dir = resolve(env.OPENAPI_DIR);
    for (const [version, file] of Object.entries(FILES) as [Version, string][]) {
      try {
        this.documents.set(version, readFileSync(resolve(dir, file)));
      } catch (error) {
        new Logger('OpenApi').warn({
          msg: 'OpenAPI document missing',
          file: resolve(dir, file),
          error: String(error),
        });
      }
    }
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
    res
      .status(200)
      .setHeader('content-type', 'application/json; charset=utf-8')
      .setHeader('cache-control', 'public, max-age=300')
      .setHeader('content-length', document.length);
    // A client that stops reading the document is cut, as for the pages' assets.
    endWithin(res, document, this.writeIdleMs);
  }
}
