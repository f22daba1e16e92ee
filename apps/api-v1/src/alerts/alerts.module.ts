import { Module } from '@nestjs/common';
import { AlertSenderModule } from './sender/alert-sender.module';
import { AlertsController } from './alerts.controller';
import { AlertsService } from './alerts.service';

@Module({
  imports: [AlertSenderModule],
  controllers: [AlertsController],
  providers: [AlertsService],
})
export class AlertsModule {}
