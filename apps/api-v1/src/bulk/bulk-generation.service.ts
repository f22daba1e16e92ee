import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DataVersionSource } from '@tcg/domain';
import {
  archiveDay,
  dropExpiredArchives,
  dropUnfinishedSnapshots,
  gamesDueHistory,
  generateGameHistory,
  pruneSeriesChanges,
  generateGameSnapshots,
  gamesToSnapshot,
  GenerationSuperseded,
  hasArchive,
  readConnection,
  withBulkLock,
  type Connection,
  type ReadSource,
} from '@tcg/persistence';
import { BACKGROUND_POOL, DATA_VERSION, READS } from '@tcg/persistence/nest';
import type { Pool } from 'pg';
import { SettledJob } from '../common/settled-job';
import { Environment } from '../config/environment';

/**
 * How often an instance looks for due snapshots without being told of a new version: the daily
 * regeneration, and the work of an instance that held the lock and died.
 */
const CHECK_EVERY_MS = 60_000;
/** Shutdown waits this long for a generation to delete what it wrote before closing its connection anyway. */
const STOP_WAIT_MS = 5_000;

/**
 * Keeps the bulk snapshots fresh, in the background of every api-v1 instance: once the data
 * version has not moved for `BULK_SETTLE_MS` (an import or a load has committed its last batch
 * and its summaries), and every minute for snapshots older than `BULK_MAX_AGE_HOURS`, it writes
 * the games whose snapshots are behind. One instance works at a time (a PostgreSQL advisory
 * lock, tried, never waited for); it writes on one connection of the background pool
 * (BACKGROUND_POOL), outside the requests' one, reads the catalogue in small pages (READS: a
 * replica where one is configured) with the event loop free between them, and holds no
 * transaction while it writes, so neither requests nor vacuum wait for it. A generation under way
 * at shutdown is aborted and deletes what it wrote; one killed leaves rows nobody reads, deleted by
 * the next run.
 */
@Injectable()
export class BulkGenerationService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('BulkGeneration');
  private readonly enabled: boolean;
  private readonly maxAgeSeconds: number;
  private readonly archiveDays: number;
  /** BULK_REST_RATIO: rest after each page, times the page's time (docs/bulk-data.md). */
  private readonly restRatio: number;
  private readonly job: SettledJob;
  /** Where the catalogue is read: a replica where DATABASE_READ_URLS names one, else the primary. */
  private readonly reads: Connection;

  constructor(
    env: Environment,
    @Inject(DATA_VERSION) versions: DataVersionSource,
    @Inject(BACKGROUND_POOL) private readonly pool: Pool,
    @Inject(READS) reads: ReadSource,
  ) {
    this.reads = readConnection(reads);
    this.enabled = env.BULK_GENERATION === 'on';
    this.maxAgeSeconds = env.BULK_MAX_AGE_HOURS * 3600;
    this.archiveDays = env.BULK_ARCHIVE_DAYS;
    this.restRatio = env.BULK_REST_RATIO;
    // Each new version pushes the generation back: it waits for the last batch of an import.
    this.job = new SettledJob({
      versions,
      settleMs: env.BULK_SETTLE_MS,
      settleFrom: 'last',
      everyMs: CHECK_EVERY_MS,
      stopWaitMs: STOP_WAIT_MS,
      run: (signal) => this.generateDue(signal),
      onError: (error) =>
        this.logger.warn({ msg: 'bulk generation failed', error: (error as Error).message }),
    });
  }

  onApplicationBootstrap(): void {
    if (this.enabled) this.job.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.job.stop();
  }

  /**
   * One game's file(s), logged; a failure is logged and the next game goes on (a game that keeps
   * failing must not hold the others' files back). An abort (shutdown) stops the loop.
   */
  private async each(
    signal: AbortSignal,
    game: string,
    what: string,
    work: () => Promise<Record<string, unknown>>,
  ): Promise<void> {
    const started = Date.now();
    try {
      this.logger.log({ msg: `${what} written`, game, ...(await work()), ms: Date.now() - started });
    } catch (error) {
      if (signal.aborted) throw error;
      if (error instanceof GenerationSuperseded)
        // The new version makes the game due again: the next run writes it.
        this.logger.log({ msg: `${what} superseded`, game, readAt: error.readAt, nowAt: error.nowAt });
      else this.logger.warn({ msg: `${what} failed`, game, error: (error as Error).message });
    }
  }

  private async generateDue(signal: AbortSignal): Promise<void> {
    const client = await this.pool.connect();
    try {
      await withBulkLock(client, false, async () => {
        // What a generation killed half-way left: no other one is under way while the lock is held.
        const unfinished = await dropUnfinishedSnapshots(client);
        if (unfinished > 0) this.logger.log({ msg: 'bulk files left unfinished deleted', files: unfinished });
        // A new UTC day's first generation of a game is that day's archive (kept BULK_ARCHIVE_DAYS).
        const day = await archiveDay(client);
        for (const game of await gamesToSnapshot(client, this.maxAgeSeconds, day))
          await this.each(signal, game, 'bulk snapshot', async () => {
            const archive = (await hasArchive(client, game, day))
              ? undefined
              : { date: day, keepDays: this.archiveDays };
            const result = await generateGameSnapshots(client, game, {
              reads: this.reads,
              signal,
              restRatio: this.restRatio,
              archive,
            });
            return {
              dataVersion: result.dataVersion,
              rows: result.rows,
              ndjsonBytes: result.files['ndjson.gz'].bytes,
              csvBytes: result.files['csv.gz'].bytes,
              archive: archive?.date ?? null,
            };
          });
        // Daily, after the snapshots: minutes per game at full, so not at every data version.
        for (const game of await gamesDueHistory(client, this.maxAgeSeconds))
          await this.each(signal, game, 'bulk history', async () => {
            const result = await generateGameHistory(client, game, {
              reads: this.reads,
              signal,
              restRatio: this.restRatio,
            });
            return {
              dataVersion: result.dataVersion,
              lines: result.lines,
              bytes: result.file.bytes,
              builtOn: result.builtOn,
              ...result.series,
            };
          });
        // What the history files are built on: the log of price_series' writes they are past.
        const pruned = await pruneSeriesChanges(client);
        if (pruned > 0) this.logger.log({ msg: 'series change log pruned', rows: pruned });
        const dropped = await dropExpiredArchives(client, day, this.archiveDays);
        if (dropped > 0) this.logger.log({ msg: 'bulk archives expired', files: dropped });
      });
    } finally {
      // Closed, not returned: a session lock whose unlock failed, or a statement an abort left
      // running, ends with the connection instead of passing to the next user of the pool.
      client.release(true);
    }
  }
}
