export {
  DEFAULT_PRICE_SEED,
  hasNoPrice,
  simulateSeries,
  type SimulatedSeries,
  type SimulationInput,
} from './simulate-series';
export { variantLevelCents } from './price-level';
