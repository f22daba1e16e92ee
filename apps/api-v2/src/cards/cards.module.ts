import { Module } from '@nestjs/common';
import { CardsController } from './cards.controller';
import { CardPages } from './cursor/card-pages';
import { CardsService } from './cards.service';

@Module({ controllers: [CardsController], providers: [CardsService, CardPages] })
export class CardsModule {}
