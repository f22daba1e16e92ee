import { Controller, Get, Logger, NotFoundException, Res } from '@nestjs/common';
import type { Response } from 'express';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { endWithin } from '../common/write-idle';
import { Environment } from '../config/environment';
import { type OpenApiOperations, renderLlmsTxt } from './llms-txt';

/**
 * `/llms.txt`, without an API key like the OpenAPI documents: rendered once at start from the same
 * files `/openapi/v1.json` and `/openapi/v2.json` serve, so its endpoint list is theirs. Either
 * document missing: logged then, and 404.
 */
@Controller()
export class LlmsTxtController {
  private readonly body: Buffer | undefined;
  private readonly writeIdleMs: number;

  constructor(env: Environment) {
    this.writeIdleMs = env.WRITE_IDLE_TIMEOUT_MS;
    const dir = resolve(env.OPENAPI_DIR);
    try {
      const read = (file: string) =>
        JSON.parse(readFileSync(resolve(dir, file), 'utf8')) as OpenApiOperations;
      this.body = Buffer.from(renderLlmsTxt(read('api-v1.json'), read('api-v2.json')));
    } catch (error) {
      new Logger('LlmsTxt').warn({
        msg: 'llms.txt not rendered: OpenAPI documents unreadable',
        dir,
        error: String(error),
      });
    }
  }

  @Get('llms.txt')
  llmsTxt(@Res() res: Response): void {
    if (!this.body)
      throw new NotFoundException('llms.txt is not available: the OpenAPI documents are not installed.');
    res
      .status(200)
      .setHeader('content-type', 'text/plain; charset=utf-8')
      .setHeader('cache-control', 'public, max-age=300')
      .setHeader('content-length', this.body.length);
    endWithin(res, this.body, this.writeIdleMs);
  }
}
