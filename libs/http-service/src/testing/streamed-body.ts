import type { ServerResponse } from 'node:http';

/**
 * Writes `count` copies of `part` to `res` as fast as the reader takes them (waiting for `drain`
 * when its buffers are full), then ends it; stops writing once `res` is destroyed. A stand-in
 * service's large body, for tests of what a slow or silent reader does to the gateway.
 */
export function writeParts(res: ServerResponse, part: Buffer, count: number): void {
  let left = count;
  const more = () => {
    while (left > 0 && !res.destroyed) {
      left -= 1;
      if (!res.write(part)) return void res.once('drain', more);
    }
    res.end();
  };
  more();
}
