import {
  analyzeDatabase,
  countCards,
  IngestSeries,
  PriceIngestRepository,
  recordSampleLoadCompleted,
  recordSampleLoadStarted,
  refreshSummaries,
  removeCatalogue,
  renderMissingDocuments,
  sampleLoadState,
  SampleLoadState,
  withSampleLoadLock,
  writeCatalogue,
} from '@tcg/persistence';
import { DataSource } from 'typeorm';
import { log } from '../common/log';
import { progress, Progress } from '../common/progress';
import { buildCatalogue, CatalogueSize } from './catalogue';
import { simulateSeries } from './prices';

export interface LoadProgress {
  readonly variantsDone: number;
  readonly variantsTotal: number;
  readonly observations: number;
  readonly seconds: number;
}

export interface LoadReport {
  readonly size: CatalogueSize;
  readonly games: number;
  readonly sets: number;
  readonly cards: number;
  readonly rawVariants: number;
  readonly gradedVariants: number;
  readonly pricedVariants: number;
  readonly observations: number;
  readonly catalogueSeconds: number;
  readonly pricesSeconds: number;
}

export interface LoadOptions {
  readonly asOf: number;
  readonly batchVariants?: number;
  readonly onProgress?: (p: LoadProgress) => void;
}

/**
 * Loads the real catalogue of the given size and its simulated NA price history. Prices go through
 * PriceIngestRepository — the importer's own path — a batch of whole series per transaction; the
 * next batch is simulated while PostgreSQL writes the previous one.
 *
 * The load is recorded as started before it writes anything and as complete after its last batch
 * and the summary refresh, so a load killed at any point is known to be partial (see
 * `ensureSampleLoaded`). Callers hold the sample-load lock.
 */
export async function loadSample(
  ds: DataSource,
  size: CatalogueSize,
  opts: LoadOptions,
): Promise<LoadReport> {
  const started = Date.now();
  await recordSampleLoadStarted(ds, size);
  const catalogue = buildCatalogue(size);
  // Documents are rendered with the prices, and for the cards left unpriced at the end.
  await writeCatalogue(ds, catalogue, { documents: false });
  const catalogueSeconds = (Date.now() - started) / 1000;

  const repo = new PriceIngestRepository(ds);
  const cardByUuid = new Map(catalogue.cards.map((c) => [c.uuid, c]));
  const releaseOfSet = new Map(catalogue.sets.map((s) => [s.id, s.releaseDate]));
  const batchSize = opts.batchVariants ?? 500;
  const pricesStarted = Date.now();
  let observations = 0;
  let priced = 0;
  // Two batches in flight: Node merges and encodes one while PostgreSQL writes the other (the
  // batches hold disjoint series, so their locks never meet).
  const inFlight = new Set<Promise<void>>();
  let failure: unknown;
  for (let i = 0; i < catalogue.variants.length; i += batchSize) {
    const batch: IngestSeries[] = [];
    for (const variant of catalogue.variants.slice(i, i + batchSize)) {
      const card = cardByUuid.get(variant.cardUuid)!;
      const series = simulateSeries(
        { variant, card, setReleaseDate: releaseOfSet.get(card.setId) ?? null },
        opts.asOf,
      );
      if (!series || series.t.length === 0) continue;
      batch.push({ variantUuid: variant.uuid, region: 'NA', source: 'simulated', t: series.t, p: series.p });
      observations += series.t.length;
      priced++;
    }
    if (inFlight.size >= 2) await Promise.race(inFlight).catch(() => undefined);
    if (failure) break;
    const progress = { variantsDone: Math.min(i + batchSize, catalogue.variants.length), observations };
    const write: Promise<void> = repo.ingestSeries(batch, { expectNew: true }).then(
      () => {
        inFlight.delete(write);
        opts.onProgress?.({
          variantsDone: progress.variantsDone,
          variantsTotal: catalogue.variants.length,
          observations: progress.observations,
          seconds: (Date.now() - started) / 1000,
        });
      },
      (error: unknown) => {
        inFlight.delete(write);
        failure ??= error;
      },
    );
    inFlight.add(write);
  }
  await Promise.all(inFlight);
  if (failure) throw failure;
  await renderMissingDocuments(ds);
  // Fresh planner statistics: before this, a bulk-loaded catalogue looks empty to the planner,
  // which then scans where it should probe an index (the summaries' refresh too: at `full` it
  // took 32 s before the ANALYZE, about 20 s after).
  await analyzeDatabase(ds);
  await refreshSummaries(ds);
  await recordSampleLoadCompleted(ds);
  return {
    size,
    games: catalogue.games.length,
    sets: catalogue.sets.length,
    cards: catalogue.cards.length,
    rawVariants: catalogue.variants.filter((v) => v.type === 'raw').length,
    gradedVariants: catalogue.variants.filter((v) => v.type === 'graded').length,
    pricedVariants: priced,
    observations,
    catalogueSeconds,
    pricesSeconds: (Date.now() - pricesStarted) / 1000,
  };
}

/**
 * The first-start load: loads the sample when the database has no catalogue, and when an earlier
 * load was interrupted (killed, or failed) empties the partial catalogue and loads it again — a
 * restart rather than a resume, since a resumed load would have to prove every earlier batch
 * complete, and a small or medium load takes seconds to a minute. A catalogue that was not
 * written by a sample load (imported, or loaded before loads were recorded) is left alone.
 * Returns the report of the load it ran, if any.
 */
export async function ensureSampleLoaded(
  ds: DataSource,
  size: CatalogueSize,
  opts: LoadOptions,
): Promise<LoadReport | undefined> {
  return withSampleLoadLock(ds, async () => {
    const state = await sampleLoadState(ds);
    if (await removeIfInterrupted(ds, size, state)) return loadSample(ds, size, opts);
    if (state.kind === 'complete') return undefined;
    if ((await countCards(ds)) > 0) return undefined;
    log('info', 'empty database: loading the sample catalogue (first start only)', { size });
    return loadSample(ds, size, opts);
  });
}

/**
 * Empties a catalogue that an interrupted sample load left partial; returns whether it did.
 * Call holding the sample-load lock.
 */
export async function removeInterruptedLoad(ds: DataSource, size: CatalogueSize): Promise<boolean> {
  return removeIfInterrupted(ds, size, await sampleLoadState(ds));
}

export async function removeIfInterrupted(
  ds: DataSource,
  size: CatalogueSize,
  state: SampleLoadState,
): Promise<boolean> {
  if (state.kind !== 'interrupted') return false;
  log('warn', 'the previous sample load was interrupted: removing the partial catalogue and loading again', {
    size,
    interruptedSize: state.size,
    startedAt: state.startedAt,
  });
  await removeCatalogue(ds);
  return true;
}

/**
 * A load's progress reporter (`npm run load`, `npm start`, the bench): a bar on a terminal, one
 * structured line per batch otherwise.
 */
export function loadProgressReporter(): (p: LoadProgress) => void {
  let bar: Progress | undefined;
  const startedAt = Date.now();
  return (p) => {
    // Made at the first batch, which brings the total.
    bar ??= progress({
      startedAt,
      msg: 'load progress',
      label: 'loading the sample',
      total: p.variantsTotal,
      unit: 'variants',
    });
    bar.update(p.variantsDone, { ...p });
  };
}

/** The simulation's "now": the start of the current UTC hour, so a reload within the hour is identical. */
export function currentHour(): number {
  return Math.floor(Date.now() / 3_600_000) * 3600;
}
