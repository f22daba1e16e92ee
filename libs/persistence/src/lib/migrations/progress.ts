/** A migration's progress line for one batch, structured like the tools' log lines. */
export function logMigrationProgress(msg: string, done: number, total: number, startedMs: number): void {
  process.stdout.write(
    `${JSON.stringify({
      time: new Date().toISOString(),
      level: 'info',
      msg,
      done,
      total,
      percent: Math.floor((100 * done) / total),
      seconds: (Date.now() - startedMs) / 1000,
    })}\n`,
  );
}
