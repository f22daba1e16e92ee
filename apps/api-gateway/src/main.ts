import 'reflect-metadata';
import { createServiceApp, listenMetrics } from '@tcg/http-service';
import { AppModule } from './app.module';
import { Environment } from './config/environment';
import { configureApp, GATEWAY_APP_OPTIONS } from './configure-app';

async function bootstrap(): Promise<void> {
  const { app, logger } = await createServiceApp(AppModule, GATEWAY_APP_OPTIONS);
  configureApp(app);
  const env = app.get(Environment);
  await app.listen(env.PORT, env.HOST);
  await listenMetrics(app, logger, env.PORT);
}

bootstrap().catch((error: unknown) => {
  process.stderr.write(`${JSON.stringify({ level: 'fatal', service: 'api-gateway', msg: String(error) })}\n`);
  process.exit(1);
});
