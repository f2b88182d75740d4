import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { z } from 'zod';
import { parseArgs } from './args';
import { checkAllowed, entryPermits } from './allowedCommand';
import { isTestCommand, MAX_COMMAND_CHARS, parseCommandLine } from '../../runtime/commandLine';
import { confine, ConfinementError } from './confine';
import { DescendantTracker, MARKER_VARIABLE, OBSERVE_MS } from './processTree';
import { HeadTailCapture } from './outputCap';
import { toolError, type RunCommandMeta, type ToolContext, type ToolEnv, type ToolResult, type WorkspaceTool } from './types';

export const RUN_COMMAND = 'run_command';
/** After the main process exits, how long its output may keep draining before the group is killed. */
const DRAIN_MS = 500;

const schema = z.strictObject({ command: z.string().min(1).max(MAX_COMMAND_CHARS) });

/** Variables copied from the host's environment; nothing else (no API keys, no tokens) reaches a command. */
const PASSED_ON_POSIX = ['HOME', 'LANG'] as const;
const PASSED_ON_WINDOWS = ['HOME', 'LANG', 'USERPROFILE', 'SystemRoot', 'PATHEXT', 'TEMP', 'TMP'] as const;

/**
 * The environment of a command: PATH (only its absolute entries, so a workspace-relative `.` can
 * never shadow a program), HOME, LANG (default `C.UTF-8`), NO_COLOR=1; on Windows also the few
 * variables programs need to start. Nothing else is passed through.
 */
export function minimalEnv(source: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): Record<string, string> {
  const env: Record<string, string> = {};
  const win = platform === 'win32';
  const delimiter = win ? ';' : ':';
  const abs = win ? path.win32.isAbsolute : path.posix.isAbsolute;
  const pathValue = source['PATH'] ?? (win ? source['Path'] : undefined) ?? '';
  env['PATH'] = pathValue.split(delimiter).filter((p) => p !== '' && abs(p)).join(delimiter);
  for (const key of win ? PASSED_ON_WINDOWS : PASSED_ON_POSIX) {
    const value = source[key];
    if (value !== undefined) env[key] = value;
  }
  env['LANG'] ??= 'C.UTF-8';
  env['NO_COLOR'] = '1';
  return env;
}

/** ANSI escape sequences (colours, cursor moves): noise for a model. */
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

/**
 * `run_command`: run an allowlisted command in the workspace root, without a shell. The command
 * must parse (`parseCommandLine`: no shell metacharacters or line breaks) and be permitted by one
 * `[tools] allow` entry (`checkAllowed`: the entry exactly, or the entry followed by arguments its
 * program's grammar accepts, positionals confined to the workspace). It runs in its own process
 * group with `minimalEnv` plus a marker variable; at `timeout_ms` the group and every descendant
 * that left it get SIGTERM, then SIGKILL after a grace; when it ends, whatever it left running is
 * killed (`DescendantTracker`, Linux). stdout and stderr are captured together, capped at
 * `max_output_bytes` (head and tail kept). The result is an error when the exit code is not 0,
 * the command was killed or timed out.
 */
export function runCommandTool(env: ToolEnv): WorkspaceTool {
  const allowed = env.config.allow.length > 0 ? env.config.allow.map((a) => `\n- ${JSON.stringify(a)}: ${entryPermits(a)}`).join('') : ' none (run_command is disabled)';
  return {
    spec: {
      name: RUN_COMMAND,
      description:
        `Run a command in the workspace root, without a shell (no pipes, redirects, variables, subshells or ";"/"&&"). ` +
        `Only allowed commands run: an entry permits exactly itself, and more arguments only where listed; any other option, a path outside the workspace, and any argument with "%", "data:" or "file:" are refused. Allowed:${allowed}\n` +
        `Times out after ${env.config.timeoutMs} ms; output (stdout and stderr together) is capped at ${env.config.maxOutputBytes} bytes, keeping its start and end. ` +
        `The result reports the exit code.`,
      parameters: {
        type: 'object',
        properties: {
          command: { type: 'string', description: 'The command line, one of the allowed commands, e.g. "npm test -- src/foo.test.ts". Simple single or double quotes group words.' },
        },
        required: ['command'],
        additionalProperties: false,
      },
    },
    run: (args, ctx) => runCommand(env, args, ctx),
  };
}

async function runCommand(env: ToolEnv, args: unknown, ctx: ToolContext = {}): Promise<ToolResult> {
  const parsed = parseArgs(RUN_COMMAND, schema, args);
  if (!parsed.ok) return parsed.result;
  const { command } = parsed.value;
  const line = parseCommandLine(command);
  if (!line.ok) return toolError(RUN_COMMAND, 'not_allowed', `Refused ${JSON.stringify(command)}: ${line.reason}. Run one plain command; no shell is involved.`);
  const argv = line.argv;
  if (env.config.allow.length === 0) {
    return toolError(RUN_COMMAND, 'not_allowed', `Refused ${JSON.stringify(command)}: no command is allowed in this workspace (the [tools] allow list of strata.toml is empty).`);
  }
  const decision = checkAllowed(argv, env.config.allow);
  if (!decision.ok) return toolError(RUN_COMMAND, 'not_allowed', `Refused ${JSON.stringify(command)}: ${decision.reason}.`);
  for (const p of decision.paths) {
    try {
      await confine(env.ws, p);
    } catch (err) {
      if (!(err instanceof ConfinementError)) throw err;
      return toolError(RUN_COMMAND, 'not_allowed', `Refused ${JSON.stringify(command)}: argument ${JSON.stringify(p)} is not a place inside the workspace (${err.message}); "${decision.entry}" permits ${entryPermits(decision.entry)}.`);
    }
  }
  if (ctx.signal?.aborted) return toolError(RUN_COMMAND, 'cancelled', `${JSON.stringify(command)} was cancelled before it started.`);
  return execute(env, command, argv, ctx.signal);
}

