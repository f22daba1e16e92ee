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
  '/v1/bulk',
  '/v1/bulk/:game/:format',
  '/v2/cards',
  '/v2/cards/:id',
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
 * What the proxy's routes refuse of a target the guard accepted, worded as Express refused it when
 * they were its routes (`v1` and `v1/*path`, v2 alike), so clients keep the same answers: `/v1/`
 * matches neither (404), and a path segment after the version that does not percent-decode (as
 * UTF-8) is a 400 naming that segment. Undefined: the request is proxied.
 */
export function routeRefusal(
  target: Pick<RequestTarget, 'path' | 'version'>,
  method: string,
): { readonly status: 400 | 404; readonly code: string; readonly message: string } | undefined {
  if (target.path === `/${target.version}/`)
    return { status: 404, code: 'NOT_FOUND', message: `No route for ${method} ${target.path}.` };
  const segments = target.path.split('/').slice(2);
  const undecodable = segments.find((segment) => segment.includes('%') && !decodes(segment));
  if (undecodable !== undefined)
    return { status: 400, code: 'INVALID_REQUEST', message: `Failed to decode param '${undecodable}'` };
  return undefined;
}

function decodes(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

/** Every template, for the check against the OpenAPI documents. */
export const ROUTE_TEMPLATES: readonly string[] = TEMPLATES.map((t) => t.template);
