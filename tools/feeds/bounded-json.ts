import { readFile, stat } from 'node:fs/promises';

/**
 * `JSON.parse` for a feed's whole document, refusing first (in one linear pass over the text) a
 * document with more objects and arrays than real feed rows could hold in its size: a feed row is
 * tens to hundreds of bytes, so a document of `{}` after `{}` within the size cap would otherwise
 * parse into tens of millions of objects and exhaust the heap.
 */
export function parseBoundedJson(what: string, text: string, bytesPerObject = 24): unknown {
  const most = Math.max(1_000, Math.floor(text.length / bytesPerObject));
  let opened = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // `{` and `[`, also inside strings: an upper bound, which is all the check needs.
    if ((c === 0x7b || c === 0x5b) && ++opened > most)
      throw new Error(`${what}: more objects than ${text.length} bytes of feed rows could hold`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new Error(`${what}: not JSON (${(error as Error).message})`);
  }
}

/** A feed document kept as a file (an archive, `--from`): undefined when there is none. */
export async function readBoundedJsonFile(path: string, maxBytes: number): Promise<unknown> {
  const size = await stat(path).then(
    (s) => (s.isFile() ? s.size : undefined),
    () => undefined,
  );
  if (size === undefined) return undefined;
  if (size > maxBytes) throw new Error(`${path}: larger than ${maxBytes} bytes`);
  return parseBoundedJson(path, await readFile(path, 'utf8'));
}
