import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Request, Response } from 'express';
import { sendError, sendInternalError } from './error-shape';

/** Errors raised inside the gateway (unknown paths, bugs), in the shape of the path's version. */
@Catch()
export class GatewayExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('GatewayExceptionFilter');

  constructor(private readonly config: ConfigService) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    const docsUrl = this.config.getOrThrow<string>('DOCS_URL');
    if (exception instanceof HttpException && exception.getStatus() === 404) {
      sendError(res, req.path, 404, 'NOT_FOUND', `No route for ${req.method} ${req.path}.`, docsUrl);
      return;
    }
    if (exception instanceof HttpException && exception.getStatus() < 500) {
      sendError(res, req.path, exception.getStatus(), 'INVALID_REQUEST', exception.message, docsUrl);
      return;
    }
    sendInternalError(res, req.path, docsUrl, this.logger, exception);
  }
}
