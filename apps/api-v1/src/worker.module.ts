import { Module } from '@nestjs/common';
import { ServiceCoreModule } from '@tcg/http-service';
import { serviceDatabase } from '@tcg/persistence/nest';
import { AlertSenderModule } from './alerts/sender/alert-sender.module';
import { BulkGenerationModule } from './bulk/bulk-generation.module';
import { CardChangesModule } from './card-changes/card-changes.module';
import { validateWorkerEnvironment, WorkerEnvironment } from './config/worker-environment';

/**
 * api-v1's batch work in a process of its own (worker.ts): the bulk snapshots' generation, the
 * price alerts' evaluation and webhooks, and the pruning of the services' card change log, on the
 * service core's configuration, database, logs and metrics, without routes (an application
 * context mounts no controller and no middleware).
 */
@Module({
  imports: [
    ServiceCoreModule.forService({
      service: 'api-v1-worker',
      environment: WorkerEnvironment,
      validate: validateWorkerEnvironment,
      database: serviceDatabase,
    }),
    AlertSenderModule,
    BulkGenerationModule,
    CardChangesModule,
  ],
})
export class WorkerModule {}
