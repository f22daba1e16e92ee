/**
 * A plain-text table with a rule under the header. Columns named in `leftAligned` (by index) are
 * left-aligned, the others right-aligned; by default only the first.
 */
export function formatTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  leftAligned: readonly number[] = [0],
): string {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (cells: readonly string[]) =>
    header
      .map((_, c) => {
        const cell = cells[c] ?? '';
        return leftAligned.includes(c) ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!);
      })
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** A number for a table cell: thousands separated, `digits` decimals; '-' when absent. */
export function num(x: number | undefined, digits = 0): string {
  if (x === undefined || !Number.isFinite(x)) return '-';
  return x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** A latency in milliseconds: two decimals below 10 ms, one below 100, none above. */
export function ms(x: number | undefined): string {
  if (x === undefined || !Number.isFinite(x)) return '-';
  return num(x, x < 10 ? 2 : x < 100 ? 1 : 0);
}

/** `a / b` as a ratio cell such as `0.056×`; '-' when either side is missing. */
export function ratio(a: number | undefined, b: number | undefined): string {
  if (a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b) || b === 0) return '-';
  const r = a / b;
  return `${r.toFixed(r < 0.1 ? 3 : 2)}×`;
}

/** Bytes as B, KB or MB (1 KB = 1,000 B). */
export function bytes(x: number | undefined): string {
  if (x === undefined || !Number.isFinite(x)) return '-';
  if (x < 10_000) return `${num(x)} B`;
  if (x < 10_000_000) return `${num(x / 1000, 1)} KB`;
  return `${num(x / 1_000_000, 1)} MB`;
}
