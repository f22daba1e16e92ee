import {
  HttpException,
  Inject,
  Injectable,
  Logger,
  NotFoundException,
  ServiceUnavailableException,
} from '@nestjs/common';
import {
  BULK_FORMATS,
  BulkSnapshot,
  BulkSnapshotStore,
  HISTORY_FORMAT,
  isBulkFormat,
  isLatestFormat,
  LATEST_FORMATS,
} from '@tcg/domain';
import { ifNoneMatchHits } from '@tcg/http-service';
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CATALOGUE, CatalogueRepository } from '@tcg/persistence';
import { UsageMetadataDto } from '../common/decorators/usage.decorator';
import { BULK_SNAPSHOTS } from './bulk-store.provider';
import { byteRange } from './byte-range';
import {
  BulkArchivesResponseDto,
  BulkSnapshotsResponseDto,
  toBulkArchiveDto,
  toBulkSnapshotDto,
} from './dto/bulk-snapshot.dto';

/** A day as the archive paths write it: a real one (2026-02-31 is not), from year 1. */
function isDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || text.startsWith('0000')) return false;
  const day = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === text;
}

/** Longest a value from the path is echoed in an error. */
const ECHO_MAX = 100;

@Injectable()
export class BulkService {
  private readonly logger = new Logger('BulkDownload');

  constructor(
    @Inject(BULK_SNAPSHOTS) private readonly snapshots: BulkSnapshotStore,
    @Inject(CATALOGUE) private readonly catalogue: CatalogueRepository,
  ) {}

  async list(usage: UsageMetadataDto): Promise<BulkSnapshotsResponseDto> {
    const snapshots = await this.snapshots.listLatest();
    return { data: snapshots.map(toBulkSnapshotDto), _metadata: usage };
  }

  async listArchives(usage: UsageMetadataDto): Promise<BulkArchivesResponseDto> {
    const [archives, history] = await Promise.all([
      this.snapshots.listArchives(),
      this.snapshots.listLatest([HISTORY_FORMAT]),
    ]);
    return {
      data: archives.map(toBulkArchiveDto),
      history: history.map(toBulkSnapshotDto),
      _metadata: usage,
    };
  }

  /** A day's archived file, or the 404 naming what is accepted (or that the day has none). */
  async findArchived(date: string, gameId: string, format: string): Promise<BulkSnapshot> {
    if (!isDay(date))
      throw new NotFoundException(
        `Unknown date '${echo(date)}'. Accepted: a day as YYYY-MM-DD that has an archive (GET /v1/bulk/archive lists them).`,
      );
    if (!isBulkFormat(format))
      throw new NotFoundException(`Unknown format '${echo(format)}'. Accepted: ${BULK_FORMATS.join(', ')}.`);
    await this.requireGame(gameId);
    const archived = await this.snapshots.archived(date, gameId, format);
    if (!archived)
      throw new NotFoundException(
        `No archive of '${gameId}' for ${date}: GET /v1/bulk/archive lists the days kept.`,
      );
    return archived;
  }

  private async requireGame(gameId: string): Promise<void> {
    const games = (await this.catalogue.listGames()).map((g) => g.id).sort();
    if (!games.includes(gameId))
      throw new NotFoundException(`Unknown game '${echo(gameId)}'. Accepted: ${games.join(', ')}.`);
  }

  /** The latest snapshot of a game and format, or the 404 naming what is accepted. */
  async find(gameId: string, format: string): Promise<BulkSnapshot> {
    if (!isLatestFormat(format))
      throw new NotFoundException(
        `Unknown format '${echo(format)}'. Accepted: ${LATEST_FORMATS.join(', ')}.`,
      );
    await this.requireGame(gameId);
    const snapshot = await this.snapshots.latest(gameId, format);
    if (!snapshot) {
      throw new ServiceUnavailableException(
        `No ${format} snapshot of '${gameId}' has been generated yet (it is made in the background). Retry shortly.`,
      );
    }
    return snapshot;
  }

