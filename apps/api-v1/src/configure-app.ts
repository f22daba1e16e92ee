import { INestApplication } from '@nestjs/common';
import { configureService } from '@tcg/http-service';
import { V1ExceptionFilter } from './common/filters/v1-exception.filter';

/**
 * The largest JSON body read: a batch of 200 items, each an identifier (256 characters) with a
 * printing and a condition list (512 each) and its punctuation, is about 280 KB of ASCII; the rest
 * is room for non-ASCII text. A larger body is refused unread, with the parser's 413.
 */
export const BODY_LIMIT = '512kb';

/** Global middlewares, filter and options; main.ts and the end-to-end tests both call this. */
export function configureApp(app: INestApplication): void {
  configureService(app, { bodyLimit: BODY_LIMIT, exceptionFilter: new V1ExceptionFilter(), version: 'v1' });
}
