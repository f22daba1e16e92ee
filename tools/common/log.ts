/** Structured logs for the command-line tools: one JSON object per line on stderr. */
export type Level = 'info' | 'warn' | 'error';

/** Ends a line a progress bar left open on the terminal, if any (set by `progress`). */
let endOpenLine: (() => void) | undefined;

/** What `log` calls first, so that its line starts on a line of its own; undefined to clear. */
export function onNextLog(end: (() => void) | undefined): void {
  endOpenLine = end;
}

export function log(level: Level, msg: string, fields: Record<string, unknown> = {}): void {
  endOpenLine?.();
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields })}\n`);
}

/** Parses `--name value` and `--flag` arguments. */
export function parseArgs(argv: readonly string[]): {
  positional: string[];
  options: Map<string, string | true>;
} {
  const positional: string[] = [];
  const options = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
    const next = argv[i + 1];
    if (inline !== undefined) options.set(name, inline);
    else if (next !== undefined && !next.startsWith('--')) options.set(name, argv[++i]!);
    else options.set(name, true);
  }
  return { positional, options };
}

/**
 * A command-line tool's entry point: exits with the code `main` returns, or logs
 * `<name> failed` and exits with `failureCode` when it throws.
 */
export function runTool(name: string, main: () => Promise<number>, failureCode = 2): void {
  main().then(
    (code) => exitFlushed(code),
    (error: unknown) => {
      log('error', `${name} failed`, { error: (error as Error).message, stack: (error as Error).stack });
      exitFlushed(failureCode);
    },
  );
}

/**
 * Exits once what was written to stdout and stderr has gone out. Into a pipe whose reader lags
 * (a log collector, a parent process), a write that finds the pipe full is queued, and exiting at
 * once dropped it: a feed sync's last 100 KB of lines, its "done" line among them, were lost.
 * A write's callback runs after every write queued before it.
 */
export function exitFlushed(code: number): void {
  let pending = 2;
  // A stream that can no longer be written (its reader gone) must not keep the process alive.
  const deadline = setTimeout(() => process.exit(code), 10_000).unref();
  const done = () => {
    if (--pending > 0) return;
    clearTimeout(deadline);
    process.exit(code);
  };
  process.stdout.write('', done);
  process.stderr.write('', done);
}
