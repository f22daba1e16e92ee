import { Card, CardSet, Condition, Game, GradingCompany, Language, Variant } from '@tcg/domain';
import { CardEntity, GameEntity, SetEntity, VariantEntity } from '../entities';

export function toGame(e: GameEntity): Game {
  return { id: e.id, name: e.name };
}

export function toSet(e: SetEntity): CardSet {
  return { uuid: e.uuid, id: e.id, gameId: e.gameId, name: e.name, code: e.code, releaseDate: e.releaseDate };
}

/** `e` must be loaded with its `set` relation: a card names its set by slug. */
export function toCard(e: CardEntity): Card {
  if (!e.set) throw new Error(`card ${e.id} was loaded without its set`);
  return {
    uuid: e.uuid,
    id: e.id,
    gameId: e.gameId,
    setId: e.set.id,
    name: e.name,
    number: e.number,
    rarity: e.rarity,
    details: e.details,
    vendorId: e.vendorId,
    opensetId: e.opensetId,
    imagedbId: e.imagedbId,
    sealed: e.sealed,
  };
}

/** The columns a domain variant is made of, as the entity (or a query aliasing them alike) has them. */
export type VariantColumns = Pick<
  VariantEntity,
  | 'uuid'
  | 'id'
  | 'cardUuid'
  | 'type'
  | 'condition'
  | 'printing'
  | 'language'
  | 'vendorSkuId'
  | 'gradingCompany'
  | 'grade'
  | 'gradeLabel'
  | 'gradingQualifier'
>;

/** Built as one literal per kind, without a spread: a page or batch builds thousands of them. */
export function toVariant(e: VariantColumns): Variant {
  if (e.type === 'graded') {
    return {
      uuid: e.uuid,
      id: e.id,
      cardUuid: e.cardUuid,
      printing: e.printing,
      language: e.language as Language,
      vendorSkuId: e.vendorSkuId,
      type: 'graded',
      condition: null,
      grading: {
        company: e.gradingCompany as GradingCompany,
        grade: e.grade === null ? null : Number(e.grade),
        gradeLabel: e.gradeLabel,
        qualifier: e.gradingQualifier,
      },
    };
  }
  return {
    uuid: e.uuid,
    id: e.id,
    cardUuid: e.cardUuid,
    printing: e.printing,
    language: e.language as Language,
    vendorSkuId: e.vendorSkuId,
    type: 'raw',
    condition: e.condition as Condition,
    grading: null,
  };
}
