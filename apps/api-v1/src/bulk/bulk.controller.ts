import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { BULK_FORMATS, LATEST_FORMATS } from '@tcg/domain';
import { ApiKeyAuth, CachedResponder } from '@tcg/http-service';
import type { Request, Response } from 'express';
import { ApiErrorResponses } from '../common/decorators/api-docs.decorator';
import { Usage, UsageMetadataDto } from '../common/decorators/usage.decorator';
import { ErrorDto } from '../common/dto/error.dto';
import { v1SendOptions } from '../common/send-options';
import { BulkService } from './bulk.service';
import { BulkArchivesResponseDto, BulkSnapshotsResponseDto } from './dto/bulk-snapshot.dto';

@ApiTags('bulk')
@ApiKeyAuth()
@Controller('v1/bulk')
export class BulkController {
  constructor(
    private readonly bulk: BulkService,
    private readonly responses: CachedResponder,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'listBulkSnapshots',
    summary: 'List the bulk data files',
    description:
      'The latest snapshot of each game as gzip NDJSON and gzip CSV: every variant with its card, current price ' +
      'and statistics per region. Made after every import (once the data has been quiet for a few seconds) and ' +
      'at least daily. Costs 1.',
  })
  @ApiOkResponse({ type: BulkSnapshotsResponseDto, description: 'The available snapshots.' })
  @ApiErrorResponses(401, 429)
  async list(@Usage() usage: UsageMetadataDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    // Never cached: a snapshot committed does not move the data version the cache is keyed on.
    await this.responses.send(req, res, { ...v1SendOptions(req, usage), key: null }, async () => ({
      body: await this.bulk.list(usage),
    }));
  }

  @Get('archive')
  @ApiOperation({
    operationId: 'listBulkArchives',
    summary: 'List the dated archives of the bulk data',
    description:
      "Every archived file: per UTC day and game, that day's first snapshot in both formats, never rewritten, kept " +
      "400 days by default (BULK_ARCHIVE_DAYS). And in `history`, each game's full-history file, written daily and " +
      'downloaded at `/v1/bulk/{game}/history.ndjson.gz`: one line per variant and region, ' +
      '`{card_id, variant_id, variant_uuid, region, currency, from, prices}`, `prices` holding each UTC day from ' +
      "`from` on (the day's last observation, null for a day without). Costs 1.",
  })
  @ApiOkResponse({
    type: BulkArchivesResponseDto,
    description: 'The archived files and the full-history files, with their SHA-256.',
  })
  @ApiErrorResponses(401, 429)
  async listArchives(
    @Usage() usage: UsageMetadataDto,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    await this.responses.send(req, res, { ...v1SendOptions(req, usage), key: null }, async () => ({
      body: await this.bulk.listArchives(usage),
    }));
  }

  @Get('archive/:date/:game/:format')
  @ApiOperation({
    operationId: 'downloadBulkArchive',
    summary: "Download a file of a day's archive",
    description:
      'As `GET /v1/bulk/{game}/{format}` (gzip file, exact length, `ETag` the SHA-256 listed, one byte range, HEAD), ' +
      'for the file archived on `date`; it never changes (`Cache-Control: immutable`). Costs 1.',
  })
  @ApiParam({ name: 'date', description: 'The UTC day, YYYY-MM-DD.', example: '2026-11-27' })
  @ApiParam({ name: 'game', description: 'Game identifier.', example: 'magic-the-gathering' })
  @ApiParam({ name: 'format', enum: BULK_FORMATS, description: 'File format.' })
  @ApiOkResponse({
    description: 'The gzip file.',
    content: { 'application/gzip': { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiResponse({ status: 304, description: 'The file named in `If-None-Match`.' })
  @ApiResponse({ status: 206, description: 'The one range asked for in `Range`.' })
  @ApiResponse({
    status: 404,
    type: ErrorDto,
    description: 'NOT_FOUND: an unknown day, game or format, or a day without an archive.',
    example: {
      error: "No archive of 'magic-the-gathering' for 2025-01-01: GET /v1/bulk/archive lists the days kept.",
      code: 'NOT_FOUND',
    },
  })
  @ApiErrorResponses(401, 429)
  async downloadArchive(
    @Param('date') date: string,
    @Param('game') game: string,
    @Param('format') format: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    await this.bulk.send(await this.bulk.findArchived(date, game, format), req, res, true);
  }

  @Get(':game/:format')
  @ApiOperation({
    operationId: 'downloadBulkSnapshot',
    summary: 'Download a bulk data file',
    description:
      'The latest snapshot of the game in the format, as a gzip file (`Content-Type: application/gzip`, not a ' +
      'content coding): exact `Content-Length`, `ETag` the SHA-256 listed, `If-None-Match` gives 304. HEAD sends ' +
      'the headers only. One byte range on request, so a cut download resumes: `Range: bytes=<first>-[<last>]` or ' +
      '`bytes=-<suffix>` gives 206 with `Content-Range`, a range starting past the end 416 with ' +
      '`Content-Range: bytes */<size>`; several ranges, or an `If-Range` that is not the current ETag or ' +
      '`Last-Modified`, give the whole file (200). Costs 1, whatever the size.',
  })
  @ApiParam({ name: 'game', description: 'Game identifier.', example: 'magic-the-gathering' })
  @ApiParam({
    name: 'format',
    enum: LATEST_FORMATS,
    description: "File format: the latest snapshot as NDJSON or CSV, or the game's full history.",
  })
  @ApiOkResponse({
    description: 'The gzip file.',
    content: { 'application/gzip': { schema: { type: 'string', format: 'binary' } } },
    headers: {
      ETag: { description: 'The SHA-256 of the file, quoted.', schema: { type: 'string' } },
      'Content-Length': { description: 'The size of the file.', schema: { type: 'integer' } },
      'Content-Disposition': {
        description: 'attachment; filename="<game>-<data version>.<format>"',
        schema: { type: 'string' },
      },
      'X-Data-Version': { description: 'The data version of the rows.', schema: { type: 'integer' } },
      'Accept-Ranges': { description: '`bytes`: one range may be asked for.', schema: { type: 'string' } },
    },
  })
  @ApiResponse({ status: 304, description: 'The file named in `If-None-Match` is still the latest.' })
  @ApiResponse({
    status: 206,
    description: 'The one range asked for in `Range`: `Content-Range: bytes <first>-<last>/<size>`.',
    content: { 'application/gzip': { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiResponse({
    status: 416,
    type: ErrorDto,
    description:
      'INVALID_REQUEST: the range starts at or past the end of the file (`Content-Range: bytes */<size>`).',
  })
  @ApiResponse({
    status: 404,
    type: ErrorDto,
    description: 'NOT_FOUND: an unknown game or format, named with the accepted values.',
    example: { error: "Unknown format 'zip'. Accepted: ndjson.gz, csv.gz.", code: 'NOT_FOUND' },
  })
  @ApiResponse({
    status: 503,
    type: ErrorDto,
    description: 'SERVICE_UNAVAILABLE: the game has no snapshot yet (the first is being made).',
  })
  @ApiErrorResponses(401, 429)
  async download(
    @Param('game') game: string,
    @Param('format') format: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    await this.bulk.send(await this.bulk.find(game, format), req, res);
  }
}
