import { applyDecorators } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { QUERY_LIMITS } from '@tcg/domain';

/** The query parameters of GET /v1/sets, as SetsQueryDto validates them. */
export const ApiSetsQuery = (): MethodDecorator & ClassDecorator =>
  applyDecorators(
    ApiQuery({
      name: 'game',
      required: true,
      description: 'Game ID or, case-insensitively, its display name.',
      schema: { type: 'string', maxLength: QUERY_LIMITS.value },
      example: 'magic-the-gathering',
    }),
    ApiQuery({
      name: 'q',
      required: false,
      description: 'Search sets by name (case-insensitive substring).',
      schema: { type: 'string', maxLength: 200 },
      example: 'alpha',
    }),
    ApiQuery({
      name: 'orderBy',
      required: false,
      schema: { type: 'string', enum: ['name', 'release_date'], default: 'name' },
    }),
    ApiQuery({
      name: 'order',
      required: false,
      schema: { type: 'string', enum: ['asc', 'desc'], default: 'desc' },
    }),
  );
