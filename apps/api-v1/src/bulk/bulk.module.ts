import { Module } from '@nestjs/common';
import { bulkSnapshotStoreProvider } from './bulk-store.provider';
import { BulkController } from './bulk.controller';
import { BulkGenerationService } from './bulk-generation.service';
import { BulkService } from './bulk.service';

@Module({
  controllers: [BulkController],
  providers: [bulkSnapshotStoreProvider, BulkService, BulkGenerationService],
})
export class BulkModule {}
