import { Writable } from 'node:stream';
import { createPinoLogger, type LogFormat, ServiceLogger, type ServiceLogLevel } from './logger';

/** What a ServiceLogger at `level` writes for `emit`, line by line. */
function written(level: ServiceLogLevel, emit: (logger: ServiceLogger) => void, format: LogFormat = 'json') {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  emit(new ServiceLogger(createPinoLogger('api-test', level, format, format === 'json' ? sink : undefined)));
  return lines;
}

describe('ServiceLogger over pino', () => {
  const startUp = (logger: ServiceLogger) => {
    logger.log('Mapped {/v1/cards, GET} route', 'RouterExplorer');
    logger.log('AppModule dependencies initialized', 'InstanceLoader');
    logger.log({ msg: 'listening', port: 8081 }, 'Bootstrap');
  };

  it('prints the framework’s start-up chatter at debug only, the service’s own lines at info', () => {
    expect(written('log', startUp).map((l) => JSON.parse(l) as unknown)).toEqual([
      expect.objectContaining({
        level: 'info',
        service: 'api-test',
        context: 'Bootstrap',
        msg: 'listening',
        port: 8081,
        time: expect.any(String),
      }),
    ]);
    expect(written('debug', startUp).map((l) => JSON.parse(l) as unknown)).toEqual([
      expect.objectContaining({
        level: 'debug',
        context: 'RouterExplorer',
        msg: 'Mapped {/v1/cards, GET} route',
      }),
      expect.objectContaining({ level: 'debug', context: 'InstanceLoader' }),
      expect.objectContaining({ level: 'info', context: 'Bootstrap' }),
    ]);
  });

  it.each([
    ['error', ['error']],
    ['warn', ['error', 'warn']],
    ['log', ['error', 'warn', 'info']],
    ['verbose', ['error', 'warn', 'info', 'debug', 'trace']],
  ] as const)('at LOG_LEVEL %s prints %j', (level, levels) => {
    const lines = written(level, (logger) => {
      logger.error('e', 'Ctx');
      logger.warn('w', 'Ctx');
      logger.log('l', 'Ctx');
      logger.debug('d', 'Ctx');
      logger.verbose('v', 'Ctx');
    });
    expect(lines.map((l) => (JSON.parse(l) as { level: string }).level)).toEqual(levels);
  });

  it('keeps an error’s stack, from Nest’s (message, stack, context) form and from an Error', () => {
    const [fromNest, fromError] = written('log', (logger) => {
      logger.error('boom', 'Error: boom\n    at x', 'ExceptionsHandler');
      logger.error(new Error('bang'));
    }).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(fromNest).toMatchObject({
      msg: 'boom',
      stack: 'Error: boom\n    at x',
      context: 'ExceptionsHandler',
    });
    expect(fromError).toMatchObject({ msg: 'bang', stack: expect.stringContaining('Error: bang') });
  });

  it('redacts the key and the internal credential should headers ever be logged', () => {
    const [line] = written('log', (logger) =>
      logger.log({
        msg: 'headers',
        headers: { 'x-api-key': 'secret-key', 'x-tcg-internal-credential': 'cred' },
      }),
    );
    expect(line).not.toContain('secret-key');
    expect(line).not.toContain('cred"');
    expect(JSON.parse(line!)).toMatchObject({ headers: { 'x-api-key': '[redacted]' } });
  });
});
