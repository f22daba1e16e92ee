/**
 * Node flags every HTTP service (api-gateway, api-v1, api-v2) runs with, wherever it is started:
 * `npm start`, `npm run bench:api` (floors included, so a ratio compares like with like), and, as
 * literal copies, `docker/Dockerfile` and `docker/compose.yaml`.
 *
 * `--initial-old-space-size`: V8 sizes a fresh heap's old generation from the survival it sees at
 * start-up, a few tens of MB for these services, and then starts incremental marking whenever less
 * than about four young generations of room is left: under load, a full mark of the heap every
 * 100 to 300 ms (measured with `--trace-gc`: the gateway 37 Mark-Compacts in about 12 s of v1
 * lookups, each freeing 6 of 33 MB, with their marking on the helper threads besides). A limit
 * configured up front is kept instead of shrunk. Measured with `npm run bench:api -- --rows
 * v1-uniform` at full, one run each on this machine: 408 req/s without, 804 with 128 MB (gateway
 * 1,392 → 552 µs of CPU per lookup, api-v1 1,792 → 778), 921 with 256 MB. But a whole bench run
 * left api-v1 at 370 MB resident with 128 MB (its batch and search rows move megabytes per
 * request), past the 300 MB target; with 64 MB the lookups keep the gain (878 req/s; gateway 554,
 * api-v1 748 µs per lookup) and api-v1 was at 282 MB after the search and batch rows.
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ['--initial-old-space-size=64'];
