import { Controller, Get, Param, Query } from '@nestjs/common';
import { requestSchema } from '@tcg/http-service';
import type { CardIdsV2Response, IdLookupV2Response } from './dto/card-ids.dto';
import { CardIdsDocs, IdLookupDocs, IdsDocs } from './ids.docs.decorator';
import { IdsService } from './ids.service';

/** Neither route takes a query parameter: v2 refuses one it does not know (docs/spec/decisions.md). */
const NO_PARAMETERS = requestSchema({}, { unknown: 'reject' });

@IdsDocs()
@Controller('v2')
export class IdsController {
  constructor(private readonly ids: IdsService) {}

  @Get('cards/:id/ids')
  @CardIdsDocs()
  async ofCard(@Param('id') id: string, @Query() query: Record<string, unknown>): Promise<CardIdsV2Response> {
    NO_PARAMETERS.parse(query);
    return this.ids.ofCard(id);
  }

  @Get('ids/:kind/:value')
  @IdLookupDocs()
  async lookup(
    @Param('kind') kind: string,
    @Param('value') value: string,
    @Query() query: Record<string, unknown>,
  ): Promise<IdLookupV2Response> {
    NO_PARAMETERS.parse(query);
    return this.ids.lookup(kind, value);
  }
}
