import { FeedCatalogueRepository, writeCatalogue, type AssertedIds } from '@tcg/persistence';
import { AssertedIdsOfRun } from '../asserted-ids';
import { createHash } from 'node:crypto';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { DataSource } from 'typeorm';
import { writeFileAtomically } from '../../common/files';
import { log } from '../../common/log';
import { readBoundedJsonFile } from '../bounded-json';
import { utcDayStart } from '../json-stream';
import { CatalogueIds } from '../catalogue-ids';
import { DEFAULT_POLITENESS, PoliteClient, type Politeness } from '../polite-client';
import { writeFeedSeries } from '../feed-series';
import {
  messageOf,
  refusedRun,
  type Applied,
  type Feed,
  type FeedOptions,
  type FeedRun,
  type Paced,
} from '../feed';
import type { RunCounts } from '../run-counts';
import { archiveDayOf, extractArchive, listArchive, type ArchiveLimits } from './tcgcsv-archive';
import { TcgcsvCatalogue, type GroupWrite } from './tcgcsv-catalogue';
import {
  readCategories,
  readGroups,
  readPrices,
  readProducts,
  type TcgcsvCategory,
  type TcgcsvGroup,
  type TcgcsvPrice,
  type TcgcsvProduct,
  type Rows,
} from './tcgcsv-documents';
import {
  derivedGame,
  excludedWhy,
  findCategory,
  gameOf,
  knownGame,
  type TcgcsvGameConfig,
  type TcgcsvGames,
} from './tcgcsv-games';

export const DEFAULT_TCGCSV_BASE_URL = 'https://tcgcsv.com';

/** The largest document the sync reads: a group's products with their extended data are a few MB. */
const MAX_DOCUMENT_BYTES = 32 << 20;
/** Before TCGCSV's first archived day (2024-02-08) there is nothing to back-fill; before 1993 nothing at all. */
const EARLIEST_DAY = '1993-01-01';

export interface TcgcsvOptions extends FeedOptions {
  /** The configured games, or `every` category TCGCSV lists less the documented exclusions. */
  readonly games: TcgcsvGames;
  /**
   * A folder of dated dumps in TCGCSV's archive layout and/or TCGCSV's archive files
   * (`prices-YYYY-MM-DD.ppmd.7z`), or one such file: back-filled in date order.
   */
  readonly from?: string;
  /** Bounds on an archive file (tests lower them). */
  readonly archiveLimits?: ArchiveLimits;
  readonly baseUrl?: string;
  readonly politeness?: Politeness;
  /**
   * Apply every group again, even those whose documents a sync already applied in full for the
   * same game (`tcgcsv_group_digests`): after the catalogue changed under them, say.
   */
  readonly resync?: boolean;
  /** The time now (ms): the live day must be of the last two days. Tests set it. */
  readonly now?: () => number;
}

/** A group of a day's dump: listed with its name, or found as a folder of an archive (no name). */
type DayGroup = TcgcsvGroup | { groupId: number; name: null };

/** One day's dump, from TCGCSV or from an archive folder. */
interface DaySource {
  readonly day: string;
  /** The category listing; undefined when the dump has none (an archive of prices alone). */
  categories(): Promise<TcgcsvCategory[] | undefined>;
  /** The categories the dump holds documents of, when it has no listing. */
  categoryIds?(): Promise<number[]>;
  /** The category's groups; undefined when the category is not in the dump. */
  groups(categoryId: number): Promise<DayGroup[] | undefined>;
  /** The group's products (undefined: the dump has prices alone) and prices. */
  group(categoryId: number, groupId: number): Promise<ParsedGroup>;
}

/**
 * Brings TCGplayer's catalogue and prices of the configured categories in from TCGCSV's daily dump
 * (issue 25): each category a game, each group a set, each product a card, each priced printing
 * one NA observation of the day on its Near Mint variant. The live sync reads the day TCGCSV last
 * updated; `from` back-fills an archive's days in date order. A day synced again writes nothing;
 * a cut sync resumes after the last group it finished. One run per category and day.
 */
export function tcgcsvFeed(ds: DataSource, opts: TcgcsvOptions): Feed {
  return { name: 'tcgcsv', runs: () => tcgcsvRuns({ ds, opts, taken: takenSlugs(ds) }) };
}

/** What the runs of one sync share. */
interface TcgcsvSync {
  readonly ds: DataSource;
  readonly opts: TcgcsvOptions;
  readonly taken: TakenSlugs;
}

