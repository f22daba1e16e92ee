/**
 * How every HTTP service (api-gateway, api-v1, api-v2) runs, wherever it is started: `npm start`,
 * `npm run bench:api` (floors included, so a ratio compares like with like), and, as literal
 * copies, `docker/Dockerfile` and `docker/compose.yaml`. The measurements behind each value are in
 * the commits that set them.
 *
 * - `--initial-old-space-size=64`: V8 sizes a fresh heap's old generation from the survival it
 *   sees at start-up, a few tens of MB here, and then marks the whole heap every few hundred
 *   milliseconds under load. A size configured up front is kept instead.
 *
 * Not `--max-semi-space-size=32`: it halved api-v1's CPU per batch, but left both services past
 * 300 MB resident after a bench run.
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ['--initial-old-space-size=64'];

/**
 * Environment every service runs with, besides its configuration.
 *
 * - `MALLOC_MMAP_THRESHOLD_=131072`: glibc raises its threshold for giving a large block its own
 *   mapping to the size of the last such block freed, so after the first megabyte-sized answer
 *   buffer, later ones came from the heap, whose freed space is kept: resident memory only grew.
 *   A fixed threshold maps every block over 128 KiB and unmaps it when freed. (glibc only; musl
 *   ignores it.)
 */
export const SERVICE_ENV: Readonly<Record<string, string>> = { MALLOC_MMAP_THRESHOLD_: '131072' };
