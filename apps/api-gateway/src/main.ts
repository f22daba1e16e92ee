import 'reflect-metadata';
import { runService } from '@tcg/http-service';
import { AppModule } from './app.module';
import { Environment } from './config/environment';
import { configureApp, GATEWAY_APP_OPTIONS } from './configure-app';

runService({
  name: 'api-gateway',
  module: AppModule,
  environment: Environment,
  configure: configureApp,
  appOptions: GATEWAY_APP_OPTIONS,
});
