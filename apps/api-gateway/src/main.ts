import 'reflect-metadata';
import { ConfigService } from '@nestjs/config';
import { NestFactory } from '@nestjs/core';
import { ServiceLogger } from '@tcg/http-service';
import { AppModule } from './app.module';
import type { Environment } from './config/environment';
import { configureApp, GATEWAY_APP_OPTIONS } from './configure-app';

async function bootstrap(): Promise<void> {
  // Nest's lines while it creates the app are held until the logger of the configured level takes over.
  const app = await NestFactory.create(AppModule, { ...GATEWAY_APP_OPTIONS, bufferLogs: true });
  const config = app.get(ConfigService);
  const logger = new ServiceLogger('api-gateway', config.getOrThrow<Environment['LOG_LEVEL']>('LOG_LEVEL'));
  app.useLogger(logger);
  configureApp(app);
  const port = config.getOrThrow<number>('PORT');
  await app.listen(port, config.getOrThrow<string>('HOST'));
  logger.log({ msg: 'listening', port }, 'Bootstrap');
}

bootstrap().catch((error: unknown) => {
  process.stderr.write(`${JSON.stringify({ level: 'fatal', service: 'api-gateway', msg: String(error) })}\n`);
  process.exit(1);
});
