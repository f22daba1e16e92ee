import { Condition, GradingCompany, Language, Variant } from '@tcg/domain';
import { VariantEntity } from '../entities';
import type { Columns } from './row-schema';

/**
 * The columns a domain variant is made of, as the entity (or a query aliasing them alike) has them;
 * `type` as text: anything but `graded` is raw.
 */
export type VariantColumns = Pick<
  VariantEntity,
  | 'uuid'
  | 'id'
  | 'cardUuid'
  | 'condition'
  | 'printing'
  | 'language'
  | 'vendorSkuId'
  | 'gradingCompany'
  | 'grade'
  | 'gradeLabel'
  | 'gradingQualifier'
> & { readonly type: string };

/** One literal, without a spread: a read that renders per request builds one per variant. */
export function toVariant(e: VariantColumns): Variant {
  const graded = e.type === 'graded';
  return {
    uuid: e.uuid,
    id: e.id,
    cardUuid: e.cardUuid,
    printing: e.printing,
    language: e.language as Language,
    vendorSkuId: e.vendorSkuId,
    type: graded ? 'graded' : 'raw',
    condition: graded ? null : (e.condition as Condition),
    grading: graded
      ? {
          company: e.gradingCompany as GradingCompany,
          grade: e.grade === null ? null : Number(e.grade),
          gradeLabel: e.gradeLabel,
          qualifier: e.gradingQualifier,
        }
      : null,
  } as Variant;
}

/** The row schema's columns of `variantColumnsSql`'s select list. */
export const VARIANT_COLUMN_TYPES = {
  cardUuid: 'string',
  uuid: 'string',
  id: 'string',
  type: 'string',
  condition: 'string?',
  printing: 'string',
  language: 'string',
  vendorSkuId: 'string?',
  gradingCompany: 'string?',
  grade: 'string?',
  gradeLabel: 'string?',
  gradingQualifier: 'string?',
} as const satisfies Columns;

/** The select list of a variant's columns over `alias`, named as `VariantColumns` names them. */
export function variantColumnsSql(alias: string): string {
  return `${alias}.card_uuid AS "cardUuid", ${alias}.uuid, ${alias}.id, ${alias}.type, ${alias}.condition,
          ${alias}.printing, ${alias}.language, ${alias}.vendor_sku_id AS "vendorSkuId",
          ${alias}.grading_company AS "gradingCompany", ${alias}.grade, ${alias}.grade_label AS "gradeLabel",
          ${alias}.grading_qualifier AS "gradingQualifier"`;
}
