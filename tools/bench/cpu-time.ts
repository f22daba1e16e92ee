import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) a process has used, from /proc; 0 where it cannot be read. */
function cpuSecondsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** Every process of this name (`postgres`: the server and its backends) visible in /proc. */
function pidsNamed(name: string): number[] {
  const pids: number[] = [];
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    return pids;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === name) pids.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return pids;
}

/** The servers on this machine whose processes are summed by name. */
const SERVERS = ['postgres', 'redis-server'];

/**
 * CPU seconds per tracked process and of each local server's processes together (PostgreSQL,
 * Redis), to tell how a row's CPU splits between the processes that served it. Server processes
 * are followed per pid: a backend that exits during a row takes its seconds with it, so a
 * server's figure is a lower bound.
 */
export class CpuAccounting {
  private readonly tracked = new Map<string, number>();

  track(name: string, pid: number): void {
    this.tracked.set(name, pid);
  }

  /** CPU seconds by tracked name, and by `<server>:<pid>` for each server process. */
  snapshot(): Map<string, number> {
    const out = new Map<string, number>();
    for (const [name, pid] of this.tracked) out.set(name, cpuSecondsOf(pid));
    for (const server of SERVERS)
      for (const pid of pidsNamed(server)) out.set(`${server}:${pid}`, cpuSecondsOf(pid));
    return out;
  }

  /** Microseconds of CPU per request between two snapshots, for processes that used any. */
  static perRequest(
    before: Map<string, number>,
    after: Map<string, number>,
    requests: number,
  ): Record<string, number> {
    const used = new Map<string, number>();
    if (requests <= 0) return {};
    for (const [key, seconds] of after) {
      // A server process is counted per pid, under the server's name: one that started during the
      // row (a pool reconnecting) counts from its start; one that exited took its seconds along.
      const colon = key.indexOf(':');
      const name = colon < 0 ? key : key.slice(0, colon);
      const start = before.get(key) ?? (colon < 0 ? seconds : 0);
      used.set(name, (used.get(name) ?? 0) + seconds - start);
    }
    const out: Record<string, number> = {};
    for (const [name, seconds] of used) if (seconds > 0) out[name] = Math.round((seconds * 1e6) / requests);
    return out;
  }
}
