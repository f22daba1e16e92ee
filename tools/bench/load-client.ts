import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface, Interface } from 'node:readline';
import { REPO_ROOT } from '../common/files';
import type { LoadResult, LoadScenario, WalkResult, WalkScenario } from './load-generator';

/**
 * The driver's handle on the load generator: one child process for the whole run, started once so
 * that a rebuild of dist/ during a long run cannot take its script away between rows.
 */
export class LoadGenerator {
  private readonly pending: ((line: string) => void)[] = [];
  private exited: Error | undefined;

  private constructor(
    private readonly child: ChildProcess,
    lines: Interface,
  ) {
    lines.on('line', (line) => this.pending.shift()?.(line));
    child.once('exit', (code, signal) => {
      this.exited = new Error(`the load generator exited (${signal ?? code})`);
      for (const waiter of this.pending.splice(0))
        waiter(JSON.stringify({ kind: 'error', error: this.exited.message }));
    });
  }

  static start(): LoadGenerator {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'dist/tools/bench/load-generator.js')], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    return new LoadGenerator(child, createInterface({ input: child.stdout! }));
  }

  get pid(): number {
    return this.child.pid!;
  }

  run(scenario: LoadScenario): Promise<LoadResult>;
  run(scenario: WalkScenario): Promise<WalkResult>;
  async run(scenario: LoadScenario | WalkScenario): Promise<LoadResult | WalkResult> {
    if (this.exited) throw this.exited;
    const line = await new Promise<string>((resolve) => {
      this.pending.push(resolve);
      this.child.stdin!.write(`${JSON.stringify(scenario)}\n`);
    });
    const result = JSON.parse(line) as LoadResult | WalkResult | { kind: 'error'; error: string };
    if (result.kind === 'error') throw new Error(`load generator: ${result.error}`);
    return result;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.stdin!.end();
    await exited;
  }
}
