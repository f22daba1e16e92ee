// Test support (a migrated test database, fixtures); imported by test files only, as @tcg/persistence/testing.
export * from './fixtures';
export * from './test-database';
export * from './tcp-proxy';
export * from './login-roles';
export * from './sql-snapshot';
export * from './card-reads';
export * from './in-process-app';
export * from './test-client';
export * from './webhook-receiver';
export * from './free-port';
