import { Module } from '@nestjs/common';
import { IdsController } from './ids.controller';
import { IdsService } from './ids.service';

/** The id crosswalk's routes (docs/id-crosswalk.md). */
@Module({ controllers: [IdsController], providers: [IdsService] })
export class IdsModule {}
