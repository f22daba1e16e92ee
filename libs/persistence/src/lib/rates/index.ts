// Dated exchange rates: the ECB feed's writes, v2's conversions' reads.
export * from './exchange-rate.repository.port';
export * from './exchange-rate.repository';

/** The `ExchangeRateRepository` port, bound to PostgreSQL: inject with `@Inject(EXCHANGE_RATES)`. */
export const EXCHANGE_RATES = Symbol('ExchangeRateRepository');
