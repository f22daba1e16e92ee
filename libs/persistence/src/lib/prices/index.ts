// The ingest path.
export * from './price-ingest.repository';
export * from './stats-row';
