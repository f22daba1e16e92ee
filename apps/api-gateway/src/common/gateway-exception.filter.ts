import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { sendError, sendInternalError } from './error-shape';

/** Errors raised inside the gateway (unknown paths, bugs), in the shape of the path's version. */
@Catch()
export class GatewayExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('GatewayExceptionFilter');

  /** `docsUrl`: DOCS_URL, the base address of the v2 problem types. */
  constructor(private readonly docsUrl: string) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    if (exception instanceof HttpException && exception.getStatus() === 404) {
      sendError(res, req.path, 404, 'NOT_FOUND', `No route for ${req.method} ${req.path}.`, this.docsUrl);
      return;
    }
    if (exception instanceof HttpException && exception.getStatus() < 500) {
      sendError(res, req.path, exception.getStatus(), 'INVALID_REQUEST', exception.message, this.docsUrl);
      return;
    }
    sendInternalError(res, req.path, this.docsUrl, this.logger, exception);
  }
}
