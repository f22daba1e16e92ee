import { IsString } from 'class-validator';
import {
  BaseEnvironment,
  readEnvironment,
  readReplicaUrls,
  readServiceEnvironment,
  ServiceEnvironment,
} from './environment';

/** A service's Environment as api-v1 and api-v2 write theirs: the shared fields and one of its own. */
class TestServiceEnvironment extends ServiceEnvironment {
  override PORT = 8081;
  override METRICS_PORT = 9081;

  @IsString()
  OWN!: string;
}

/** The gateway's shape: the base fields and its own. */
class TestGatewayEnvironment extends BaseEnvironment {
  override PORT = 8080;
  override METRICS_PORT = 9080;

  @IsString()
  OWN!: string;
}

/** An app that forgot its ports' defaults. */
class NoPortsEnvironment extends BaseEnvironment {}

const REQUIRED = { DATABASE_URL: 'postgres://x/y', INTERNAL_TOKEN: 'x'.repeat(32), OWN: 'own' };

describe('ServiceEnvironment, extended', () => {
  // Moved from api-v2's environment.spec.ts with the fields it tests.
  it('bounds every wait by default', () => {
    expect(readServiceEnvironment(TestServiceEnvironment, REQUIRED)).toMatchObject({
      DATABASE_CONNECT_TIMEOUT_MS: 2_000,
      DATABASE_STATEMENT_TIMEOUT_MS: 5_000,
      DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: 10_000,
      SERVER_KEEP_ALIVE_TIMEOUT_MS: 30_000,
      SERVER_HEADERS_TIMEOUT_MS: 10_000,
      SERVER_REQUEST_TIMEOUT_MS: 30_000,
    });
  });

  it("gives the subclass the base classes' defaults and conversions, and its own fields", () => {
    const env = readServiceEnvironment(TestServiceEnvironment, { ...REQUIRED, DATABASE_POOL_SIZE: '7' });
    expect(env).toBeInstanceOf(TestServiceEnvironment);
    expect(env).toMatchObject({ OWN: 'own', HOST: '127.0.0.1', DATABASE_POOL_SIZE: 7, LOG_LEVEL: 'log' });
  });

  it("takes the subclass's port defaults, converts and bounds the ports", () => {
    expect(readServiceEnvironment(TestServiceEnvironment, REQUIRED)).toMatchObject({
      PORT: 8081,
      METRICS_PORT: 9081,
    });
    expect(
      readServiceEnvironment(TestServiceEnvironment, { ...REQUIRED, PORT: '3000', METRICS_PORT: '0' }),
    ).toMatchObject({ PORT: 3000, METRICS_PORT: 0 });
  });

  it.each([
    [{ DATABASE_STATEMENT_TIMEOUT_MS: '0' }, 'DATABASE_STATEMENT_TIMEOUT_MS'],
    [{ DATABASE_CONNECT_TIMEOUT_MS: 'soon' }, 'DATABASE_CONNECT_TIMEOUT_MS'],
    [{ SERVER_HEADERS_TIMEOUT_MS: '20000', SERVER_REQUEST_TIMEOUT_MS: '10000' }, 'SERVER_HEADERS_TIMEOUT_MS'],
    [{ DATABASE_URL: undefined }, 'DATABASE_URL'],
    [{ INTERNAL_TOKEN: 'short' }, 'INTERNAL_TOKEN'],
    [{ DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: '999' }, 'DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS'],
    [{ DATABASE_POOL_SIZE: '201' }, 'DATABASE_POOL_SIZE'],
    [{ SERVER_KEEP_ALIVE_TIMEOUT_MS: '999' }, 'SERVER_KEEP_ALIVE_TIMEOUT_MS'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ OWN: undefined }, 'OWN'],
    [{ PORT: '0' }, 'PORT'],
    [{ PORT: 'eighty' }, 'PORT'],
    [{ METRICS_PORT: '65536' }, 'METRICS_PORT'],
    [{ DATABASE_READ_URLS: 'replica-1:5432' }, 'DATABASE_READ_URLS: entry 1 is not a postgres:// URL'],
    [{ DATABASE_READ_URLS: 'postgres://a/db,mysql://b/db' }, 'DATABASE_READ_URLS: entry 2'],
    [{ DATABASE_READ_URLS: Array(17).fill('postgres://r/db').join(',') }, 'DATABASE_READ_URLS: at most 16'],
    [{ DATABASE_READ_URLS: 'postgres://r/' + 'd'.repeat(17_000) }, 'DATABASE_READ_URLS: longer than'],
  ])('refuses to boot on %o, naming %s', (raw, variable) => {
    expect(() => readServiceEnvironment(TestServiceEnvironment, { ...REQUIRED, ...raw })).toThrow(
      new RegExp(`Invalid configuration: .*${variable}`),
    );
  });

  it.each([
    [undefined, []],
    ['', []],
    [' postgres://a:5432/tcg , postgresql://b/tcg,', ['postgres://a:5432/tcg', 'postgresql://b/tcg']],
  ])('reads DATABASE_READ_URLS %p as the replicas %p', (raw, urls) => {
    const env = readServiceEnvironment(TestServiceEnvironment, { ...REQUIRED, DATABASE_READ_URLS: raw });
    expect(readReplicaUrls(env.DATABASE_READ_URLS)).toEqual(urls);
  });
});

describe('BaseEnvironment, extended', () => {
  it('validates the base fields of the subclass', () => {
    expect(readEnvironment(TestGatewayEnvironment, REQUIRED)).toMatchObject({
      DATABASE_STATEMENT_TIMEOUT_MS: 5_000,
      LOG_LEVEL: 'log',
    });
    for (const [variable, value] of [
      ['DATABASE_STATEMENT_TIMEOUT_MS', '600001'],
      ['INTERNAL_TOKEN', 'short'],
      ['DATABASE_URL', undefined],
    ] as const) {
      expect(() => readEnvironment(TestGatewayEnvironment, { ...REQUIRED, [variable]: value })).toThrow(
        new RegExp(`Invalid configuration: .*${variable}`),
      );
    }
  });

  it('refuses to boot when the app declares no port defaults, naming them', () => {
    expect(() => readEnvironment(NoPortsEnvironment, REQUIRED)).toThrow(
      /Invalid configuration: PORT: .*; METRICS_PORT: /,
    );
  });
});
