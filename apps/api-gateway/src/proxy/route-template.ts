import type { RequestTarget } from '../common/request-target';

/**
 * The public routes of both versions as templates, the label a proxied request is counted and
 * logged under: the services' routes (their OpenAPI documents' paths, `{id}` written `:id`;
 * route-template.spec.ts checks that none is missing). A raw path would give a series per card.
 */
const TEMPLATES: readonly { readonly template: string; readonly pattern: RegExp }[] = [
  '/v1/games',
  '/v1/sets',
  '/v1/cards',
  '/v1/cards/autocomplete',
  '/v1/alerts',
  '/v1/alerts/:id',
  '/v1/alerts/:id/deliveries',
  '/v1/bulk',
  '/v1/bulk/archive',
  '/v1/bulk/archive/:date/:game/:format',
  '/v1/bulk/:game/:format',
  '/v2/cards',
  '/v2/cards/:id',
  '/v2/cards/:id/ids',
  '/v2/ids/:kind/:value',
].map((template) => ({
  template,
  pattern: new RegExp(`^${template.replace(/:[a-z]+/g, '[^/]+')}$`),
}));

/** The template of a proxied target's path, or undefined when no public route has its shape. */
export function routeTemplate(target: Pick<RequestTarget, 'path'>): string | undefined {
  for (const { template, pattern } of TEMPLATES) if (pattern.test(target.path)) return template;
  return undefined;
}

/**
 * What the proxy's routes refused when they were Express routes (`v1`, `v1/*path`, v2 alike), as
 * Express answered it, so clients keep those answers: `/v1/` matches neither (404), and a path
 * segment that does not percent-decode is a 400 naming it. Undefined: the request is proxied.
 */
export function routeRefusal(
  target: Pick<RequestTarget, 'path' | 'version'>,
  method: string,
): { readonly status: 400 | 404; readonly code: string; readonly message: string } | undefined {
  if (target.path === `/${target.version}/`)
    return { status: 404, code: 'NOT_FOUND', message: `No route for ${method} ${target.path}.` };
  for (const segment of target.path.split('/').slice(2)) {
    try {
      decodeURIComponent(segment);
    } catch {
      return { status: 400, code: 'INVALID_REQUEST', message: `Failed to decode param '${segment}'` };
    }
  }
  return undefined;
}

/** Every template, for the check against the OpenAPI documents. */
export const ROUTE_TEMPLATES: readonly string[] = TEMPLATES.map((t) => t.template);
