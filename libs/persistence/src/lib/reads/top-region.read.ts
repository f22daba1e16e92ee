import type { ReadSource } from '../read-replicas';
import { db } from './compile';
import { rowSchema } from './row-schema';
import { runRead } from './run-read';

const ROW = rowSchema('top region', { priced: 'boolean' });

/**
 * Whether card_tops holds `region` (something is priced there): a statement of its own, so that
 * the page's statement names the card_tops region as a constant the planner sees (`topRegion`).
 */
export function topRegionStatement(region: string) {
  return db.selectNoFrom((eb) =>
    eb
      .exists(eb.selectFrom('card_tops').select(eb.lit(1).as('one')).where('region', '=', region))
      .as('priced'),
  );
}

export async function readTopRegion(source: ReadSource, region: string): Promise<boolean> {
  const [row] = await runRead(source, ROW, topRegionStatement(region));
  return row!.priced;
}
