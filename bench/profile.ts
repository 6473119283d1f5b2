import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The web process's V8 CPU profile (`--cpu-prof`, written when it exits),
 * cut into the time windows of the bench's targets and summarised per
 * target: the top frames by self time (samples whose leaf is that function),
 * as a share of the window's busy samples ((idle) left out).
 *
 * The profile's timestamps are V8's monotonic clock in microseconds, which
 * on Linux is CLOCK_MONOTONIC, the clock of `process.hrtime` in the bench
 * process too, so a window recorded there selects the samples taken during it.
 *
 * Run alone on a profile: `npx tsx bench/profile.ts <file.cpuprofile> [top]`
 * prints the top frames of the whole profile.
 */

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface CpuProfile {
  nodes: Array<{ id: number; callFrame: CallFrame }>;
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileWindow {
  target: string;
  /** process.hrtime in microseconds. */
  startUs: number;
  endUs: number;
}

export interface TopFrame {
  function: string;
  /** file:line, the file relative to the repository (or the package under node_modules). */
  location: string;
  /** Percent of the window's busy samples with this frame as their leaf, one decimal. */
  selfPercent: number;
}

export interface TargetProfile {
  target: string;
  /** Samples taken in the window and how many of them were busy (not idle). */
  samples: number;
  busySamples: number;
  top: TopFrame[];
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Microseconds on the clock the profile's timestamps use. */
export const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

function location(frame: CallFrame): string {
  if (!frame.url) return '(native)';
  let file = frame.url.startsWith('file://') ? fileURLToPath(frame.url) : frame.url;
  const packages = file.lastIndexOf('/node_modules/');
  if (packages >= 0) file = file.slice(packages + 1);
  else if (file.startsWith(root)) file = path.relative(root, file);
  // lineNumber is 0-based in the profile.
  return `${file}:${frame.lineNumber + 1}`;
}

/** The sample's leaf frames between `startUs` and `endUs` (all when no window). */
function topFrames(profile: CpuProfile, top: number, window?: { startUs: number; endUs: number }): Omit<TargetProfile, 'target'> {
  const frameOf = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const self = new Map<string, { frame: CallFrame; samples: number }>();
  let time = profile.startTime;
  let samples = 0;
  let busy = 0;
  profile.samples.forEach((nodeId, index) => {
    time += profile.timeDeltas[index] ?? 0;
    if (window && (time < window.startUs || time > window.endUs)) return;
    samples += 1;
    const frame = frameOf.get(nodeId);
    if (!frame || frame.functionName === '(idle)') return;
    busy += 1;
    const key = `${frame.functionName}\u0000${frame.url}\u0000${frame.lineNumber}`;
    const entry = self.get(key) ?? { frame, samples: 0 };
    entry.samples += 1;
    self.set(key, entry);
  });
  const ranked = [...self.values()].sort((a, b) => b.samples - a.samples).slice(0, top);
  return {
    samples,
    busySamples: busy,
    top: ranked.map(({ frame, samples: n }) => ({
      function: frame.functionName || '(anonymous)',
      location: location(frame),
      selfPercent: busy ? Math.round((1000 * n) / busy) / 10 : 0,
    })),
  };
}

export function readProfile(file: string): CpuProfile {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
}

/** Per window, its top frames by self time. */
export function profileTargets(profile: CpuProfile, windows: ProfileWindow[], top = 10): TargetProfile[] {
  return windows.map((window) => ({ target: window.target, ...topFrames(profile, top, window) }));
}

export function printTargetProfile(entry: TargetProfile, log: (line: string) => void) {
  log(`profile ${entry.target}: ${entry.busySamples} busy of ${entry.samples} samples`);
  for (const frame of entry.top) log(`  ${`${frame.selfPercent.toFixed(1)} %`.padStart(7)}  ${frame.function.padEnd(36)} ${frame.location}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [file, top] = process.argv.slice(2);
  if (!file) {
    console.error('usage: npx tsx bench/profile.ts <file.cpuprofile> [top]');
    process.exit(2);
  }
  printTargetProfile({ target: path.basename(file), ...topFrames(readProfile(file), Number(top ?? 20)) }, console.log);
}
