/**
 * The part of the real-client harness that runs INSIDE a fresh network namespace (started by
 * `realClientHarness.ts` as `unshare -n node --import tsx realClientRunner.ts <job.json>`): it
 * brings the namespace's loopback up, starts the scripted server on 127.0.0.1 (and, when the job
 * names a proxy, that proxy in front of it and a recording tap in front of the proxy), runs the
 * scenario's CLI turns one after another, each under `strace -f` tracing every address a process
 * of the client connects or sends to, and writes the server's log and each turn's outcome to the
 * job's result file. The namespace has no other interface, so nothing can leave the machine;
 * the trace shows whether the client tried.
 */
import { spawnSync } from 'node:child_process';
import { runProcessGroup } from './runProcessGroup';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ScenarioContext } from './RealClientScenario';
import { scenarioFor } from './scenarios';
import { startForwardingProxy, type ForwardedExchange } from './forwardingProxy';
import { PROXIES } from './proxies';
import { startScriptedServer } from './scriptedServer';
import { STRACE_NETWORK_ARGS } from './straceNetwork';
import type { RunnerJob, RunnerResult, StepOutcome } from './runnerTypes';

const OUTPUT_CAP = 256 * 1024;

function capped(buffers: Buffer[]): string {
  const text = Buffer.concat(buffers).toString('utf8');
  return text.length > OUTPUT_CAP ? `${text.slice(0, OUTPUT_CAP)}\n[… ${text.length - OUTPUT_CAP} more characters]` : text;
}

function loopbackUp(ip: string): void {
  const r = spawnSync(ip, ['link', 'set', 'lo', 'up'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`could not bring up loopback in the network namespace (${ip} link set lo up): ${r.stderr || r.error?.message || `exit ${r.status}`}`);
}

/** Runs one turn under strace; the whole process group is killed at the timeout. */
function runStep(job: RunnerJob, index: number, label: string, argv: string[], env: Record<string, string>, cwd: string): Promise<StepOutcome> {
  const straceLog = join(job.runDir, `strace-${index}.log`);
  const args = [...STRACE_NETWORK_ARGS, '-o', straceLog, '--', ...argv];
  const started = Date.now();
  return runProcessGroup([job.tools.strace, ...args], { cwd, env, timeoutMs: job.stepTimeoutMs }).then((g) => ({
    label,
    argv,
    exitCode: g.code,
    signal: g.signal,
    timedOut: g.timedOut,
    ...(g.spawnError ? { spawnError: g.spawnError } : {}),
    stdout: capped(g.stdout),
    stderr: capped(g.stderr),
    straceLog,
    durationMs: Date.now() - started,
  }));
}

async function main(): Promise<void> {
  const job = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as RunnerJob;
  loopbackUp(job.tools.ip);
  const scenario = scenarioFor(job.scenario);
  const ctx: ScenarioContext = {
    runDir: job.runDir,
    workspace: job.workspace,
    clientHome: join(job.runDir, 'client-home'),
    userHome: join(job.runDir, 'home'),
    cli: job.cli,
    origin: '',
    calls: [],
    outcomes: [],
  };
  for (const dir of [ctx.workspace, ctx.clientHome, ctx.userHome]) mkdirSync(dir, { recursive: true });
  // The rules are built before the server exists (they name workspace paths, never the origin).
  const live = await startScriptedServer({ rules: scenario.rules(ctx), ...(scenario.validation ? { validation: scenario.validation } : {}) });
  // The seam: client -> recording tap -> proxy under test -> server, all on this namespace's loopback.
  const clientSent: ForwardedExchange[] = [];
  const proxy = job.proxy ? await PROXIES[job.proxy]({ anthropic: live.origin, openai: live.origin }) : undefined;
  const tap = proxy ? await startForwardingProxy({ upstream: proxy.origin, record: clientSent }) : undefined;
  ctx.origin = tap?.origin ?? live.origin;
  ctx.calls = live.calls;
  scenario.prepare(ctx);

  const steps: StepOutcome[] = [];
  ctx.outcomes = steps;
  const baseEnv: Record<string, string> = {
    PATH: process.env['PATH'] ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: ctx.userHome,
    SHELL: '/bin/bash',
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    TMPDIR: join(job.runDir, 'tmp'),
  };
  mkdirSync(baseEnv['TMPDIR']!, { recursive: true });
  for (const [i, build] of scenario.steps.entries()) {
    const step = build(ctx);
    const outcome = await runStep(job, i, step.label, step.argv, { ...baseEnv, ...step.env }, ctx.workspace);
    steps.push(outcome);
    if (outcome.exitCode !== 0) break;
  }
  const gateway = proxy?.records?.();
  const result: RunnerResult = { client: job.client, workspace: ctx.workspace, clientHome: ctx.clientHome, origin: ctx.origin, upstreamOrigin: live.origin, calls: live.calls, clientSent, ...(gateway ? { gateway } : {}), unusedRules: live.unusedRules(), steps };
  await tap?.close();
  await proxy?.close();
  await live.close();
  writeFileSync(job.resultFile, JSON.stringify(result));
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`real-client runner failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
