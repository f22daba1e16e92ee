import { slugify } from './slug';

export const GRADING_COMPANIES = ['PSA', 'BGS', 'CGC', 'BCCG', 'BVG', 'SGC'] as const;
export type GradingCompany = (typeof GRADING_COMPANIES)[number];

export function parseGradingCompany(value: string): GradingCompany | undefined {
  const upper = value.trim().toUpperCase();
  return (GRADING_COMPANIES as readonly string[]).includes(upper) ? (upper as GradingCompany) : undefined;
}

/**
 * A grading of a slabbed card. `grade` is null only for cards graded as authentic; `gradeLabel` is a
 * special designation (e.g. "Black Label", "Pristine", "Gem Mint"); `qualifier` an off-grade mark
 * such as "OC" (off-centre), priced separately.
 */
export interface Grading {
  readonly company: GradingCompany;
  readonly grade: number | null;
  readonly gradeLabel: string | null;
  readonly qualifier: string | null;
}

function formatGrade(grade: number): string {
  return Number.isInteger(grade) ? String(grade) : grade.toFixed(1);
}

/** Display-ready grade string: `PSA 10`, `BGS 9.5 Black Label`, `PSA 8 (OC)`, `PSA Authentic`. */
export function canonicalGrade(g: Grading): string {
  const parts: string[] = [g.company, g.grade === null ? 'Authentic' : formatGrade(g.grade)];
  if (g.gradeLabel) parts.push(g.gradeLabel);
  let text = parts.join(' ');
  if (g.qualifier) text += ` (${g.qualifier})`;
  return text;
}

/** Slug part that replaces the condition in a graded variant slug: `psa-10`, `bgs-9-5-black-label-oc`. */
export function gradingSlug(g: Grading): string {
  const parts: string[] = [g.company, g.grade === null ? 'authentic' : formatGrade(g.grade)];
  if (g.gradeLabel) parts.push(g.gradeLabel);
  if (g.qualifier) parts.push(g.qualifier);
  return slugify(parts.join(' '));
}
