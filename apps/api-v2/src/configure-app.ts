import { INestApplication } from '@nestjs/common';
import { configureService } from '@tcg/http-service';
import { ProblemDetailsFilter } from './common/filters/problem-details.filter';

/** No v2 route reads a body: anything beyond a stray small one is refused unread (413). */
export const BODY_LIMIT = '16kb';

/** Global middlewares, filter and options; main.ts and the end-to-end tests both call this. */
export function configureApp(app: INestApplication): void {
  configureService(app, {
    bodyLimit: BODY_LIMIT,
    exceptionFilter: app.get(ProblemDetailsFilter),
    version: 'v2',
  });
}
