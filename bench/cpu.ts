import fs from 'node:fs';
import path from 'node:path';

/**
 * Server CPU per request, read from /proc: the figure that decides throughput
 * on a machine whose cores the web process, PostgreSQL and the load tool
 * share. Other processes move it less than they move throughput, but a
 * machine loaded far beyond its cores still inflates it (caches, shared
 * cores): compare figures taken on a quiet machine.
 *
 * The web process is one process. PostgreSQL is the postmaster and its
 * children: the live backends' time, plus what the postmaster has collected
 * from children that exited (cutime/cstime). The worker's few polling queries
 * during a run count towards PostgreSQL; they are small beside a run of
 * thousands of requests.
 */

const TICKS_PER_SECOND = 100; // USER_HZ, 100 on Linux for every architecture we run on.

interface ProcessCpu {
  /** Own user + system time, ms. */
  own: number;
  /** Reaped children's user + system time, ms. */
  children: number;
  parent: number;
}

function readStat(pid: number): ProcessCpu | null {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name may hold spaces and parentheses: the fields start after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const ms = (index: number) => (Number(fields[index]) * 1000) / TICKS_PER_SECOND;
  // Fields after the name, from 0: state, ppid (1), … utime (11), stime (12), cutime (13), cstime (14).
  return { own: ms(11) + ms(12), children: ms(13) + ms(14), parent: Number(fields[1]) };
}

/** The web (or any single) process's CPU time so far, ms. */
export function processCpuMs(pid: number | undefined): number {
  return pid ? (readStat(pid)?.own ?? 0) : 0;
}

/** The whole PostgreSQL cluster's CPU time so far, ms: the postmaster of `pgDir`, its live children and its reaped ones. */
export function clusterCpuMs(pgDir: string): number {
  const postmaster = Number(fs.readFileSync(path.join(pgDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const root = readStat(postmaster);
  if (!root) return 0;
  let total = root.own + root.children;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (stat?.parent === postmaster) total += stat.own;
  }
  return total;
}
