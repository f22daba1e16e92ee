import type { Language } from '@tcg/domain';
import { hash32 } from './stable-hash';

/**
 * Chooses at most `max` of the `available` non-English languages for one set, deterministically:
 * Japanese first when available (the foreign printing collectors pay a premium for), the rest in an
 * order fixed by a hash of the set code, so different sets get different languages.
 */
export function pickLanguages(available: readonly Language[], max: number, setKey: string): Language[] {
  const pool = available.filter((l) => l !== 'English');
  const picked: Language[] = pool.includes('Japanese') ? ['Japanese'] : [];
  const rest = pool
    .filter((l) => l !== 'Japanese')
    .map((l) => ({ l, h: hash32(`lang:${setKey}:${l}`) }))
    .sort((a, b) => a.h - b.h || (a.l < b.l ? -1 : 1));
  for (const { l } of rest) {
    if (picked.length >= max) break;
    picked.push(l);
  }
  return picked.slice(0, max);
}
