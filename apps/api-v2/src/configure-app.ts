import { INestApplication, ValidationPipe } from '@nestjs/common';
import { ProblemDetailsFilter } from './common/filters/problem-details.filter';

/** Global pipes, filters and options; main.ts and the end-to-end tests both call this. */
export function configureApp(app: INestApplication): void {
  app.useGlobalPipes(new ValidationPipe({ whitelist: true, transform: true }));
  app.useGlobalFilters(app.get(ProblemDetailsFilter));
  app.enableShutdownHooks();
  (app.getHttpAdapter().getInstance() as { disable(setting: string): void }).disable('x-powered-by');
}
