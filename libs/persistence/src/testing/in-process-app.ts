import type { Type } from '@nestjs/common';
import type { TestingModule } from '@nestjs/testing';
import { workerDatabaseUrl } from './test-database';

/** How an app reads its configuration: the class it is injected under and the app's own validation. */
export interface AppEnvironment<T> {
  readonly type: Type<T>;
  readonly validate: (raw: Record<string, unknown>) => T;
}

/**
 * An app's real provider graph (its root module: service core, persistence, features, jobs) built
 * in process on this worker's test database, for a medium test of its services: its environment is
 * `variables` over quiet defaults, validated by the app, instead of the process's. Not initialised:
 * `init()` starts the jobs (`onApplicationBootstrap`), `close()` stops them and closes the pools.
 */
export async function inProcessApp<T>(
  root: Type<unknown>,
  environment: AppEnvironment<T>,
  variables: Record<string, string> = {},
): Promise<TestingModule> {
  // Loaded here, not with the rest of this entry point: the suites that only seed a database
  // (global setup, the end-to-end tests) never load Nest.
  const { Test } = await import('@nestjs/testing');
  const validated = environment.validate({
    DATABASE_URL: workerDatabaseUrl(),
    DATABASE_POOL_SIZE: '2',
    INTERNAL_TOKEN: 'in-process-internal-credential',
    LOG_LEVEL: 'warn',
    METRICS_PORT: '0',
    ...variables,
  });
  return Test.createTestingModule({ imports: [root] })
    .overrideProvider(environment.type)
    .useValue(validated)
    .compile();
}
