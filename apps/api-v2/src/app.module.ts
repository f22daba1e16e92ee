import { Module } from '@nestjs/common';
import { ServiceCoreModule } from '@tcg/http-service';
import { serviceDatabase } from '@tcg/persistence/nest';
import { CardsModule } from './cards/cards.module';
import { IdsModule } from './ids/ids.module';
import { ProblemDetailsFilter } from './common/filters/problem-details.filter';
import { Environment, validateEnvironment } from './config/environment';

@Module({
  imports: [
    ServiceCoreModule.forService({
      service: 'api-v2',
      environment: Environment,
      validate: validateEnvironment,
      database: serviceDatabase,
    }),
    CardsModule,
    IdsModule,
  ],
  providers: [ProblemDetailsFilter],
})
export class AppModule {}
