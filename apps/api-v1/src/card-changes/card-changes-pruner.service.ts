import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DataVersionSource } from '@tcg/domain';
import { pruneCardChanges } from '@tcg/persistence';
import { BACKGROUND_POOL, DATA_VERSION } from '@tcg/persistence/nest';
import type { Pool } from 'pg';
import { SettledJob } from '../common/settled-job';

/**
 * How long the log keeps a version's cards. A service reads them within milliseconds of the
 * version's notification; one cut off from the database for longer finds the prune's mark when it
 * comes back and empties its cache (`pruneCardChangesStatement`).
 */
export const CARD_CHANGES_KEPT_MS = 10 * 60_000;
const PRUNE_EVERY_MS = 5 * 60_000;
const STOP_WAIT_MS = 5_000;

/**
 * Prunes `card_changes`, the log by which the services carry cached answers across versions
 * (CardChanges migration): every five minutes, the versions this worker saw at least
 * `CARD_CHANGES_KEPT_MS` ago. Every worker instance may prune: the statement is the same for all.
 */
@Injectable()
export class CardChangesPruner implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('CardChanges');
  /** The versions current at this job's runs, oldest first, until they are old enough to prune below. */
  private readonly seen: { at: number; version: number }[] = [];
  private readonly job: SettledJob;

  constructor(
    @Inject(DATA_VERSION) private readonly versions: DataVersionSource,
    @Inject(BACKGROUND_POOL) private readonly pool: Pool,
  ) {
    this.job = new SettledJob({
      versions,
      settleMs: PRUNE_EVERY_MS,
      settleFrom: 'first',
      everyMs: PRUNE_EVERY_MS,
      stopWaitMs: STOP_WAIT_MS,
      run: () => this.prune(Date.now()),
      onError: (error) =>
        this.logger.warn({ msg: 'card change log prune failed', error: (error as Error).message }),
    });
  }

  onApplicationBootstrap(): void {
    this.job.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.job.stop();
  }

  /** One run at `now`: prunes up to the newest version seen `CARD_CHANGES_KEPT_MS` or more before. */
  async prune(now: number): Promise<void> {
    const version = this.versions.current();
    if (version !== null) this.seen.push({ at: now, version });
    let upTo: number | undefined;
    while (this.seen.length > 0 && now - this.seen[0]!.at >= CARD_CHANGES_KEPT_MS)
      upTo = this.seen.shift()!.version;
    if (upTo === undefined) return;
    const rows = await pruneCardChanges(this.pool, upTo);
    if (rows > 0) this.logger.log({ msg: 'card change log pruned', rows, upTo });
  }
}
