/**
 * RFC 7807 `type` of a v2 problem: `{docsUrl}#<slug>`, the slug being the code in kebab case
 * (`INVALID_REQUEST` → `#invalid-request`). One rule for the gateway and api-v2, so a client sees
 * the same type for the same code whichever of them answered.
 */
export function problemType(docsUrl: string, code: string): string {
  return `${docsUrl}#${code.toLowerCase().replace(/_/g, '-')}`;
}
