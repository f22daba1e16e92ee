import { isPlanName, PLAN_NAMES } from '@tcg/domain';
import { TypeOrmApiKeyRepository } from '@tcg/persistence';
import { withDatabase } from '../common/database';
import { log, parseArgs, runTool } from '../common/log';
import { keySignerOf } from './key-signer';

const USAGE = `usage: npm run keys -- <command>
  create --plan <${PLAN_NAMES.join('|')}> [--label text]   create a key (checked under API_KEY_SECRET); printed once
  list                                               every key: id, prefix, plan, label, created, revoked
  revoke <id|prefix>                                 the key stops working within KEY_CACHE_TTL_MS
  plan <id|prefix> <${PLAN_NAMES.join('|')}>              move a key to another plan`;

async function main(): Promise<number> {
  const { positional, options } = parseArgs(process.argv.slice(2));
  const [command, target, planArg] = positional;
  const usage = () => {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  };
  if (!command || !['create', 'list', 'revoke', 'plan'].includes(command)) return usage();
  const { signer, secretSet } = keySignerOf(process.env);
  return withDatabase(async (ds) => {
    const keys = new TypeOrmApiKeyRepository(ds, signer);
    switch (command) {
      case 'create': {
        const plan = options.get('plan');
        if (typeof plan !== 'string' || !isPlanName(plan)) return usage();
        const label = options.get('label');
        if (!secretSet)
          log('warn', 'API_KEY_SECRET is not set: the key is checked under the public default', {
            hint: 'a gateway with API_KEY_SECRET set refuses it; give this tool the same value',
          });
        const { key, record } = await keys.create(plan, typeof label === 'string' ? label : '');
        process.stdout.write(`${key}\n`);
        log('info', 'key created; it is shown only this once', {
          id: record.id,
          prefix: record.prefix,
          plan,
        });
        return 0;
      }
      case 'list':
        for (const k of await keys.list()) {
          process.stdout.write(
            `${[k.id, k.prefix, k.plan, JSON.stringify(k.label), k.createdAt.toISOString(), k.revokedAt?.toISOString() ?? '-'].join('\t')}\n`,
          );
        }
        return 0;
      case 'revoke':
        if (!target) return usage();
        if (!(await keys.revoke(target))) return notFound(target);
        log('info', 'key revoked', { key: target });
        return 0;
      default: {
        if (!target || !planArg || !isPlanName(planArg)) return usage();
        if (!(await keys.changePlan(target, planArg))) return notFound(target);
        log('info', 'plan changed', { key: target, plan: planArg });
        return 0;
      }
    }
  }, 1);
}

function notFound(target: string): number {
  log('error', 'no key with that id or prefix', { key: target });
  return 1;
}

runTool('keys', main);
