import { validateEnvironment } from './environment';

describe('api-v1 configuration', () => {
  it('applies defaults and converts numbers', () => {
    const env = validateEnvironment({
      DATABASE_URL: 'postgres://x/y',
      INTERNAL_TOKEN: 'x'.repeat(32),
      DATABASE_POOL_SIZE: '7',
    });
    expect(env).toMatchObject({ PORT: 8081, HOST: '127.0.0.1', DATABASE_POOL_SIZE: 7, LOG_LEVEL: 'log' });
    expect(env.BULK_REST_RATIO).toBe(2);
  });

  it.each([
    ['0', 0],
    ['2.5', 2.5],
    ['100', 100],
  ])('takes BULK_REST_RATIO=%s', (value, ratio) => {
    const env = validateEnvironment({
      DATABASE_URL: 'postgres://x/y',
      INTERNAL_TOKEN: 'x'.repeat(32),
      BULK_REST_RATIO: value,
    });
    expect(env.BULK_REST_RATIO).toBe(ratio);
  });

  it.each([
    [{ INTERNAL_TOKEN: 'x'.repeat(32) }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'postgres://x/y' }, 'INTERNAL_TOKEN'],
    [{ DATABASE_URL: 'postgres://x/y', INTERNAL_TOKEN: 'short' }, 'INTERNAL_TOKEN'],
    [{ DATABASE_URL: 'postgres://x/y', PORT: 'eighty' }, 'PORT'],
    [{ DATABASE_URL: 'postgres://x/y', PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'postgres://x/y', LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ DATABASE_URL: 'postgres://x/y', BULK_REST_RATIO: '-1' }, 'BULK_REST_RATIO'],
    [{ DATABASE_URL: 'postgres://x/y', BULK_REST_RATIO: '101' }, 'BULK_REST_RATIO'],
    [{ DATABASE_URL: 'postgres://x/y', BULK_REST_RATIO: 'lots' }, 'BULK_REST_RATIO'],
  ])('refuses to boot on %o, naming %s', (raw, variable) => {
    expect(() => validateEnvironment(raw)).toThrow(new RegExp(`Invalid configuration: .*${variable}`));
  });
});
