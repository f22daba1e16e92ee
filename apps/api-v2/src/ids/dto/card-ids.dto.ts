import { ApiProperty, PickType } from '@nestjs/swagger';
import { ID_FEEDS, ID_KINDS, type IdFeed, type IdKind } from '@tcg/persistence';

const KIND = {
  enum: ID_KINDS,
  description:
    'What the id is: `tcgplayer_product`, `tcgplayer_etched_product` (the etched printing’s product), `tcgplayer_sku` (a variant’s), `cardmarket_product`, `scryfall_id`, `mtgjson_uuid` (one per face of a multi-face card), `multiverse_id`.',
  example: 'tcgplayer_product',
} as const;
const FEED = {
  enum: [...ID_FEEDS, null],
  nullable: true,
  description:
    'The feed that said it; null: back-filled from what the catalogue held before the crosswalk, which no one feed can be named for.',
  example: 'mtgjson',
} as const;
const DAY = (what: string) =>
  ({
    type: 'string',
    format: 'date',
    nullable: true,
    description: `UTC day a sync ${what} read it from the feed (a TCGCSV back-fill: its archive's day); null: back-filled, the day is not known.`,
    example: '2026-12-07',
  }) as const;

/** One id of a card or variant, as one feed said it. */
export class IdAssertionV2 {
  @ApiProperty(KIND)
  kind!: IdKind;

  @ApiProperty({ description: 'The id as the marketplace or provider writes it.', example: '1029' })
  value!: string;

  @ApiProperty(FEED)
  feed!: IdFeed | null;

  @ApiProperty(DAY('first'))
  first_seen!: string | null;

  @ApiProperty(DAY('last'))
  last_seen!: string | null;
}

/** A variant's ids (its SKUs). */
export class VariantIdsV2 {
  @ApiProperty({ format: 'uuid', description: 'The variant’s id (v2 `variants[].id`).' })
  id!: string;

  @ApiProperty({ description: 'The variant’s legacy slug.' })
  slug!: string;

  @ApiProperty({ type: () => [IdAssertionV2] })
  ids!: IdAssertionV2[];
}

/** One assertion a conflict is made of: who said which value of which card or variant. */
export class IdConflictAssertionV2 {
  @ApiProperty({ format: 'uuid' })
  card_id!: string;

  @ApiProperty()
  card_slug!: string;

  @ApiProperty({ format: 'uuid', nullable: true, type: 'string', description: 'null: the card’s own id.' })
  variant_id!: string | null;

  @ApiProperty({ nullable: true, type: 'string' })
  variant_slug!: string | null;

  @ApiProperty({ example: '1030' })
  value!: string;

  @ApiProperty({ enum: ID_FEEDS, example: 'scryfall' })
  feed!: IdFeed;

  @ApiProperty(DAY('last'))
  last_seen!: string | null;
}

/** Where the feeds do not agree. */
export class IdConflictV2 {
  @ApiProperty({
    enum: ['values_differ', 'value_shared'],
    description:
      '`values_differ`: two feeds give one card (or variant) different values of one kind, each feed’s latest values compared; `value_shared`: one value of a kind is given to more than one card (or variant).',
    example: 'values_differ',
  })
  reason!: 'values_differ' | 'value_shared';

  @ApiProperty(KIND)
  kind!: IdKind;

  @ApiProperty({
    description: 'The disagreement in words.',
    example: 'tcgplayer_product: mtgjson says 1029, scryfall says 1030',
  })
  detail!: string;

  @ApiProperty({ type: () => [IdConflictAssertionV2] })
  assertions!: IdConflictAssertionV2[];
}

/** GET /v2/cards/{id}/ids. */
export class CardIdsV2 {
  @ApiProperty({ format: 'uuid', description: 'The card’s id (v2 `id`).' })
  id!: string;

  @ApiProperty({ description: 'The card’s legacy slug.' })
  slug!: string;

  @ApiProperty({ type: () => [IdAssertionV2], description: 'The card’s own ids, by kind, value and feed.' })
  ids!: IdAssertionV2[];

  @ApiProperty({ type: () => [VariantIdsV2], description: 'The variants any feed gave an id, by slug.' })
  variants!: VariantIdsV2[];

  @ApiProperty({
    type: () => [IdConflictV2],
    description: 'Every disagreement between feeds over this card’s ids; empty when they agree.',
  })
  conflicts!: IdConflictV2[];
}

export class CardIdsV2Response {
  @ApiProperty({ type: () => CardIdsV2 })
  data!: CardIdsV2;
}

/** One feed's saying, in a lookup: an assertion without the id it asserts. */
export class IdSayingV2 extends PickType(IdAssertionV2, ['feed', 'first_seen', 'last_seen'] as const) {}

/** A card (or variant) a looked-up id is given to. */
export class IdHolderV2 {
  @ApiProperty({ format: 'uuid', description: 'The card’s id: `GET /v2/cards/{id}` takes it.' })
  card_id!: string;

  @ApiProperty()
  card_slug!: string;

  @ApiProperty({ format: 'uuid', nullable: true, type: 'string', description: 'null: the card’s own id.' })
  variant_id!: string | null;

  @ApiProperty({ nullable: true, type: 'string' })
  variant_slug!: string | null;

  @ApiProperty({ type: () => [IdSayingV2], description: 'Which feeds said it, and when.' })
  asserted_by!: IdSayingV2[];
}

/** GET /v2/ids/{kind}/{value}. */
export class IdLookupV2 {
  @ApiProperty(KIND)
  kind!: IdKind;

  @ApiProperty({ example: '1029' })
  value!: string;

  @ApiProperty({ type: () => [IdHolderV2], description: 'Empty when no feed gave this id to any card.' })
  cards!: IdHolderV2[];

  @ApiProperty({
    type: () => [IdConflictV2],
    description: 'Non-empty when the id is given to more than one card.',
  })
  conflicts!: IdConflictV2[];
}

export class IdLookupV2Response {
  @ApiProperty({ type: () => IdLookupV2 })
  data!: IdLookupV2;
}
