/**
 * The quota units a request costs (docs/spec/interface.md "Request cost on v2", docs/spec/decisions.md): 1, plus 1 for
 * `graded=include` and 1 per region beyond the first on v2 (so a v1 bulk download costs 1 whatever
 * its size). Computed from the raw query so the
 * gateway can charge before the service parses anything; repeated regions count once.
 */
export function requestCost(path: string, query: URLSearchParams): number {
  if (!(path === '/v2' || path.startsWith('/v2/'))) return 1;
  let cost = 1;
  if (query.getAll('graded').some((g) => g.trim().toLowerCase() === 'include')) cost += 1;
  const regions = new Set(
    query
      .getAll('regions')
      .flatMap((r) => r.split(','))
      .map((r) => r.trim().toUpperCase())
      .filter(Boolean),
  );
  if (regions.size > 1) cost += regions.size - 1;
  return cost;
}
