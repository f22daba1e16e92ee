// The gateway–service contract alone, without the NestJS plumbing of the main entry point: what
// the end-to-end tests may import from this lib.
export * from './gateway-contract';
