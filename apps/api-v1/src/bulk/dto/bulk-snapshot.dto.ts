import { ApiProperty } from '@nestjs/swagger';
import { BULK_FORMATS, LATEST_FORMATS, BulkSnapshot } from '@tcg/domain';
import { UsageMetadataDto } from '../../common/decorators/usage.decorator';

/** One downloadable snapshot file (issue 11: bulk data). */
export class BulkSnapshotDto {
  @ApiProperty({ description: 'Game identifier (slug).', example: 'magic-the-gathering' })
  game!: string;

  @ApiProperty({
    description:
      "File format: the snapshot as gzip NDJSON or gzip CSV, or `history.ndjson.gz`, the game's full history (every variant's daily price series per region, written daily).",
    enum: LATEST_FORMATS,
    example: 'csv.gz',
  })
  format!: string;

  @ApiProperty({
    type: 'integer',
    description: 'The data version the rows were read at (the `X-Data-Version` of API answers at that time).',
    example: 1842,
  })
  data_version!: number;

  @ApiProperty({
    type: 'integer',
    description: 'Unix timestamp (seconds) of the consistent read the file was made from.',
    example: 1767225600,
  })
  generated_at!: number;

  @ApiProperty({ type: 'integer', description: 'Size of the gzip file in bytes.', example: 6815744 })
  bytes!: number;

  @ApiProperty({
    type: 'integer',
    description:
      'Rows in the file (the CSV header not counted): one per variant and region with prices (history: per variant and region with observations).',
    example: 62630,
  })
  rows!: number;

  @ApiProperty({
    description: 'SHA-256 of the gzip file, lower-case hex; also its `ETag`.',
    example: '9f2c4e0d7a1b3c5e8f6a2d4b1c3e5f7a9b0c2d4e6f8a1b3c5d7e9f0a2b4c6d8e',
  })
  sha256!: string;

  @ApiProperty({
    description: 'Where to download it (relative to the API base), with the same API key.',
    example: '/v1/bulk/magic-the-gathering/csv.gz',
  })
  download_url!: string;
}

export class BulkSnapshotsResponseDto {
  @ApiProperty({
    type: () => [BulkSnapshotDto],
    description: 'The latest snapshot of each game and format.',
  })
  data!: BulkSnapshotDto[];

  @ApiProperty({ type: () => UsageMetadataDto })
  _metadata!: UsageMetadataDto;
}

export function toBulkSnapshotDto(s: BulkSnapshot): BulkSnapshotDto {
  return {
    game: s.gameId,
    format: s.format,
    data_version: s.dataVersion,
    generated_at: s.generatedAt,
    bytes: s.bytes,
    rows: s.rows,
    sha256: s.sha256,
    download_url: bulkDownloadPath(s.gameId, s.format),
  };
}

export function bulkDownloadPath(gameId: string, format: string): string {
  return `/v1/bulk/${encodeURIComponent(gameId)}/${format}`;
}

/** One file of a day's archive (issue 26: dated history archives). */
export class BulkArchiveDto extends BulkSnapshotDto {
  @ApiProperty({ description: 'The UTC day whose archive it is (YYYY-MM-DD).', example: '2026-11-27' })
  date!: string;

  @ApiProperty({
    description: 'File format: the day’s snapshot as gzip NDJSON or gzip CSV.',
    enum: BULK_FORMATS,
    example: 'csv.gz',
  })
  declare format: string;

  @ApiProperty({
    description: 'Where to download it (relative to the API base), with the same API key.',
    example: '/v1/bulk/archive/2026-11-27/magic-the-gathering/csv.gz',
  })
  declare download_url: string;
}

export class BulkArchivesResponseDto {
  @ApiProperty({
    type: () => [BulkArchiveDto],
    description: 'Every archived file, the latest day first, then by game and format.',
  })
  data!: BulkArchiveDto[];

  @ApiProperty({
    type: () => [BulkSnapshotDto],
    description:
      "Each game's latest full-history file (`history.ndjson.gz`, written daily): every variant's daily price series per region.",
  })
  history!: BulkSnapshotDto[];

  @ApiProperty({ type: () => UsageMetadataDto })
  _metadata!: UsageMetadataDto;
}

export function toBulkArchiveDto(s: BulkSnapshot): BulkArchiveDto {
  const date = s.archiveDate!;
  return {
    date,
    ...toBulkSnapshotDto(s),
    download_url: `/v1/bulk/archive/${date}/${encodeURIComponent(s.gameId)}/${s.format}`,
  };
}
