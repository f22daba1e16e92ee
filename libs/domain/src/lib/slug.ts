/**
 * Lower-case kebab form: ASCII letters and digits separated by single hyphens. Accents are
 * folded (Æther → aether), apostrophes vanish (Urza's → urzas), everything else separates.
 */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/Æ/g, 'Ae')
    .replace(/æ/g, 'ae')
    .toLowerCase()
    .replace(/['’`]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Card slug `game-set-name-rarity` (docs/spec/decisions.md); `number` is appended only to break a collision. */
export function cardSlug(parts: {
  game: string;
  set: string;
  name: string;
  rarity: string;
  number?: string;
}): string {
  const base = [parts.game, parts.set, parts.name, parts.rarity].map(slugify).filter(Boolean).join('-');
  return parts.number === undefined ? base : `${base}-${slugify(parts.number)}`;
}