async function* tcgcsvRuns(sync: TcgcsvSync): AsyncGenerator<FeedRun> {
  const { opts } = sync;
  const client = new PoliteClient(opts.politeness ?? DEFAULT_POLITENESS, opts.deadlines);
  if (opts.from) {
    for (const dump of await archiveDays(opts.from)) {
      if (dump.folder) yield* dayRuns(sync, archiveSource(dump.folder, dump.day));
      else yield* archiveFileRuns(sync, dump.file!, dump.day);
    }
  } else {
    const base = `${(opts.baseUrl ?? DEFAULT_TCGCSV_BASE_URL).replace(/\/+$/, '')}`;
    const stamp = (await client.text(`${base}/last-updated.txt`, 200)).trim();
    const day = dayOf(stamp, (opts.now ?? Date.now)());
    if (!day)
      throw new Error(`${base}/last-updated.txt: "${stamp.slice(0, 40)}" is not a timestamp up to today`);
    yield* dayRuns(sync, liveSource(client, `${base}/tcgplayer`, day));
  }
  if (client.stats.retried > 0) log('info', 'tcgcsv politeness', { ...client.stats });
}

/**
 * One of TCGCSV's archive files: listed and checked (`listArchive`: sizes, entries, expansion),
 * then the configured categories' price documents extracted into a folder under `dir` (removed
 * afterwards) and synced as a dated folder is. An archive that fails its checks is one refused
 * run and the back-fill goes on with the next day.
 */
