import { Module } from '@nestjs/common';
import { CardsController } from './cards.controller';
import { CardsService } from './cards.service';
import { NamesController } from './names/names.controller';

@Module({ controllers: [NamesController, CardsController], providers: [CardsService] })
export class CardsModule {}
