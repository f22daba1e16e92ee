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
 * 1,392 → 552 µs of CPU per lookup, api-v1 1,792 → 778), 921 with 256 MB; resident memory after
 * the run at most 236 MB with 128 MB. 128 MB keeps each service well under the 300 MB target.
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ['--initial-old-space-size=128'];
