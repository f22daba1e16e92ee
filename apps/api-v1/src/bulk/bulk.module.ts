import { Module } from '@nestjs/common';
import { bulkSnapshotStoreProvider } from './bulk-store.provider';
import { BulkController } from './bulk.controller';
import { BulkGenerationModule } from './bulk-generation.module';
import { BulkService } from './bulk.service';

@Module({
  imports: [BulkGenerationModule],
  controllers: [BulkController],
  providers: [bulkSnapshotStoreProvider, BulkService],
})
export class BulkModule {}
