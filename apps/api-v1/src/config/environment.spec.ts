import { validateEnvironment } from './environment';

describe('api-v1 configuration', () => {
  it('applies defaults and converts numbers', () => {
    const env = validateEnvironment({
      DATABASE_URL: 'postgres://x/y',
      INTERNAL_TOKEN: 'x'.repeat(32),
      DATABASE_POOL_SIZE: '7',
    });
    expect(env).toMatchObject({ PORT: 8081, HOST: '127.0.0.1', DATABASE_POOL_SIZE: 7, LOG_LEVEL: 'log' });
  });

  it.each([
    [{ INTERNAL_TOKEN: 'x'.repeat(32) }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'postgres://x/y' }, 'INTERNAL_TOKEN'],
    [{ DATABASE_URL: 'postgres://x/y', INTERNAL_TOKEN: 'short' }, 'INTERNAL_TOKEN'],
    [{ DATABASE_URL: 'postgres://x/y', PORT: 'eighty' }, 'PORT'],
    [{ DATABASE_URL: 'postgres://x/y', PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'postgres://x/y', LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
  ])('refuses to boot on %o, naming %s', (raw, variable) => {
    expect(() => validateEnvironment(raw)).toThrow(new RegExp(`Invalid configuration: .*${variable}`));
  });
});
