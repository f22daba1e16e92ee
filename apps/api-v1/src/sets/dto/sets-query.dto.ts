import { Transform } from 'class-transformer';
import { QUERY_LIMITS } from '@tcg/domain';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const lower = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.trim().toLowerCase() : value;

/** GET /v1/sets query (docs/spec/interface.md): `game` required; `orderBy` name (default) or release_date; `order` desc (default) or asc. */
export class SetsQueryDto {
  @Transform(trim)
  @IsString({ message: "'game' is required: a game id or display name." })
  @IsNotEmpty({ message: "'game' is required: a game id or display name." })
  @MaxLength(QUERY_LIMITS.value, { message: `'game' may be at most ${QUERY_LIMITS.value} characters.` })
  game!: string;

  @IsOptional()
  @Transform(trim)
  @IsString({ message: "'q' must be a single value." })
  @MaxLength(200, { message: "'q' may be at most 200 characters." })
  q?: string;

  @IsOptional()
  @Transform(lower)
  @IsIn(['name', 'release_date'], { message: "Invalid value for 'orderBy'. Accepted: name, release_date." })
  orderBy: 'name' | 'release_date' = 'name';

  @IsOptional()
  @Transform(lower)
  @IsIn(['asc', 'desc'], { message: "Invalid value for 'order'. Accepted: asc, desc." })
  order: 'asc' | 'desc' = 'desc';
}
