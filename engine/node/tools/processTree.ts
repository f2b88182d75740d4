import { existsSync, readdirSync, readFileSync } from 'node:fs';

/**
 * The descendants of a command that left its process group (`setsid`, a daemon's double fork), on
 * Linux through `/proc`, without root: a group kill misses them. Two nets, because a process whose
 * parent exits is re-parented to init and drops out of the tree:
 * - the tree: while the command runs, `observe()` records every descendant (pid with its start
 *   time, so a reused pid is never taken for it); a recorded process stays recorded after its parent dies;
 * - a marker: every command gets a variable of its own (`STRATA_RUN_COMMAND=<id>`), inherited by
 *   whatever it starts, so a process carrying it is found at the end wherever it was re-parented.
 * What escapes both: a process that clears its environment and leaves its parent between two
 * observations. cgroups would close that too but need privileges a desktop app does not have.
 * Elsewhere (macOS, Windows) there is no `/proc`: `available()` is false and only the group is killed.
 */

/** The variable that marks a command's processes. */
export const MARKER_VARIABLE = 'STRATA_RUN_COMMAND';
/** How often a running command's tree is recorded. */
export const OBSERVE_MS = 100;
const MAX_SWEEPS = 50;
const SWEEP_PAUSE_MS = 20;

interface Proc {
  pid: number;
  ppid: number;
  /** Start time in clock ticks since boot (field 22 of `stat`): with the pid, one process's identity. */
  start: string;
  zombie: boolean;
}

function readProc(pid: number): Proc | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) may hold blanks and parentheses: fields are counted after its last ")".
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { pid, ppid: Number(fields[1]), start: fields[19] ?? '', zombie: fields[0] === 'Z' || fields[0] === 'X' };
}

function allProcs(): Proc[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const procs: Proc[] = [];
  for (const name of names) {
    if (!/^[0-9]+$/.test(name)) continue;
    const proc = readProc(Number(name));
    if (proc !== undefined && !proc.zombie) procs.push(proc);
  }
  return procs;
}

function carries(pid: number, marker: string): boolean {
  try {
    return `\u0000${readFileSync(`/proc/${pid}/environ`, 'latin1')}`.includes(`\u0000${marker}\u0000`);
  } catch {
    return false; // gone, or another user's
  }
}

/** One command's descendants, recorded while it runs and killed, all of them, when it ends. */
export class DescendantTracker {
  private readonly seen = new Map<number, string>();

  /** `marker` is `MARKER_VARIABLE=<id>` as set in the command's environment; call right after the spawn. */
  constructor(
    rootPid: number,
    private readonly marker: string,
  ) {
    const root = readProc(rootPid);
    if (root !== undefined) this.seen.set(rootPid, root.start);
  }

  /** Whether this system has the `/proc` the tracker reads. */
  static available(): boolean {
    return process.platform === 'linux' && existsSync('/proc/self/stat');
  }

  /** Record the live descendants of the command and of every process recorded before. */
  observe(): void {
    this.collect(allProcs());
  }

  /** Send `signal` to every live descendant recorded or carrying the marker; how many there were. */
  signalAll(signal: NodeJS.Signals): number {
    const procs = allProcs();
    const targets = this.collect(procs);
    for (const p of procs) if (!targets.has(p.pid) && p.pid !== process.pid && carries(p.pid, this.marker)) targets.add(p.pid);
    for (const pid of targets) {
      try {
        process.kill(pid, signal);
      } catch {
        // Already gone.
      }
    }
    return targets.size;
  }

  /** SIGKILL every descendant, again and again until a sweep finds none left (at most 50 sweeps). */
  async killAll(): Promise<void> {
    for (let i = 0; i < MAX_SWEEPS && this.signalAll('SIGKILL') > 0; i++) await new Promise((r) => setTimeout(r, SWEEP_PAUSE_MS));
  }

  /** Add the descendants in `procs` of every recorded process to the record; return the recorded ones alive. */
  private collect(procs: readonly Proc[]): Set<number> {
    const byPid = new Map(procs.map((p) => [p.pid, p]));
    const children = new Map<number, Proc[]>();
    for (const p of procs) {
      const siblings = children.get(p.ppid);
      if (siblings === undefined) children.set(p.ppid, [p]);
      else siblings.push(p);
    }
    const alive = new Set<number>();
    const stack: Proc[] = [];
    for (const [pid, start] of this.seen) {
      const p = byPid.get(pid);
      if (p !== undefined && p.start === start) stack.push(p);
    }
    while (stack.length > 0) {
      const p = stack.pop() as Proc;
      if (alive.has(p.pid) || p.pid === process.pid) continue;
      alive.add(p.pid);
      this.seen.set(p.pid, p.start);
      stack.push(...(children.get(p.pid) ?? []));
    }
    return alive;
  }
}
