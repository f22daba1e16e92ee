import { validateWorkerEnvironment } from './worker-environment';

describe('api-v1 worker configuration', () => {
  it('needs no gateway credential, and has its own admin port, a small pool and no response cache', () => {
    expect(validateWorkerEnvironment({ DATABASE_URL: 'postgres://x/y' })).toMatchObject({
      METRICS_PORT: 9083,
      DATABASE_POOL_SIZE: 2,
      RESPONSE_CACHE_MAX_BYTES: 0,
      BULK_GENERATION: 'on',
      ALERT_SENDER: 'on',
    });
  });

  it.each([
    [{ DATABASE_URL: 'postgres://x/y', BULK_GENERATION: 'sometimes' }, 'BULK_GENERATION'],
    [{ DATABASE_URL: 'postgres://x/y', ALERT_SENDER: 'yes' }, 'ALERT_SENDER'],
    [{ DATABASE_URL: 'postgres://x/y', INTERNAL_TOKEN: 'short' }, 'INTERNAL_TOKEN'],
    [{}, 'DATABASE_URL'],
  ])('refuses to boot on %o, naming %s', (raw, variable) => {
    expect(() => validateWorkerEnvironment(raw)).toThrow(new RegExp(`Invalid configuration: .*${variable}`));
  });
});
