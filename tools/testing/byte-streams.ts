/** `text` (or `bytes`) as a stream of chunks of `size` bytes, as a file or a socket gives them. */
export async function* chunksOf(text: string | Buffer, size: number): AsyncGenerator<Buffer> {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

/** Every item of `items`, in order. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
