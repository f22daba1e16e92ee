import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import {
  InternalCredentialMiddleware,
  ObservabilityModule,
  RejectNulMiddleware,
  ResponsesModule,
} from '@tcg/http-service';
import { poolUsage } from '@tcg/persistence';
import { DataSource } from 'typeorm';
import { ConfigModule } from '@nestjs/config';
import { validateEnvironment } from './config/environment';
import { DATA_VERSION, HealthDetails, PersistenceModule } from '@tcg/persistence/nest';
import { BulkModule } from './bulk/bulk.module';
import { CardsModule } from './cards/cards.module';
import { GamesModule } from './games/games.module';
import { SetsModule } from './sets/sets.module';

@Module({
  imports: [
    ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, validate: validateEnvironment }),
    PersistenceModule.forService('api-v1'),
    ObservabilityModule.forService({ service: 'api-v1', database: { token: DataSource, usage: poolUsage } }),
    ResponsesModule.forService({ versions: DATA_VERSION, health: HealthDetails }),
    BulkModule,
    CardsModule,
    GamesModule,
    SetsModule,
  ],
})
export class AppModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(InternalCredentialMiddleware, RejectNulMiddleware).forRoutes('{*path}');
  }
}
