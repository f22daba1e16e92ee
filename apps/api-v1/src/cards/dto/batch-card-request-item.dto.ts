import { ApiPropertyOptional } from '@nestjs/swagger';
import { CONDITION_NAMES, QUERY_LIMITS } from '@tcg/domain';

/**
 * docs/spec/interface.md "v1 BatchCardRequestItem", for the OpenAPI document only: `parseBatch` in
 * batch-items.ts reads the body. Exactly one identifier per item, plus optional filters.
 */
export class BatchCardRequestItemDto {
  @ApiPropertyOptional({
    maxLength: QUERY_LIMITS.value,
    description: 'Slug or UUID of a card.',
    example: 'magic-the-gathering-limited-edition-alpha-black-lotus-rare',
  })
  cardId?: string;

  @ApiPropertyOptional({
    maxLength: QUERY_LIMITS.value,
    description: 'Slug or UUID of a variant: that card with that variant only.',
  })
  variantId?: string;

  @ApiPropertyOptional({ maxLength: QUERY_LIMITS.value, description: 'Marketplace product ID.' })
  vendorId?: string;

  @ApiPropertyOptional({ maxLength: QUERY_LIMITS.value, description: 'Card-data provider ID.' })
  opensetId?: string;

  @ApiPropertyOptional({ maxLength: QUERY_LIMITS.value, description: 'Card-data provider ID.' })
  imagedbId?: string;

  @ApiPropertyOptional({ maxLength: QUERY_LIMITS.value, description: 'Marketplace SKU ID (variant level).' })
  vendorSkuId?: string;

  @ApiPropertyOptional({
    maxLength: QUERY_LIMITS.list,
    description: "Printing types, comma-separated, case-insensitive; narrows the card's variants.",
    example: 'Normal',
  })
  printing?: string;

  @ApiPropertyOptional({
    maxLength: QUERY_LIMITS.list,
    description: `Conditions by short or long name, comma-separated, case-insensitive: ${CONDITION_NAMES.join(', ')}.`,
    example: 'NM,LP',
  })
  condition?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    description:
      'Unix timestamp (seconds), for delta sync: only variants updated after it; the card is left out when none is.',
    example: 1767139200,
  })
  updated_after?: number;
}
