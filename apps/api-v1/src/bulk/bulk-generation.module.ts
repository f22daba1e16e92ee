import { Module } from '@nestjs/common';
import { BulkGenerationService } from './bulk-generation.service';

/**
 * The bulk snapshots' background generation alone (BULK_GENERATION), without the routes: what the
 * worker runs (worker.module.ts), and what the serving app runs too when its variable is on.
 */
@Module({ providers: [BulkGenerationService] })
export class BulkGenerationModule {}
