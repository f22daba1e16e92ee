import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PLANS } from '@tcg/domain';
import { operationsOf, type OpenApiOperations, renderLlmsTxt } from './llms-txt';

const ROOT = join(__dirname, '../../../..');
const documentOf = (file: string): OpenApiOperations =>
  JSON.parse(readFileSync(join(ROOT, 'docs/openapi', file), 'utf8')) as OpenApiOperations;

describe('llms.txt', () => {
  const v1 = documentOf('api-v1.json');
  const v2 = documentOf('api-v2.json');
  const text = renderLlmsTxt(v1, v2);

  it('follows the llms.txt layout: one H1 title first, a blockquote summary, H2 sections of links', () => {
    const lines = text.split('\n');
    expect(lines[0]).toBe('# Trading-card pricing API');
    expect(lines.filter((l) => l.startsWith('# '))).toHaveLength(1);
    expect(lines.find((l) => l.startsWith('> '))).toMatch(/x-api-key|API key/);
    const sections = lines.filter((l) => l.startsWith('## ')).map((l) => l.slice(3));
    expect(sections).toEqual(
      expect.arrayContaining([
        'Endpoints: v1 (stable)',
        'Endpoints: v2 (beta)',
        'MCP server',
        'Documents',
        'Optional',
      ]),
    );
    // Every link line is `- [name](url): description`, never a bare link.
    for (const line of lines.filter((l) => l.startsWith('- [')))
      expect(line).toMatch(/^- \[[^\]]+\]\([^)\s]+\): \S/);
  });

  // The drift check: a route added to either document and missing here fails this test.
  it.each([
    ['v1', v1, '/openapi/v1.json'],
    ['v2', v2, '/openapi/v2.json'],
  ])('lists every operation of the %s document, linked to it', (_version, document, link) => {
    const operations = operationsOf(document);
    expect(operations.length).toBeGreaterThan(0);
    for (const operation of operations) expect(text).toContain(`- [${operation}](${link}): `);
  });

  it('names each operation’s query parameters, so an agent knows what to send', () => {
    const cards = text.split('\n').find((l) => l.startsWith('- [GET /v1/cards](/openapi/v1.json)'));
    expect(cards).toContain('Query: q, game, set,');
    expect(cards).toContain('limit, offset');
  });

  it('states each plan’s limits as the plans in code have them', () => {
    for (const [name, plan] of Object.entries(PLANS))
      expect(text).toContain(
        `- ${name}: ${plan.perMinute.toLocaleString('en-US')} a minute, ${plan.perDay.toLocaleString('en-US')} a day`,
      );
  });

  it('lists a route a document gains, and drops one it loses', () => {
    const grown = {
      paths: { ...v2.paths, '/v2/cards/{id}/ids': { get: { summary: 'Marketplace ids of a card' } } },
    };
    expect(renderLlmsTxt(v1, grown)).toContain(
      '- [GET /v2/cards/{id}/ids](/openapi/v2.json): Marketplace ids of a card.',
    );
    const { ['/v1/sets']: _dropped, ...rest } = v1.paths;
    expect(renderLlmsTxt({ paths: rest }, v2)).not.toContain('[GET /v1/sets]');
  });
});
