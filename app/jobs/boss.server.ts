import PgBoss from 'pg-boss';
import { getEnv } from '../env.server.ts';
import { parsePayload, queues, type QueueDefinition, type QueueInput, type QueueName } from './queues.server.ts';

/**
 * Job sending and the queues' setup, shared by the web process, scripts and the
 * worker (worker/ imports this; app/ never imports worker/, see
 * docs/decisions/009-layers-and-imports.md).
 *
 * `worker` runs jobs, pg-boss maintenance and the cron clock; `web` only sends.
 * Keeping maintenance and cron out of the web keeps every web replica from
 * polling the job tables.
 */
type BossRole = 'worker' | 'web';

/** Where pg-boss's own errors go: the worker passes its logger, the web writes to stderr. */
type BossLog = { error(message: string): void };
const stderrLog: BossLog = { error: (message) => console.error(message) };

const roles = new WeakMap<PgBoss, BossRole>();

export function createBoss(databaseUrl: string, { role, log = stderrLog }: { role: BossRole; log?: BossLog }): PgBoss {
  const boss = new PgBoss({
    connectionString: databaseUrl,
    application_name: `finflow-${role}`,
    ...(role === 'web' ? { supervise: false, schedule: false, max: 2 } : {}),
  });
  // Without a listener, an 'error' event (a dropped connection during maintenance,
  // a failed cron tick) would be thrown as an uncaught exception and kill the process.
  boss.on('error', (error) => log.error(`pg-boss (${role}): ${error.message}`));
  roles.set(boss, role);
  return boss;
}

/**
 * Creates every queue declared in queues.server.ts (send() to a missing queue silently
 * returns null). The worker also brings existing queues' options up to date and
 * owns the schedules: it upserts the declared ones and removes any that are no
 * longer declared. Safe to run from several processes at once.
 */
export async function ensureQueues(boss: PgBoss, { role = roles.get(boss) ?? 'web' }: { role?: BossRole } = {}) {
  const declared: readonly QueueDefinition[] = queues;

  for (const { name, options } of declared) {
    // pg-boss normalises the options object it is given in place; hand it a copy.
    const queueOptions = (): PgBoss.Queue => ({ name, ...options });
    if (!(await boss.getQueue(name))) {
      try {
        await boss.createQueue(name, queueOptions());
        continue;
      } catch (error) {
        // Another process created it between our check and our create.
        if (!isAlreadyExists(error)) throw error;
      }
    }
    if (role === 'worker') await boss.updateQueue(name, queueOptions());
  }

  if (role !== 'worker') return;
  const scheduled = new Set<string>();
  for (const { name, schedule } of declared) {
    if (!schedule) continue;
    await boss.schedule(name, schedule.cron, undefined, { tz: schedule.tz ?? 'UTC' });
    scheduled.add(name);
  }
  for (const { name } of await boss.getSchedules()) {
    if (!scheduled.has(name)) await boss.unschedule(name);
  }
}

function isAlreadyExists(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  // 23505 unique_violation, 42P07 duplicate_table
  return code === '23505' || code === '42P07' || (error instanceof Error && /already exists/i.test(error.message));
}

let sender: Promise<PgBoss> | undefined;

/**
 * Queues a job from the web process (or a script). The payload is checked
 * against the queue's schema here, so a bad call fails in the request that made
 * it rather than later in the worker. Returns the job id, or null when pg-boss
 * deduplicated the job (singletonKey, throttling, or a singleton queue policy).
 */
export async function sendJob<Name extends QueueName>(name: Name, data: QueueInput<Name>, options: PgBoss.SendOptions = {}): Promise<string | null> {
  const payload = parsePayload(name, data);
  const boss = await getSender();
  // pg-boss stores whatever JSON it is given; jobs without a schema carry null.
  return boss.send(name, payload as object, { ...options });
}

function getSender(): Promise<PgBoss> {
  sender ??= (async () => {
    const { DATABASE_URL } = getEnv();
    if (!DATABASE_URL) throw new Error('DATABASE_URL is not set; cannot send jobs');
    const boss = createBoss(DATABASE_URL, { role: 'web' });
    await boss.start();
    await ensureQueues(boss);
    return boss;
  })().catch((error: unknown) => {
    sender = undefined; // a start that failed (database down) is tried again on the next send
    throw error;
  });
  return sender;
}

/** Closes the sender's connections (web shutdown, tests). */
export async function stopSender(): Promise<void> {
  const starting = sender;
  sender = undefined;
  const boss = await starting?.catch(() => undefined);
  await boss?.stop({ graceful: false });
}
