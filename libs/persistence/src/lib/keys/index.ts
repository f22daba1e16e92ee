// The keys capability: API keys, their quota counters and download leases.
export * from './api-key.repository.port';
export * from './api-key.repository';
export * from './quota-counter.repository';
export * from './download-lease.repository';
