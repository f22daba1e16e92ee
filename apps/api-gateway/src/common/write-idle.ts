import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

/** How a stored body is cut into writes, so that a client's progress shows as 'drain' events. */
const SLICE_BYTES = 64 * 1024;

export interface WriteIdleDeadline {
  /** After each write: arms the deadline when the write left the response backpressured. */
  wrote(): void;
  /** After the last write: arms it until the client has taken the end ('finish'). */
  ended(): void;
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
  const arm = () => {
    if (timer === undefined && !res.destroyed) timer = setTimeout(stalled, idleMs);
  };
  // An ended response whose last bytes still wait in the socket has no more writes to arm the
  // deadline, and the client may stop there as well as anywhere: it stays armed until 'finish'.
  const disarm = () => {
    clearTimeout(timer);
    timer = undefined;
    if (res.writableEnded && !res.writableFinished) arm();
  };
  const stop = () => {
    clearTimeout(timer);
    timer = undefined;
    res.off('drain', disarm);
    res.off('finish', stop);
    res.off('close', stop);
  };
  res.on('drain', disarm);
  res.once('finish', stop);
  res.once('close', stop);
  return {
    wrote: () => {
      if (res.writableNeedDrain) arm();
    },
    ended: () => {
      if (!res.writableFinished) arm();
    },
    stop,
  };
}

/**
 * Sends a body held in memory (a page, an asset, a small proxied answer) in slices under the
 * write-idle deadline: a client that stops reading is cut after `idleMs` (and `onCut` told),
 * instead of holding the body and its connection. A body of one slice leaves in one write.
 */
export function endWithin(res: ServerResponse, body: Buffer, idleMs: number, onCut?: () => void): void {
  const deadline = writeIdleDeadline(res, idleMs, () => {
    res.destroy();
    onCut?.();
  });
  if (body.length <= SLICE_BYTES) {
    res.end(body);
    deadline.ended();
    return;
  }
  const slices = Array.from({ length: Math.ceil(body.length / SLICE_BYTES) }, (_, i) =>
    body.subarray(i * SLICE_BYTES, (i + 1) * SLICE_BYTES),
  );
  const source = Readable.from(slices, { objectMode: false });
  source.pipe(res);
  source.on('data', deadline.wrote);
  // After pipe's own 'end' listener, which ends the response.
  source.on('end', deadline.ended);
}
