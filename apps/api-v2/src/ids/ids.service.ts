import { Inject, Injectable } from '@nestjs/common';
import { abbreviate, invalidParameter, NotFoundError } from '@tcg/domain';
import {
  acceptedIdValue,
  ID_CROSSWALK,
  ID_KINDS,
  idKindOf,
  idValueOf,
  type IdCrosswalkReads,
} from '@tcg/persistence';
import type { CardIdsV2Response, IdLookupV2Response } from './dto/card-ids.dto';
import { idConflicts } from './id-conflicts';
import { toCardIdsResponse, toLookupResponse } from './ids.mapper';

/** The id crosswalk's routes: parse, read, find where the feeds disagree, map. */
@Injectable()
export class IdsService {
  constructor(@Inject(ID_CROSSWALK) private readonly crosswalk: IdCrosswalkReads) {}

  /** GET /v2/cards/{id}/ids: every id of the card and its variants; 404 when there is no such card. */
  async ofCard(id: string): Promise<CardIdsV2Response> {
    const found = await this.crosswalk.cardIds(id);
    if (found === undefined) throw new NotFoundError(`Card '${id}'`);
    return toCardIdsResponse(found, idConflicts(found.assertions, found.elsewhere));
  }

  /** GET /v2/ids/{kind}/{value}: the cards holding it; none is 200 with an empty list. */
  async lookup(kindText: string, valueText: string): Promise<IdLookupV2Response> {
    const kind = idKindOf(kindText);
    if (kind === undefined) throw invalidParameter('kind', abbreviate(kindText), ID_KINDS);
    const value = idValueOf(kind, valueText);
    if (value === undefined)
      throw invalidParameter('value', abbreviate(valueText, 40), acceptedIdValue(kind));
    const holders = await this.crosswalk.holders(kind, value);
    return toLookupResponse(kind, value, holders, idConflicts(holders));
  }
}
