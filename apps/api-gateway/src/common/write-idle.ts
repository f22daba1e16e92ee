import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

/** How a stored body is cut into writes, so that a client's progress shows as 'drain' events. */
const SLICE_BYTES = 64 * 1024;

export interface WriteIdleDeadline {
  /** After each write: arms the deadline when the write left the response backpressured. */
  wrote(): void;
  stop(): void;
}

/**
 * The write-idle deadline of a response: while the client takes nothing of what the gateway has to
 * send (the response is backpressured and no 'drain' came) for `idleMs`, `stalled` is called, and
 * cuts it. A client that reads, however slowly, drains the backlog and disarms it.
 */
export function writeIdleDeadline(
  res: ServerResponse,
  idleMs: number,
  stalled: () => void,
): WriteIdleDeadline {
  let timer: NodeJS.Timeout | undefined;
  const disarm = () => {
    clearTimeout(timer);
    timer = undefined;
  };
  const stop = () => {
    disarm();
    res.off('drain', disarm);
    res.off('close', stop);
  };
  res.on('drain', disarm);
  res.once('close', stop);
  return {
    wrote: () => {
      if (timer === undefined && res.writableNeedDrain && !res.destroyed) timer = setTimeout(stalled, idleMs);
    },
    stop,
  };
}

/**
 * Sends a body held in memory (a page, an asset) in slices under the write-idle deadline: a client
 * that stops reading is cut after `idleMs`, instead of holding the body and its connection.
 */
export function endWithin(res: ServerResponse, body: Buffer, idleMs: number): void {
  if (body.length <= SLICE_BYTES) {
    res.end(body);
    return;
  }
  const slices = Array.from({ length: Math.ceil(body.length / SLICE_BYTES) }, (_, i) =>
    body.subarray(i * SLICE_BYTES, (i + 1) * SLICE_BYTES),
  );
  const source = Readable.from(slices, { objectMode: false });
  const deadline = writeIdleDeadline(res, idleMs, () => res.destroy());
  source.pipe(res);
  source.on('data', deadline.wrote);
}
