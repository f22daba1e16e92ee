// Bound once: global lookups are slow inside vm contexts (Jest), and this runs per variant.
const { imul } = Math;

/**
 * 32-bit FNV-1a over UTF-16 code units, finished with the murmur3 avalanche so nearby strings land
 * far apart. Used wherever a rule needs a deterministic "random" choice (language picks, graded
 * extras, price spreads), so that nothing depends on call order or on a global RNG.
 */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = imul(h, 0x01000193);
  }
  return fmix32(h);
}

/** The murmur3 finaliser: a bijective mix of a 32-bit integer; returns an unsigned 32-bit integer. */
export function fmix32(value: number): number {
  let h = value | 0;
  h ^= h >>> 16;
  h = imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A deterministic number in [0, 1) for a string key. */
export function unitHash(text: string): number {
  return hash32(text) / 4294967296;
}
