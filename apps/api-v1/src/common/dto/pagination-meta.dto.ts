import { ApiProperty } from '@nestjs/swagger';

/** docs/spec/interface.md "v1 PaginationMeta" (`meta`). */
export class PaginationMetaDto {
  @ApiProperty({ type: 'integer', description: 'Matches across all pages.', example: 1 })
  total!: number;

  @ApiProperty({
    type: 'integer',
    description: 'Page size used (a larger `limit` is clamped to the plan).',
    example: 20,
  })
  limit!: number;

  @ApiProperty({ type: 'integer', example: 0 })
  offset!: number;

  @ApiProperty({ description: 'Whether another page follows.', example: false })
  hasMore!: boolean;
}
