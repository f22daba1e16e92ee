import { validateEnvironment } from './environment';

const REQUIRED = { DATABASE_URL: 'postgres://x/y', INTERNAL_TOKEN: 'x'.repeat(32) };

// The shared variables' defaults and bounds are tested with ServiceEnvironment in @tcg/http-service.
describe('api-v2 configuration', () => {
  it.each([
    [{ TOTAL_COUNT_BUDGET_MS: '3000', DATABASE_STATEMENT_TIMEOUT_MS: '2000' }, 'TOTAL_COUNT_BUDGET_MS'],
  ])('refuses to boot on %o, naming %s', (raw, variable) => {
    expect(() => validateEnvironment({ ...REQUIRED, ...raw })).toThrow(
      new RegExp(`Invalid configuration: .*${variable}`),
    );
  });
});
