/**
 * The print type a v1 printing names, lower-cased: v1 may carry a language suffix ("Normal -
 * Japanese"), and the print type is what matches. The suffix is whitespace, a dash, whitespace,
 * then text without a dash up to the end, and the whitespace before the dash goes with it.
 *
 * It was `replace(/\s+-\s+[^-]+$/, '')`, whose backtracking is cubic in the runs of spaces and
 * dashes: 6,000 characters held api-v1 for 9 s. This finds the same cut in one pass from the
 * end: the suffix can only start at the last dash, since the text after it holds none.
 */
export function printType(printing: string): string {
  const dash = printing.lastIndexOf('-');
  // After the dash: at least one whitespace, then at least one more character.
  if (dash < 1 || printing.length - dash < 3 || !isSpace(printing[dash + 1]!)) return printing.toLowerCase();
  let start = dash;
  while (start > 0 && isSpace(printing[start - 1]!)) start--;
  return start === dash ? printing.toLowerCase() : printing.slice(0, start).toLowerCase();
}

/** JavaScript's `\s`, the class the suffix was defined with, tested one character at a time. */
function isSpace(char: string): boolean {
  return /\s/.test(char);
}
