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

/** Every template, for the check against the OpenAPI documents. */
export const ROUTE_TEMPLATES: readonly string[] = TEMPLATES.map((t) => t.template);
