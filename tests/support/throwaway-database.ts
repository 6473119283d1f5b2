import pg from 'pg';

/**
 * A test run's database server (the unit tests' in global-db.ts, the end-to-end app's in
 * app-server.ts) is thrown away afterwards, and no test reads whether a commit would survive a
 * crash of the machine: its commits stop waiting for the disk (about 5 ms each on this VM, and a
 * DROP DATABASE up to seconds). The app is not told and behaves the same.
 */
export async function skipDiskFlushes(databaseUrl: string) {
  const client = new pg.Client(databaseUrl);
  await client.connect();
  try {
    for (const setting of ['fsync', 'synchronous_commit', 'full_page_writes']) await client.query(`ALTER SYSTEM SET ${setting} = off`);
    await client.query('SELECT pg_reload_conf()');
  } finally {
    await client.end();
  }
}
