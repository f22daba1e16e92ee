import { logLevelsUpTo } from './log-levels';

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
