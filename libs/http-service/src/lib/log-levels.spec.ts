import { logLevelsUpTo, ServiceLogger } from './log-levels';

describe('logLevelsUpTo', () => {
  it.each([
    ['error', ['fatal', 'error']],
    ['warn', ['fatal', 'error', 'warn']],
    ['log', ['fatal', 'error', 'warn', 'log']],
    ['verbose', ['fatal', 'error', 'warn', 'log', 'debug', 'verbose']],
  ] as const)('%s prints %j', (level, levels) => {
    expect(logLevelsUpTo(level)).toEqual(levels);
  });
});

describe('ServiceLogger', () => {
  const written = (level: 'log' | 'debug', emit: (logger: ServiceLogger) => void): unknown[] => {
    const lines: string[] = [];
    const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      const logger = new ServiceLogger('api-test', level);
      emit(logger);
    } finally {
      spy.mockRestore();
    }
    return lines.map((l) => JSON.parse(l) as unknown);
  };

  it('prints the framework’s start-up chatter at debug level only, and the service’s own lines at log', () => {
    const emit = (logger: ServiceLogger) => {
      logger.log('Mapped {/v1/cards, GET} route', 'RouterExplorer');
      logger.log('AppModule dependencies initialized', 'InstanceLoader');
      logger.log({ msg: 'listening', port: 8081 }, 'Bootstrap');
    };
    expect(written('log', emit)).toEqual([
      expect.objectContaining({
        level: 'log',
        context: 'Bootstrap',
        message: { msg: 'listening', port: 8081 },
      }),
    ]);
    expect(written('debug', emit)).toEqual([
      expect.objectContaining({
        level: 'debug',
        context: 'RouterExplorer',
        message: 'Mapped {/v1/cards, GET} route',
      }),
      expect.objectContaining({ level: 'debug', context: 'InstanceLoader' }),
      expect.objectContaining({ level: 'log', context: 'Bootstrap' }),
    ]);
  });
});
