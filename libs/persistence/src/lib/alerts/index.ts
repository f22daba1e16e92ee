export * from './alert.repository.port';
export * from './alert.repository';
export * from './alert-outbox';
