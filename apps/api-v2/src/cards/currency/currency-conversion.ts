import { Injectable } from '@nestjs/common';
import type { JsonWithHeaders } from '@tcg/rendering';
import type { ConvertibleCurrency } from './currencies';
import { ExchangeRateBook } from './exchange-rate-book';
import { convertCardsBody } from './currency-conversion.mapper';

/**
 * `currency=`: a v2 answer as rendered, with each market's price also in the asked currency
 * (`convertCardsBody`). Without a currency the answer is passed on untouched, byte for byte.
 */
@Injectable()
export class CurrencyConversion {
  constructor(private readonly rates: ExchangeRateBook) {}

  async page(
    currency: ConvertibleCurrency | undefined,
    answer: Promise<JsonWithHeaders>,
  ): Promise<JsonWithHeaders> {
    const rendered = await answer;
    if (currency === undefined) return rendered;
    const book = await this.rates.current();
    return { ...rendered, json: [convertCardsBody(rendered.json.join(''), currency, book)] };
  }

  async one(currency: ConvertibleCurrency | undefined, rendered: string): Promise<string> {
    if (currency === undefined) return rendered;
    return convertCardsBody(rendered, currency, await this.rates.current());
  }
}
