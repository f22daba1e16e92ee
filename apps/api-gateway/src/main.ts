import 'reflect-metadata';
import { createServiceApp, listenMetrics } from '@tcg/http-service';
import { AppModule } from './app.module';
import { configureApp, GATEWAY_APP_OPTIONS } from './configure-app';

async function bootstrap(): Promise<void> {
  const { app, config, logger } = await createServiceApp(AppModule, GATEWAY_APP_OPTIONS);
  configureApp(app);
  const port = config.getOrThrow<number>('PORT');
  await app.listen(port, config.getOrThrow<string>('HOST'));
  await listenMetrics(app, logger, port);
}

bootstrap().catch((error: unknown) => {
  process.stderr.write(`${JSON.stringify({ level: 'fatal', service: 'api-gateway', msg: String(error) })}\n`);
  process.exit(1);
});
