import { Provider } from '@nestjs/common';
import { TypeOrmBulkSnapshotStore } from '@tcg/persistence';
import { DataSource } from 'typeorm';

/** The bulk snapshot port, bound to its PostgreSQL implementation. */
export const BULK_SNAPSHOTS = Symbol('BulkSnapshotStore');

export const bulkSnapshotStoreProvider: Provider = {
  provide: BULK_SNAPSHOTS,
  inject: [DataSource],
  useFactory: (ds: DataSource) => new TypeOrmBulkSnapshotStore(ds),
};