/** Commands started by this process: with its pid, each command's marker value is its own. */
let commandCount = 0;

interface Outcome {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  cancelled: boolean;
  spawnError?: string;
  pid?: number;
}

function execute(env: ToolEnv, command: string, argv: string[], signal: AbortSignal | undefined): Promise<ToolResult> {
  const started = Date.now();
  const capture = new HeadTailCapture(env.config.maxOutputBytes);
  const win = process.platform === 'win32';
  const marker = `${process.pid}-${++commandCount}`;
  return new Promise<ToolResult>((resolve) => {
    let child: ChildProcess;
    const outcome: Outcome = { exitCode: null, signal: null, timedOut: false, cancelled: false };
    const timers: NodeJS.Timeout[] = [];
    let settled = false;

    let tracker: DescendantTracker | undefined;
    let observer: NodeJS.Timeout | undefined;
    const finish = () => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      clearInterval(observer);
      signal?.removeEventListener('abort', onAbort);
      child?.stdout?.destroy();
      child?.stderr?.destroy();
      // Whatever the command started dies with it, in its group or not (setsid).
      const done = () => resolve(report(env, command, argv, outcome, capture, Date.now() - started));
      if (tracker === undefined) done();
      else tracker.killAll().then(done, done);
    };
    const killGroup = (sig: NodeJS.Signals) => {
      const pid = child?.pid;
      if (pid === undefined) return;
      try {
        if (win) spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true }).on('error', () => undefined);
        else process.kill(-pid, sig);
      } catch {
        // Already gone.
      }
      tracker?.signalAll(sig);
    };
    const stop = () => {
      killGroup('SIGTERM');
      timers.push(setTimeout(() => killGroup('SIGKILL'), env.limits.killGraceMs));
      // However the group behaves, the call ends: after the grace, a second grace for the pipes to close.
      timers.push(setTimeout(finish, env.limits.killGraceMs + DRAIN_MS + 1000));
    };
    const onAbort = () => {
      if (settled) return;
      outcome.cancelled = true;
      stop();
    };

    try {
      child = spawn(argv[0] as string, argv.slice(1), {
        cwd: env.ws.realRoot,
        env: { ...minimalEnv(), [MARKER_VARIABLE]: marker },
        shell: false,
        detached: !win, // its own process group, so the whole group can be killed
        stdio: ['ignore', 'pipe', 'pipe'],
        windowsHide: true,
      });
    } catch (err) {
      outcome.spawnError = err instanceof Error ? err.message : String(err);
      finish();
      return;
    }
    if (child.pid !== undefined) {
      outcome.pid = child.pid;
      if (DescendantTracker.available()) {
        const t = new DescendantTracker(child.pid, `${MARKER_VARIABLE}=${marker}`);
        tracker = t;
        observer = setInterval(() => t.observe(), OBSERVE_MS);
      }
    }
    child.stdout?.on('data', (b: Buffer) => capture.push(b));
    child.stderr?.on('data', (b: Buffer) => capture.push(b));
    child.on('error', (err: NodeJS.ErrnoException) => {
      if (child.pid === undefined || err.code === 'ENOENT' || err.code === 'EACCES') {
        outcome.spawnError = err.code === 'ENOENT' ? `program ${JSON.stringify(argv[0])} was not found on PATH` : err.code === 'EACCES' ? `program ${JSON.stringify(argv[0])} is not executable` : err.message;
        finish();
      }
    });
    child.on('exit', (code, sig) => {
      outcome.exitCode = code;
      outcome.signal = sig;
      // Output may still be draining; if a background child keeps the pipes open, kill the group and end.
      timers.push(
        setTimeout(() => {
          killGroup('SIGKILL');
          finish();
        }, DRAIN_MS),
      );
    });
    child.on('close', (code, sig) => {
      outcome.exitCode ??= code;
      outcome.signal ??= sig;
      // Leftover background processes of the group die with the command.
      if (!win) killGroup('SIGKILL');
      finish();
    });
    timers.push(
      setTimeout(() => {
        if (settled) return;
        outcome.timedOut = true;
        stop();
      }, env.config.timeoutMs),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function report(env: ToolEnv, command: string, argv: string[], o: Outcome, capture: HeadTailCapture, durationMs: number): ToolResult {
  if (o.spawnError !== undefined) return toolError(RUN_COMMAND, 'spawn_failed', `Could not run ${JSON.stringify(command)}: ${o.spawnError}.`);
  const out = capture.finish();
  const text = out.text.replace(ANSI, '');
  let status: string;
  if (o.timedOut) status = `[timed out after ${env.config.timeoutMs} ms: the process group was killed]`;
  else if (o.cancelled) status = `[cancelled: the process group was killed]`;
  else if (o.exitCode !== null) status = `[exit code ${o.exitCode}]`;
  else status = `[killed by signal ${o.signal ?? 'unknown'}]`;
  const meta: RunCommandMeta = {
    tool: RUN_COMMAND,
    command,
    argv,
    exitCode: o.exitCode,
    signal: o.signal,
    timedOut: o.timedOut,
    durationMs,
    outputBytes: out.totalBytes,
    truncated: out.truncated,
    testCommand: isTestCommand(argv),
  };
  if (o.pid !== undefined) meta.pid = o.pid;
  const body = text.length > 0 ? (text.endsWith('\n') ? text : `${text}\n`) : '(no output)\n';
  return { content: `$ ${command}\n${body}${status}`, isError: o.cancelled || o.timedOut || o.exitCode !== 0, meta };
}
