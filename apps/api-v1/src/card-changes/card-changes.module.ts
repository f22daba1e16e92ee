import { Module } from '@nestjs/common';
import { CardChangesPruner } from './card-changes-pruner.service';

/** The pruning of the services' card change log, run by the worker (worker.module.ts). */
@Module({ providers: [CardChangesPruner] })
export class CardChangesModule {}
