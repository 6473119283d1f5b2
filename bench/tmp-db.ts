import { startEmbeddedDatabase } from '../db/embedded.ts';
const db = await startEmbeddedDatabase({ dataDir: process.argv[2]!, port: 55432, persistent: true });
console.log(db.url);
process.on('SIGTERM', async () => { await db.stop(); process.exit(0); });
setInterval(() => {}, 1 << 30);
