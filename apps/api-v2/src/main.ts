import 'reflect-metadata';
import { runService } from '@tcg/http-service';
import { AppModule } from './app.module';
import { Environment } from './config/environment';
import { configureApp } from './configure-app';

runService({ name: 'api-v2', module: AppModule, environment: Environment, configure: configureApp });