  /**
   * Sends the snapshot as a file: its exact length, its checksum as a strong entity tag (a 304
   * when `If-None-Match` has it), one byte range of it on request (`Range`, `If-Range`: see
   * byteRange) so a cut download resumes, and for GET the stored parts one after another, each
   * read when the client has taken the one before, so neither the file nor a slow client's backlog
   * is held and no pooled connection waits on the client. A part deleted meanwhile (two newer
   * snapshots committed during one download) cuts the connection: the client sees fewer bytes than
   * Content-Length and retries.
   */
  async send(
    snapshot: BulkSnapshot,
    req: IncomingMessage,
    res: ServerResponse,
    /** Sent as a day's archive (its path named the day): immutable, the day in its file name. */
    asArchive = false,
  ): Promise<void> {
    const etag = `"${snapshot.sha256}"`;
    const name = asArchive ? snapshot.archiveDate : snapshot.dataVersion;
    const lastModified = new Date(snapshot.generatedAt * 1000).toUTCString();
    const headers = {
      etag,
      // A day's archive never changes: a client may keep it as long as it likes.
      'cache-control': asArchive ? 'private, max-age=31536000, immutable' : 'private, no-cache',
      'last-modified': lastModified,
      'x-data-version': String(snapshot.dataVersion),
      'accept-ranges': 'bytes',
    };
    if (ifNoneMatchHits(req.headers['if-none-match'], snapshot.sha256)) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    // Range is defined for GET only (RFC 9110 §14.2): HEAD gets the whole file's headers.
    const range =
      req.method === 'GET'
        ? byteRange(headerOf(req, 'range'), headerOf(req, 'if-range'), snapshot.bytes, { etag, lastModified })
        : ({ kind: 'full' } as const);
    if (range.kind === 'unsatisfiable') {
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      res.setHeader('content-range', `bytes */${snapshot.bytes}`);
      throw new HttpException(
        `The Range header asks for bytes past the end of the file (${snapshot.bytes} bytes).`,
        416,
      );
    }
    const start = range.kind === 'partial' ? range.start : 0;
    const end = range.kind === 'partial' ? range.end : snapshot.bytes - 1;
    res.writeHead(range.kind === 'partial' ? 206 : 200, {
      ...headers,
      'content-type': 'application/gzip',
      'content-length': String(end - start + 1),
      ...(range.kind === 'partial' ? { 'content-range': `bytes ${start}-${end}/${snapshot.bytes}` } : {}),
      'content-disposition': `attachment; filename="${snapshot.gameId}-${name}.${snapshot.format}"`,
    });
    if (req.method === 'HEAD' || end < start) {
      res.end();
      return;
    }
    try {
      const parts = await this.partsOf(snapshot, start, end);
      for (const { seq, from, to } of parts) {
        if (res.destroyed) return;
        const part = await this.snapshots.readChunk(snapshot.id, seq);
        if (part === null) throw deletedDuringDownload(snapshot);
        if (!res.write(from === 0 && to >= part.length ? part : part.subarray(from, to))) await drained(res);
      }
      res.end();
    } catch (error) {
      // The status is gone already: only a cut connection can tell the client.
      this.logger.warn({ msg: 'bulk download cut', snapshot: snapshot.id, error: (error as Error).message });
      res.destroy();
    }
  }

  /** The parts holding bytes `start`..`end` (inclusive), with the slice of each to send. */
  private async partsOf(
    snapshot: BulkSnapshot,
    start: number,
    end: number,
  ): Promise<{ seq: number; from: number; to: number }[]> {
    if (start === 0 && end === snapshot.bytes - 1)
      return Array.from({ length: snapshot.chunks }, (_, seq) => ({ seq, from: 0, to: Infinity }));
    const sizes = await this.snapshots.chunkSizes(snapshot.id);
    if (sizes === null) throw deletedDuringDownload(snapshot);
    const parts: { seq: number; from: number; to: number }[] = [];
    let offset = 0;
    for (const [seq, size] of sizes.entries()) {
      const partEnd = offset + size; // exclusive
      if (partEnd > start && offset <= end)
        parts.push({ seq, from: Math.max(0, start - offset), to: Math.min(size, end + 1 - offset) });
      offset = partEnd;
    }
    return parts;
  }
}

function deletedDuringDownload(snapshot: BulkSnapshot): Error {
  return new Error(`snapshot ${snapshot.id} was deleted during its download`);
}

function headerOf(req: IncomingMessage, name: 'range' | 'if-range'): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

/** Resolves when the response can take more, or when its connection is gone. */
async function drained(res: ServerResponse): Promise<void> {
  const ac = new AbortController();
  await Promise.race([
    once(res, 'drain', { signal: ac.signal }),
    once(res, 'close', { signal: ac.signal }),
  ]).finally(() => ac.abort());
}

function echo(value: string): string {
  return value.length > ECHO_MAX ? `${value.slice(0, ECHO_MAX)}…` : value;
}
