import type { Grading, GradingCompany } from '@tcg/domain';
import { hash32 } from './stable-hash';

function g(
  company: GradingCompany,
  grade: number | null,
  gradeLabel: string | null = null,
  qualifier: string | null = null,
): Grading {
  return { company, grade, gradeLabel, qualifier };
}

/** Every card worth slabbing gets these: the grades that trade most. */
const CORE = [g('PSA', 10), g('PSA', 9), g('BGS', 9.5), g('CGC', 9.5)];
/** valueTier >= 4 (about $10 and up). */
const MID = [g('PSA', 8), g('BGS', 9), g('SGC', 10)];
/** valueTier >= 6 (about $100 and up). */
const HIGH = [g('PSA', 7), g('BGS', 10, 'Pristine'), g('CGC', 10, 'Pristine'), g('CGC', 9), g('SGC', 9.5)];
/** valueTier >= 8 (about $1,000 and up): the trophies, and authentic-only slabs of trimmed or altered copies. */
const TOP = [g('BGS', 10, 'Black Label'), g('PSA', null)];
/** Beckett's older scales, only seen on cards printed before 2000. */
const VINTAGE = [g('BVG', 8), g('BCCG', 9)];
const VINTAGE_HIGH = [g('BVG', 9), g('BCCG', 10)];
const OFF_CENTRE = g('PSA', 8, null, 'OC');
const AUTHENTIC = g('PSA', null);

/**
 * The graded slabs a valuable card gets, deterministic in `key` (the card's natural key):
 * CORE always; MID, HIGH and TOP by value tier; Beckett's vintage scales for cards printed before
 * 2000; and, rarely, an off-centre `PSA 8 (OC)` (1 card in 8 of tier >= 3) or a `PSA Authentic`
 * (1 in 16 below the TOP tier, which already has it).
 */
export function gradingsFor(card: { key: string; valueTier: number; vintage: boolean }): Grading[] {
  const out: Grading[] = [...CORE];
  if (card.valueTier >= 4) out.push(...MID);
  if (card.valueTier >= 6) out.push(...HIGH);
  if (card.valueTier >= 8) out.push(...TOP);
  if (card.vintage) {
    out.push(...VINTAGE);
    if (card.valueTier >= 6) out.push(...VINTAGE_HIGH);
  }
  const h = hash32(`graded:${card.key}`);
  if (card.valueTier >= 3 && h % 8 === 0) out.push(OFF_CENTRE);
  if (card.valueTier < 8 && (h >>> 8) % 16 === 1) out.push(AUTHENTIC);
  return out;
}
