/**
 * Runs a main's `boot`; a failure to boot is one fatal JSON line on stderr naming `service`, and
 * exit 1 (what an orchestrator and `npm start` read).
 */
export function bootOrExit(service: string, boot: () => Promise<void>): void {
  boot().catch((error: unknown) => {
    process.stderr.write(`${JSON.stringify({ level: 'fatal', service, msg: String(error) })}\n`);
    process.exit(1);
  });
}
