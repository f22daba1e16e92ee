/**
 * Runs a main's `boot`; a failure to boot is one fatal JSON line on stderr naming `service`, and
 * exit 1 (what an orchestrator and `npm start` read).
 */
export function bootOrExit(service: string, boot: () => Promise<void>): void {
  stopWithParent();
  boot().catch((error: unknown) => {
    process.stderr.write(`${JSON.stringify({ level: 'fatal', service, msg: String(error) })}\n`);
    process.exit(1);
  });
}

/**
 * A process spawned with an IPC channel (`npm start` spawns its services so) stops as on SIGTERM
 * once the channel closes: its parent is gone, by `kill -9` too, and nothing else would stop it
 * (it would keep its ports, and the next `npm start` would find them taken). The channel does not
 * keep the process alive; without one (an orchestrator's process, a test's) this does nothing.
 */
export function stopWithParent(): void {
  if (!process.channel) return;
  process.channel.unref();
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}
