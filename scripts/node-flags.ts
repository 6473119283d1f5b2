/**
 * Node flags of the two long-running processes (npm start, the benchmark; the
 * Dockerfile and docker-compose.yml repeat them). V8 otherwise lets the heap
 * grow towards a quarter of the machine's memory before collecting hard: under
 * 50 concurrent page requests the web process reached ~460 MB where ~240 MB
 * does with these limits; semi-spaces below 8 MB cost throughput in scavenges, and the web process's
 * 16 MB take about a tenth off a page's CPU against 8 MB, for some 15 MB more at peak (docs/benchmarks.md).
 * Exports and backups stream, so no request needs a large heap.
 */
export const WEB_NODE_FLAGS = ['--max-old-space-size=192', '--max-semi-space-size=16'];
export const WORKER_NODE_FLAGS = ['--max-old-space-size=256', '--max-semi-space-size=8'];

export const nodeFlagsFor = (entry: string) => (entry.includes('worker') ? WORKER_NODE_FLAGS : WEB_NODE_FLAGS);
