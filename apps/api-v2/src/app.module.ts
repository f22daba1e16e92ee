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
import { ProblemDetailsFilter } from './common/filters/problem-details.filter';
import { CardsModule } from './cards/cards.module';

@Module({
  imports: [
    ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, validate: validateEnvironment }),
    PersistenceModule.forService('api-v2'),
    ObservabilityModule.forService({ service: 'api-v2', database: { token: DataSource, usage: poolUsage } }),
    ResponsesModule.forService({ versions: DATA_VERSION, health: HealthDetails }),
    CardsModule,
  ],
  providers: [ProblemDetailsFilter],
})
export class AppModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(InternalCredentialMiddleware, RejectNulMiddleware).forRoutes('{*path}');
  }
}