async function* archiveFileRuns(sync: TcgcsvSync, file: string, day: string): AsyncGenerator<FeedRun> {
  const { opts } = sync;
  const scratch = join(opts.dir, `tcgcsv-archive-${day}.tmp`);
  await rm(scratch, { recursive: true, force: true });
  try {
    const listing = await listArchive(file, opts.archiveLimits);
    // An archive has no category listing: every category of it for the default list, else only
    // those configured by id (a name cannot be found in it).
    const ids =
      opts.games === 'every'
        ? undefined
        : opts.games.map((g) => g.category).filter((c): c is number => typeof c === 'number');
    const extracted = await extractArchive(file, listing, scratch, ids);
    log('info', 'tcgcsv archive extracted', {
      file: basename(file),
      priceFiles: listing.prices.length,
      extracted: extracted.files,
      bytes: extracted.bytes,
      ignored: listing.ignored.length,
    });
    yield* dayRuns(sync, archiveSource(join(scratch, day), day));
  } catch (error) {
    yield refusedRun(basename(file), messageOf(error));
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * Every game's set and card slugs, read at the first group a sync applies and then kept up to
 * date by the catalogues it makes: once per sync rather than once per category (85 reads of
 * every slug, 280k at full size).
 */
type TakenSlugs = () => Promise<CatalogueIds>;

function takenSlugs(ds: DataSource): TakenSlugs {
  let taken: Promise<CatalogueIds> | undefined;
  return () =>
    (taken ??= new FeedCatalogueRepository(ds).allIds().then(
      (ids) => new CatalogueIds(ids.sets, ids.cards),
      (error: unknown) => {
        taken = undefined;
        throw error;
      },
    ));
}

async function* dayRuns(sync: TcgcsvSync, source: DaySource): AsyncGenerator<FeedRun> {
  const { ds, opts } = sync;
  const categories = await source.categories();
  // The live day's finished groups; a back-fill does every group (its writes are idempotent).
  const progress = opts.from
    ? undefined
    : await Progress.open(opts.dir, source.day, await new FeedCatalogueRepository(ds).databaseName());
  const day: Day = { ...sync, source, progress };
  if (opts.games === 'every') {
    for (const { config, category } of await everyCategory(ds, source, categories))
      yield categoryRun(day, { config, category, file: `${category.categoryId}@${source.day}` });
    return;
  }
  for (const config of opts.games) {
    const category = categories
      ? findCategory(config, categories)
      : typeof config.category === 'number'
        ? { categoryId: config.category, name: String(config.category), displayName: String(config.category) }
        : undefined;
    const file = `${category?.categoryId ?? config.category}@${source.day}`;
    if (category) yield categoryRun(day, { config, category, file });
    else
      yield refusedRun(
        file,
        categories
          ? `category ${config.category} is not listed on ${source.day}: its game and data are kept as they are`
          : `the archive of ${source.day} has no category listing: configure category ${config.category} by id`,
      );
  }
}

/** A category to sync: configured, known, or of the default list with its game still to find. */
type CategoryConfig = Omit<TcgcsvGameConfig, 'game'> & { readonly game: string | undefined };

/**
 * The default list's categories of the day: every listed one less the exclusions, the known games
 * with their slugs. An archive has no listing (no names): its categories are those whose game the
 * catalogue already holds, found by their products' ids; the others are left for a day that names
 * them (they could price nothing: an archive has no products to make cards of).
 */
async function everyCategory(
  ds: DataSource,
  source: DaySource,
  categories: TcgcsvCategory[] | undefined,
): Promise<{ config: CategoryConfig; category: TcgcsvCategory }[]> {
  if (categories) {
    const excluded = categories.filter((c) => excludedWhy(c) !== undefined);
    if (excluded.length > 0)
      log('info', 'tcgcsv categories left out (docs/more-games.md)', {
        day: source.day,
        categories: excluded.map((c) => `${c.categoryId} ${c.name}`),
      });
    return [...categories]
      .filter((c) => excludedWhy(c) === undefined)
      .sort((a, b) => a.categoryId - b.categoryId)
      .map((category) => ({
        config: knownGame(category) ?? { category: category.categoryId, game: undefined },
        category,
      }));
  }
  const catalogue = new FeedCatalogueRepository(ds);
  const found: { config: CategoryConfig; category: TcgcsvCategory }[] = [];
  const unplaced: number[] = [];
  for (const id of (await source.categoryIds?.()) ?? []) {
    const groups = (await source.groups(id)) ?? [];
    const productIds = new Set<number>();
    // A few groups' prices are enough to know whose products they are.
    for (const g of groups.slice(0, 3)) {
      const docs = await source.group(id, g.groupId).catch(() => undefined);
      for (const p of docs?.prices ?? []) productIds.add(p.productId);
    }
    const game = await catalogue.gameOfProducts([...productIds]);
    const category = { categoryId: id, name: game?.name ?? '', displayName: game?.name ?? '' };
    // Magic's products are MTGJSON's cards: the exclusions hold for an archive too.
    if (!game || excludedWhy(category) !== undefined) {
      unplaced.push(id);
      continue;
    }
    found.push({ config: { category: id, game: game.id, name: game.name }, category });
  }
  if (unplaced.length > 0)
    log('info', 'tcgcsv archive categories with no game yet: left for a day that lists them', {
      day: source.day,
      categories: unplaced,
    });
  return found;
}

/** What the category runs of one day share. */
interface Day extends TcgcsvSync {
  readonly source: DaySource;
  /** The live day's finished groups. */
  readonly progress: Progress | undefined;
}

/** A category's day as acquired: its groups. */
interface ListedGroups {
  readonly file: string;
  readonly groups: DayGroup[];
}

/** A category of the day to sync, and its run's name (`<categoryId>@<day>`). */
interface DayCategory {
  readonly config: CategoryConfig;
  readonly category: TcgcsvCategory;
  readonly file: string;
}

function categoryRun(day: Day, of: DayCategory): FeedRun<ListedGroups, ListedGroups> {
  const { category, file } = of;
  return {
    file,
    unmatched: String(category.categoryId),
    day: day.source.day,
    acquire: async () => {
      const groups = await day.source.groups(category.categoryId);
      if (!groups)
        throw new Error(`category ${category.categoryId} has no groups in the dump of ${day.source.day}`);
      return { file, groups };
    },
    // Each group's documents are read and checked as it is applied: one that breaks fails alone.
    check: async (listed) => listed,
    apply: ({ groups }, counts, paced, runId) => applyCategory(day, of, groups, counts, paced, runId),
  };
}

async function applyCategory(
  { ds, opts, source, progress, taken }: Day,
  { config, category, file }: DayCategory,
  groups: DayGroup[],
  counts: RunCounts,
  paced: Paced,
  runId?: string,
): Promise<Applied> {
  const runs = new FeedCatalogueRepository(ds);
  // The day's product ids, as the day asserted them (a back-fill's: its archive's day).
  const ids = new AssertedIdsOfRun('tcgcsv', runId, source.day);
  const details = {
    game: config.game ?? '',
    groups: 0,
    groupsFailed: 0,
    resumed: 0,
    setsCreated: 0,
    editionsMerged: 0,
    simulatedSeriesDropped: 0,
    unchanged: 0,
    groupsSkipped: 0,
  };
  const failures: string[] = [];
  const todo = groups.filter((g) => !progress?.has(category.categoryId, g.groupId));
  details.resumed = groups.length - todo.length;
  // The next group's documents are fetched while this one is written.
  const fetchGroup = (g: (typeof todo)[number]) =>
    source.group(category.categoryId, g.groupId).then(
      (docs) => ({ docs }),
      (error: unknown) => ({ error: error as Error }),
    );
  let next = todo[0] ? fetchGroup(todo[0]) : undefined;
  // A category of the default list is the game that holds its products (a slug, once given,
  // stays whatever the category is renamed to); else a new game named after it.
  let game: { id: string; name: string };
  if (config.game !== undefined) game = gameOf({ ...config, game: config.game }, category);
  else {
    const first = next ? await next : undefined;
    const docs = first && 'docs' in first ? first.docs : undefined;
    const ids = [...(docs?.products ?? []), ...(docs?.prices ?? [])].map((p) => p.productId);
    game = (await runs.gameOfProducts(ids)) ?? derivedGame(category);
  }
  details.game = game.id;
  // The game is made with its first card or set: a category whose day prices nothing the
  // catalogue holds (an archive has prices alone) adds no empty game and writes nothing.
  let gameStored = false;
  const ensureGame = async () => {
    if (!gameStored) await runs.ensureGame(game);
    gameStored = true;
  };
  // Groups whose same documents were applied in full for this game are skipped unread by the
  // mapping (docs/more-games.md): a re-read day costs its parsing and one digest each.
  const applied = opts.resync
    ? new Map<number, string>()
    : await runs.tcgcsvGroupDigests(game.id, category.categoryId, source.day);
  // The game's index and every slug are read at the first group to apply, not for a category
  // whose groups are all skipped (every slug of every game is 280k ids at full size).
  let catalogue: TcgcsvCatalogue | undefined;
  const catalogueNow = async () => {
    if (!catalogue) {
      const index = await runs.gameIndex(game.id);
      catalogue = new TcgcsvCatalogue(game.id, index.sets, index.cards, await taken());
    }
    return catalogue;
  };
  const t = utcDayStart(source.day)!;
  for (let i = 0; i < todo.length; i++) {
    const fetched = await next!;
    next = todo[i + 1] ? fetchGroup(todo[i + 1]!) : undefined;
    const groupId = todo[i]!.groupId;
    let digest: string;
    try {
      if ('error' in fetched) throw fetched.error;
      const { products, prices, rejected } = fetched.docs;
      digest = groupDigest(game.id, todo[i]!, fetched.docs);
      if (applied.get(groupId) === digest) {
        counts.rowsRead += (products?.length ?? 0) + prices.length;
        details.groupsSkipped++;
        details.groups++;
        await progress?.done(category.categoryId, groupId);
        continue;
      }
      for (const r of rejected.listed)
        counts.miss('a row of the wrong shape', { groupId, ...r.row }, r.reason);
      for (let k = 0; k < rejected.beyond; k++) counts.skip('a row of the wrong shape');
      const write = (await catalogueNow()).group(todo[i]!, products ?? [], prices, counts);
      // The group is the write unit the sync rests after; a skipped one writes nothing.
      await paced(async () => {
        for (const p of write.products) ids.add(p.cardUuid, null, 'tcgplayer_product', p.productId);
        await applyGroup(ds, write, t, counts, details, ensureGame, ids.take());
        // Only once its writes have committed: a sync killed before does the group again.
        await runs.recordTcgcsvGroupDigest(game.id, category.categoryId, groupId, source.day, digest);
      });
    } catch (error) {
      // Reported and left for the next sync (not marked done); the category's other groups go on.
      const message = messageOf(error);
      counts.miss(
        'a group that could not be read or written',
        { groupId, error: message.slice(0, 300) },
        message,
      );
      details.groupsFailed++;
      failures.push(`group ${groupId}: ${message.slice(0, 200)}`);
      log('error', 'tcgcsv group failed: the next sync tries it again', {
        file,
        groupId,
        error: message,
      });
      continue;
    }
    details.groups++;
    await progress?.done(category.categoryId, groupId);
    if ((i + 1) % 25 === 0)
      log('info', 'tcgcsv progress', { category: category.categoryId, groups: i + 1, of: todo.length });
  }
  details.setsCreated = catalogue?.setsCreated ?? 0;
  details.editionsMerged = catalogue?.editionsMerged ?? 0;
  const error =
    failures.length === 0 ? undefined : `${failures.length} group(s) not synced, first ${failures[0]}`;
  return { details, error };
}

async function applyGroup(
  ds: DataSource,
  write: GroupWrite,
  t: number,
  counts: RunCounts,
  details: { simulatedSeriesDropped: number; unchanged: number },
  ensureGame: () => Promise<void>,
  ids?: AssertedIds,
): Promise<void> {
  const repo = new FeedCatalogueRepository(ds);
  const stored = await repo.existingVariants(write.variants.map((v) => v.uuid));
  const variants = [
    ...new Map(write.variants.filter((v) => !stored.has(v.uuid)).map((v) => [v.uuid, v])).values(),
  ];
  if (write.cards.length > 0 || variants.length > 0) {
    await ensureGame();
    await writeCatalogue(ds, { games: [], sets: [...write.sets.values()], cards: write.cards, variants });
  }
  // After the new cards: the group's product ids, theirs too, go in with the changes' transaction.
  await repo.updateCards(write.changes, ids);
  // Every observed variant is among `write.variants`: stored, or written just above.
  const written = await writeFeedSeries(
    ds,
    write.observations.map((o) => ({
      variantUuid: o.variantUuid,
      cardUuid: o.cardUuid,
      region: 'NA',
      source: 'tcgplayer',
      t: [t],
      p: [o.price],
    })),
    counts,
  );
  details.simulatedSeriesDropped += written.simulatedSeriesDropped;
  details.unchanged += written.unchanged;
}

/**
 * What a group's application depends on besides the catalogue: the game it goes to, the group
 * (its name makes the set) and its parsed documents, rejected rows included. Parsed rather than
 * raw, so that a day read live, from a folder or from an archive file digests alike.
 */
function groupDigest(gameId: string, group: unknown, docs: ParsedGroup): string {
  return createHash('sha256')
    .update(JSON.stringify([gameId, group, docs.products ?? null, docs.prices, docs.rejected]))
    .digest('base64url');
}

/** The UTC day of TCGCSV's last update, if it is one up to today. */
function dayOf(stamp: string, now: number): string | undefined {
  if (stamp.length > 40) return undefined;
  const ms = Date.parse(stamp);
  if (!Number.isFinite(ms)) return undefined;
  // The live dump is today's: a stamp days old is a stale mirror's, whose prices are not that day's.
  const day = new Date(ms).toISOString().slice(0, 10);
  return ms >= now - 2 * 86_400_000 && ms <= now + 86_400_000 ? day : undefined;
}

function liveSource(client: PoliteClient, base: string, day: string): DaySource {
  const get = (path: string) => client.json(`${base}/${path}`, MAX_DOCUMENT_BYTES).then((r) => r?.body);
  return {
    day,
    categories: async () => {
      const body = await get('categories');
      if (body === undefined) throw new Error(`${base}/categories: not found`);
      return readCategories(body).rows;
    },
    groups: async (categoryId) => {
      const body = await get(`${categoryId}/groups`);
      return body === undefined ? undefined : readGroups(`${categoryId}/groups`, body).rows;
    },
    group: async (categoryId, groupId) => {
      const path = `${categoryId}/${groupId}`;
      const [products, prices] = await Promise.all([get(`${path}/products`), get(`${path}/prices`)]);
      return parsedGroup(path, products, prices);
    },
  };
}

/** An archive day: `<day>/<categoryId>/<groupId>/prices`, with `products`, `groups` and `categories` where kept. */
function archiveSource(dir: string, day: string): DaySource {
  return {
    day,
    categories: async () => {
      const body = await readBoundedJsonFile(join(dir, 'categories'), MAX_DOCUMENT_BYTES);
      return body === undefined ? undefined : readCategories(body).rows;
    },
    categoryIds: async () =>
      (await readdir(dir))
        .filter((e) => /^[1-9]\d{0,9}$/.test(e))
        .map(Number)
        .sort((a, b) => a - b),
    groups: async (categoryId) => {
      const folder = join(dir, String(categoryId));
      const listed = await readBoundedJsonFile(join(folder, 'groups'), MAX_DOCUMENT_BYTES);
      if (listed !== undefined) return readGroups(`${categoryId}/groups`, listed).rows;
      const entries = await readdir(folder).catch(() => undefined);
      if (!entries) return undefined;
      return entries
        .filter((e) => /^[1-9]\d{0,9}$/.test(e))
        .map((e) => ({ groupId: Number(e), name: null as null }))
        .sort((a, b) => a.groupId - b.groupId);
    },
    group: async (categoryId, groupId) => {
      const path = `${categoryId}/${groupId}`;
      const [products, prices] = await Promise.all([
        readBoundedJsonFile(join(dir, path, 'products'), MAX_DOCUMENT_BYTES),
        readBoundedJsonFile(join(dir, path, 'prices'), MAX_DOCUMENT_BYTES),
      ]);
      return parsedGroup(path, products, prices);
    },
  };
}

/** A group's documents as read: the rows to use, and the rows refused (the first ones with why). */
interface ParsedGroup {
  readonly products?: TcgcsvProduct[];
  readonly prices: TcgcsvPrice[];
  readonly rejected: { listed: Rows<unknown>['rejected']; beyond: number };
}

function parsedGroup(path: string, products: unknown, prices: unknown): ParsedGroup {
  const p = products === undefined ? undefined : readProducts(`${path}/products`, products);
  // A group without prices (nothing sold yet) has products alone.
  const q = prices === undefined ? undefined : readPrices(`${path}/prices`, prices);
  const listed = [...(p?.rejected ?? []), ...(q?.rejected ?? [])];
  const total = (p?.rejectedCount ?? 0) + (q?.rejectedCount ?? 0);
  return { products: p?.rows, prices: q?.rows ?? [], rejected: { listed, beyond: total - listed.length } };
}

/**
 * The days to back-fill, oldest first, up to today: `from`'s dated folders and TCGCSV archive
 * files (`prices-YYYY-MM-DD.ppmd.7z`), or `from` itself when it is such a file. A day with both
 * is read from its folder, which may hold the products an archive lacks.
 */
async function archiveDays(from: string): Promise<{ day: string; folder?: string; file?: string }[]> {
  const today = new Date().toISOString().slice(0, 10);
  const usable = (day: string | undefined): day is string =>
    day !== undefined && utcDayStart(day) !== undefined && day >= EARLIEST_DAY && day <= today;
  if ((await stat(from)).isFile()) {
    const day = archiveDayOf(basename(from));
    if (!usable(day)) throw new Error(`${from}: not a TCGCSV archive file (prices-YYYY-MM-DD.ppmd.7z)`);
    return [{ day, file: from }];
  }
  const byDay = new Map<string, { day: string; folder?: string; file?: string }>();
  for (const entry of (await readdir(from)).sort()) {
    if (usable(entry)) byDay.set(entry, { day: entry, folder: join(from, entry) });
    const day = archiveDayOf(entry);
    if (usable(day) && !byDay.has(day)) byDay.set(day, { day, file: join(from, entry) });
  }
  if (byDay.size === 0)
    throw new Error(
      `${from}: no dated folders (YYYY-MM-DD) nor archives (prices-YYYY-MM-DD.ppmd.7z) of TCGCSV`,
    );
  return [...byDay.values()].sort((a, b) => (a.day < b.day ? -1 : 1));
}

/**
 * The groups of the day a sync has finished, kept in the sync's folder so that a sync cut at any
 * point resumes after the last finished group (a group cut part-way is done again: its writes are
 * idempotent). Another day's progress is dropped.
 */
class Progress {
  private constructor(
    private readonly path: string,
    private readonly day: string,
    /** The database the groups were written to: another one's progress is not this one's. */
    private readonly database: string,
    private readonly finished: Set<string>,
  ) {}

  static async open(dir: string, day: string, database: string): Promise<Progress> {
    const path = join(dir, 'tcgcsv-progress.json');
    const saved = await readFile(path, 'utf8')
      .then((text) => JSON.parse(text) as { day?: unknown; database?: unknown; done?: unknown })
      .catch(() => undefined); // none, or cut by a crash: no progress
    const same = saved?.day === day && saved.database === database && Array.isArray(saved.done);
    if (!same) await rm(path, { force: true });
    return new Progress(path, day, database, new Set(same ? (saved.done as unknown[]).map(String) : []));
  }

  has(categoryId: number, groupId: number): boolean {
    return this.finished.has(`${categoryId}/${groupId}`);
  }

  async done(categoryId: number, groupId: number): Promise<void> {
    this.finished.add(`${categoryId}/${groupId}`);
    await writeFileAtomically(
      this.path,
      JSON.stringify({ day: this.day, database: this.database, done: [...this.finished] }),
    );
  }
}
