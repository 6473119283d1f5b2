/**
 * Node flags of the two long-running processes (npm start, the benchmark; the
 * Dockerfile and docker-compose.yml repeat them). V8 otherwise lets the heap
 * grow towards a quarter of the machine's memory before collecting hard: under
 * 50 concurrent page requests the web process reached ~460 MB where ~240 MB
 * does with these limits; semi-spaces below 8 MB cost throughput in scavenges, and the web process's
 * 16 MB take about a tenth off a page's CPU against 8 MB, for some 15 MB more at peak (docs/benchmarks.md).
 * Exports and backups stream, so no request needs a large heap.
 *
 * The web process also turns off V8's allocation-site pretenuring. Under load V8
 * sees many of a list's row objects survive a scavenge (ten requests' rows are
 * alive at once) and starts allocating them straight in the old generation;
 * the strings those rows point at are then kept alive by them until the next
 * full collection, survive two scavenges and are promoted too, request after
 * request. GET /api/invoices promoted ~100 KB of its ~570 KB per request that
 * way, and its scavenges took 3–10 ms each; without pretenuring 8 KB, a third
 * of the collector's time, and a quarter of the web CPU per list request
 * (docs/benchmarks.md).
 */
export const WEB_NODE_FLAGS = ['--max-old-space-size=192', '--max-semi-space-size=16', '--no-allocation-site-pretenuring'];
export const WORKER_NODE_FLAGS = ['--max-old-space-size=256', '--max-semi-space-size=8'];

export const nodeFlagsFor = (entry: string) => (entry.includes('worker') ? WORKER_NODE_FLAGS : WEB_NODE_FLAGS);
