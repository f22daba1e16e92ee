import 'reflect-metadata';
import { runWorker } from '@tcg/http-service';
import { WorkerModule } from './worker.module';

runWorker({ name: 'api-v1-worker', module: WorkerModule });
