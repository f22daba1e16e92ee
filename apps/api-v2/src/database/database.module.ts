import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { createDataSource } from '@tcg/persistence';
import { DataSource } from 'typeorm';

@Global()
@Module({
  providers: [
    {
      provide: DataSource,
      inject: [ConfigService],
      useFactory: (config: ConfigService) =>
        createDataSource({
          url: config.getOrThrow<string>('DATABASE_URL'),
          poolSize: config.get<number>('DATABASE_POOL_SIZE'),
          applicationName: 'api-v2',
        }).initialize(),
    },
  ],
  exports: [DataSource],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(DataSource) private readonly ds: DataSource) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.ds.isInitialized) await this.ds.destroy();
  }
}
