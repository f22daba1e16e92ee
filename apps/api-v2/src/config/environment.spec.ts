import { validateEnvironment } from './environment';

const REQUIRED = { DATABASE_URL: 'postgres://x/y', INTERNAL_TOKEN: 'x'.repeat(32) };

describe('api-v2 configuration', () => {
  it('bounds every wait by default', () => {
    expect(validateEnvironment(REQUIRED)).toMatchObject({
      DATABASE_CONNECT_TIMEOUT_MS: 2_000,
      DATABASE_STATEMENT_TIMEOUT_MS: 5_000,
      DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: 10_000,
      SERVER_KEEP_ALIVE_TIMEOUT_MS: 30_000,
      SERVER_HEADERS_TIMEOUT_MS: 10_000,
      SERVER_REQUEST_TIMEOUT_MS: 30_000,
    });
  });

  it.each([
    [{ DATABASE_STATEMENT_TIMEOUT_MS: '0' }, 'DATABASE_STATEMENT_TIMEOUT_MS'],
    [{ DATABASE_CONNECT_TIMEOUT_MS: 'soon' }, 'DATABASE_CONNECT_TIMEOUT_MS'],
    [{ SERVER_HEADERS_TIMEOUT_MS: '20000', SERVER_REQUEST_TIMEOUT_MS: '10000' }, 'SERVER_HEADERS_TIMEOUT_MS'],
    [{ TOTAL_COUNT_BUDGET_MS: '3000', DATABASE_STATEMENT_TIMEOUT_MS: '2000' }, 'TOTAL_COUNT_BUDGET_MS'],
  ])('refuses to boot on %o, naming %s', (raw, variable) => {
    expect(() => validateEnvironment({ ...REQUIRED, ...raw })).toThrow(
      new RegExp(`Invalid configuration: .*${variable}`),
    );
  });
});
