// The feed sync's writes.
export * from './feed-catalogue.repository';
