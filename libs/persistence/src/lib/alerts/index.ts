export * from './alert.repository';
export * from './alert-outbox';
