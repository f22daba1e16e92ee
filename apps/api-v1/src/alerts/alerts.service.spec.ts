import { DomainError } from '@tcg/domain';
import { randomBytes } from 'node:crypto';
import type { UsageMetadataDto } from '../common/decorators/usage.decorator';
import { validateEnvironment } from '../config/environment';
import { AlertsService } from './alerts.service';
import { SecretBox } from './secrets/secret-box';

/** Nothing past the URL check is reached for a refused URL: any use of these fails the test. */
const unreachable = new Proxy(
  {},
  {
    get: () => () => {
      throw new Error('reached past the URL check');
    },
  },
);

const service = new AlertsService(
  unreachable as never,
  unreachable as never,
  new SecretBox({ id: 't', key: randomBytes(32) }),
  validateEnvironment({ DATABASE_URL: 'postgres://x/y', INTERNAL_TOKEN: 'x'.repeat(32) }),
);

const refusal = async (url: string): Promise<string> => {
  const error = await service
    .create({ variant_id: 'v', rule: 'price_above', value: 1, url }, 'k', {
      apiPlan: 'starter',
    } as UsageMetadataDto)
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(error).toBeInstanceOf(DomainError);
  return (error as DomainError).message;
};

describe('AlertsService: refused webhook URLs', () => {
  it('gives one text whatever a host is or whether it resolves: no map of internal names and addresses', async () => {
    const texts = new Set<string>();
    for (const url of [
      'https://127.0.0.1/hook',
      'https://10.0.0.1:8443/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/hook',
      'https://localhost/hook',
      'https://db.localhost:5432/',
      'https://nonexistent.invalid/hook',
    ])
      texts.add(await refusal(url));
    expect([...texts]).toEqual([
      "Invalid value for 'url' (rule destination_refused): url host must resolve to public internet " +
        'addresses only; loopback, private, link-local, shared (CGNAT), multicast and reserved addresses are refused',
    ]);
  });

  it('still names what is wrong with the text itself, which says nothing about the network', async () => {
    expect(await refusal('http://hooks.example.com/')).toContain('(rule https_required)');
    expect(await refusal('https://u:p@hooks.example.com/')).toContain('(rule credentials)');
    expect(await refusal('not a url')).toContain('(rule url_syntax)');
  });
});
