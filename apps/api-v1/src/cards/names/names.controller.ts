import { Controller, Get, Inject, Query, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, CachedResponder } from '@tcg/http-service';
import { CATALOGUE, CatalogueRepository, requireGame } from '@tcg/persistence';
import type { Request, Response } from 'express';
import { ApiErrorResponses } from '../../common/decorators/api-docs.decorator';
import { Usage, UsageMetadataDto } from '../../common/decorators/usage.decorator';
import { v1SendOptions } from '../../common/send-options';
import { NAMES_QUERY } from './names-query.schema';
import { NameSuggestionsResponseDto, toNameSuggestionDto } from './names.dto';

/** GET /v1/cards/autocomplete: card names for a name being typed, from the index built for them. */
@ApiTags('cards')
@ApiKeyAuth()
@Controller('v1/cards/autocomplete')
export class NamesController {
  constructor(
    @Inject(CATALOGUE) private readonly catalogue: CatalogueRepository,
    private readonly responses: CachedResponder,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'autocompleteCardNames',
    summary: 'Suggest card names as one types',
    description:
      'Up to 20 distinct card names: those with a word starting with `q` first (the names more cards carry first, then those that start with it), then, when none matches so, names close to `q` for a typo. Metered like any request.',
  })
  @NAMES_QUERY.document()
  @ApiOkResponse({ type: NameSuggestionsResponseDto, description: 'The suggested names, best first.' })
  @ApiErrorResponses(400, 401, 429)
  async suggest(
    @Query() query: Record<string, unknown>,
    @Usage() usage: UsageMetadataDto,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const parsed = NAMES_QUERY.parse(query);
    await this.responses.send(req, res, v1SendOptions(req, usage, parsed, '*'), async () => {
      const game = parsed.game === undefined ? undefined : await requireGame(this.catalogue, parsed.game);
      const names = await this.catalogue.suggestCardNames({
        text: parsed.q,
        gameId: game?.id,
        limit: parsed.limit,
      });
      const body: NameSuggestionsResponseDto = { data: names.map(toNameSuggestionDto), _metadata: usage };
      return { body };
    });
  }
}
