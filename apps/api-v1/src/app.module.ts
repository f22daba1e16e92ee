import { Module } from '@nestjs/common';
import { ServiceCoreModule } from '@tcg/http-service';
import { serviceDatabase } from '@tcg/persistence/nest';
import { AlertsModule } from './alerts/alerts.module';
import { BulkModule } from './bulk/bulk.module';
import { CardsModule } from './cards/cards.module';
import { Environment, validateEnvironment } from './config/environment';
import { GamesModule } from './games/games.module';
import { SetsModule } from './sets/sets.module';

@Module({
  imports: [
    ServiceCoreModule.forService({
      service: 'api-v1',
      environment: Environment,
      validate: validateEnvironment,
      database: serviceDatabase,
    }),
    AlertsModule,
    BulkModule,
    CardsModule,
    GamesModule,
    SetsModule,
  ],
})
export class AppModule {}
