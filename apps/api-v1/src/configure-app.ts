import { INestApplication, ValidationPipe } from '@nestjs/common';
import { V1ExceptionFilter } from './common/filters/v1-exception.filter';

/** Global pipes, filters and options; main.ts and the end-to-end tests both call this. */
export function configureApp(app: INestApplication): void {
  app.useGlobalPipes(new ValidationPipe({ whitelist: true, transform: true }));
  app.useGlobalFilters(new V1ExceptionFilter());
  app.enableShutdownHooks();
  const express = app.getHttpAdapter().getInstance() as { disable(setting: string): void };
  express.disable('x-powered-by');
  // Express would hash every body for an ETag: a SHA-1 over megabytes for a 100-card page
  // (measured in the v2 profile), for a validator no client of this API sends back.
  express.disable('etag');
}
