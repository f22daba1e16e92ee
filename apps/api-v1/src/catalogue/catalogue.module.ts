import { Global, Module } from '@nestjs/common';
import { TypeOrmCatalogueRepository } from '@tcg/persistence';
import { DataSource } from 'typeorm';

/** The catalogue port, bound to its PostgreSQL implementation. */
export const CATALOGUE = Symbol('CatalogueRepository');

@Global()
@Module({
  providers: [
    {
      provide: CATALOGUE,
      inject: [DataSource],
      useFactory: (ds: DataSource) => new TypeOrmCatalogueRepository(ds),
    },
  ],
  exports: [CATALOGUE],
})
export class CatalogueModule {}
