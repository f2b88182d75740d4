/**
 * Runs a command in a process group of its own, collecting its output, and kills the whole group
 * at the timeout and again once it exits (whatever it left behind goes with it). Both halves of the
 * real-client harness start processes this way: the runner in its namespace, and each CLI turn.
 */
import { spawn } from 'node:child_process';

export interface GroupOutcome {
  code: number | null;
  signal: string | null;
  stdout: Buffer[];
  stderr: Buffer[];
  timedOut: boolean;
  /** Why the command could not start, when it could not. */
  spawnError?: string;
}

const killGroup = (pid: number | undefined) => {
  try {
    if (pid !== undefined) process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
};

export function runProcessGroup(argv: readonly string[], o: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs: number }): Promise<GroupOutcome> {
  return new Promise((resolve) => {
    const child = spawn(argv[0]!, argv.slice(1), { cwd: o.cwd, ...(o.env ? { env: o.env } : {}), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => stdout.push(b));
    child.stderr.on('data', (b: Buffer) => stderr.push(b));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, o.timeoutMs);
    let done = false;
    const finish = (code: number | null, signal: string | null, spawnError?: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      killGroup(child.pid);
      resolve({ code, signal, stdout, stderr, timedOut, ...(spawnError ? { spawnError } : {}) });
    };
    child.once('error', (e) => finish(null, null, e.message));
    child.once('close', (code, signal) => finish(code, signal));
  });
}
