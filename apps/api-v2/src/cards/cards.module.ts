import { Module } from '@nestjs/common';
import { CardsController } from './cards.controller';
import { CardPages } from './cursor/card-pages';
import { CardsService } from './cards.service';
import { CurrencyConversion } from './currency/currency-conversion';
import { ExchangeRateBook } from './currency/exchange-rate-book';

@Module({
  controllers: [CardsController],
  providers: [CardsService, CardPages, CurrencyConversion, ExchangeRateBook],
})
export class CardsModule {}
