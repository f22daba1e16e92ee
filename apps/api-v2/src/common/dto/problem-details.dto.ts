import { ApiProperty } from '@nestjs/swagger';
import { ERROR_CODES } from '@tcg/domain';

/** docs/spec/interface.md "v2 error body": RFC 7807 problem details, sent as `application/problem+json`. */
export class ProblemDetailsDto {
  @ApiProperty({
    format: 'uri',
    description: "Problem type: the error documentation address with the problem's slug as fragment.",
    example: 'https://docs.example.com/errors#invalid-request',
  })
  type!: string;

  @ApiProperty({ description: 'Short title of the problem type.', example: 'Invalid request' })
  title!: string;

  @ApiProperty({ type: 'integer', description: 'HTTP status.', example: 400 })
  status!: number;

  @ApiProperty({
    description: 'What went wrong; for a bad parameter, its name and the values it accepts.',
    example:
      "Invalid value 'MOON' for 'regions'. Accepted: market codes NA, EU, UK, JP, OCE, LATAM, OTHER or an ISO 3166-1 alpha-2 country code.",
  })
  detail!: string;

  @ApiProperty({
    description: "Stable error code, the same as v1's.",
    enum: ERROR_CODES,
    example: 'INVALID_REQUEST',
  })
  code!: string;
}
