export * from './lib/windows';
export { listJson, type Series } from './lib/series';
export * from './lib/v1';
export * from './lib/v2';
export * from './lib/rendered-series';
export * from './lib/joined';
