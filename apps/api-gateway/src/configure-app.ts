import { INestApplication } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { GatewayExceptionFilter } from './common/gateway-exception.filter';

/**
 * Global options; main.ts and the end-to-end tests both call this. The app must be created with
 * `bodyParser: false` (see GATEWAY_APP_OPTIONS) so request bodies stream to the services unparsed.
 */
export function configureApp(app: INestApplication): void {
  app.useGlobalFilters(new GatewayExceptionFilter(app.get(ConfigService)));
  app.enableShutdownHooks();
  (app.getHttpAdapter().getInstance() as { disable(setting: string): void }).disable('x-powered-by');
}

export const GATEWAY_APP_OPTIONS = { bodyParser: false } as const;
