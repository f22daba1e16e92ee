import { Module } from '@nestjs/common';
import { AlertSenderService } from './alert-sender.service';
import { AlertsController } from './alerts.controller';
import { AlertsService } from './alerts.service';

@Module({
  controllers: [AlertsController],
  providers: [AlertsService, AlertSenderService],
})
export class AlertsModule {}
