import { INestApplication, ValidationPipe } from '@nestjs/common';
import { V1ExceptionFilter } from './common/filters/v1-exception.filter';

/** Global pipes, filters and options; main.ts and the end-to-end tests both call this. */
export function configureApp(app: INestApplication): void {
  app.useGlobalPipes(new ValidationPipe({ whitelist: true, transform: true }));
  app.useGlobalFilters(new V1ExceptionFilter());
  app.enableShutdownHooks();
  (app.getHttpAdapter().getInstance() as { disable(setting: string): void }).disable('x-powered-by');
}
