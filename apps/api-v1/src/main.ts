import 'reflect-metadata';
import { runService } from '@tcg/http-service';
import { AppModule } from './app.module';
import { configureApp } from './configure-app';

runService('api-v1', AppModule, configureApp);
