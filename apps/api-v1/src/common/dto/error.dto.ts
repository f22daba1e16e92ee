import { ApiProperty } from '@nestjs/swagger';
import { ERROR_CODES } from '@tcg/domain';

/** docs/spec/interface.md "v1 error body": every api-v1 error, and the gateway's errors on /v1 paths. */
export class ErrorDto {
  @ApiProperty({
    description: 'What went wrong; for a bad parameter, its name and the values it accepts.',
    example:
      "Invalid value 'Klingon' for 'language'. Accepted: English, Japanese, French, German, Spanish, Italian, Chinese (S), Chinese (T), Portuguese, Russian, Korean.",
  })
  error!: string;

  @ApiProperty({ description: 'Stable error code.', enum: ERROR_CODES, example: 'INVALID_REQUEST' })
  code!: string;
}
