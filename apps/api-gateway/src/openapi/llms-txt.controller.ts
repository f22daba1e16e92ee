import { Controller, Get, Logger, NotFoundException, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Environment } from '../config/environment';
import { type OpenApiOperations, renderLlmsTxt } from './llms-txt';
import { readOpenApiDocuments, sendStatic } from './openapi.controller';

/**
 * `/llms.txt`, without an API key like the OpenAPI documents: rendered once at start from the same
 * files `/openapi/v1.json` and `/openapi/v2.json` serve, so its endpoint list is theirs. Either
 * document missing or unreadable: logged then, and 404.
 */
@Controller()
export class LlmsTxtController {
  private readonly body: Buffer | undefined;
  private readonly writeIdleMs: number;

  constructor(env: Environment) {
    this.writeIdleMs = env.WRITE_IDLE_TIMEOUT_MS;
    const documents = readOpenApiDocuments(env.OPENAPI_DIR);
    const [v1, v2] = [documents.get('v1'), documents.get('v2')];
    try {
      if (!v1 || !v2) throw new Error('a document is missing');
      const parse = (document: Buffer) => JSON.parse(document.toString('utf8')) as OpenApiOperations;
      this.body = Buffer.from(renderLlmsTxt(parse(v1), parse(v2)));
    } catch (error) {
      new Logger('LlmsTxt').warn({
        msg: 'llms.txt not rendered: OpenAPI documents unreadable',
        dir: env.OPENAPI_DIR,
        error: String(error),
      });
    }
  }

  @Get('llms.txt')
  llmsTxt(@Res() res: Response): void {
    if (!this.body)
      throw new NotFoundException('llms.txt is not available: the OpenAPI documents are not installed.');
    sendStatic(res, this.body, 'text/plain; charset=utf-8', this.writeIdleMs);
  }
}
