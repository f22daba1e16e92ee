import { exitFlushed } from './log';

describe('exitFlushed', () => {
  afterEach(() => jest.restoreAllMocks());

  it('exits only once stdout and stderr have written what was queued before', () => {
    const exit = jest.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    const flushed: (() => void)[] = [];
    const hold = ((_chunk: unknown, callback?: () => void) => {
      if (callback) flushed.push(callback);
      return false;
    }) as typeof process.stderr.write;
    jest.spyOn(process.stdout, 'write').mockImplementation(hold);
    jest.spyOn(process.stderr, 'write').mockImplementation(hold);

    exitFlushed(3);
    expect(exit).not.toHaveBeenCalled(); // a full pipe still holds the last lines
    flushed[0]!();
    expect(exit).not.toHaveBeenCalled();
    flushed[1]!();
    expect(exit).toHaveBeenCalledWith(3);
  });
});
