/**
 * The real-client harness (SPEC `[real-client-harness]`): runs the REAL Claude Code or Codex CLI,
 * pinned in `test/realClients/package.json`, through a scripted multi-turn task against the
 * scripted loopback server, offline, and hands the test what the server logged and where the
 * client wrote its session. Each run:
 *
 * - provisions the CLIs and `strace`/`ip`/`unshare` (`test/realClients/provisionRealClients.mjs`);
 * - starts `realClientRunner.ts` under `unshare -n` (root) or `unshare -rn` (a user namespace
 *   otherwise): a network namespace whose only interface is loopback, in which the runner starts
 *   the server and runs each CLI turn under `strace -f`;
 * - reads every address any client process connected or sent to (`straceNetwork.ts`);
 * - with `proxy`, puts that proxy (`proxies.ts`) between the client and the server, behind a tap
 *   that records what the client sent (`[real-client-proxy-seam]`);
 * - removes its folders with `remove()` (nothing a client wrote is kept: it holds the vendors'
 *   prompts; `STRATA_KEEP_REAL_CLIENT_RUNS=1` keeps them for debugging and says where).
 *
 * Nothing here depends on machine speed: each turn may take up to `stepTimeoutMs` (default 4
 * minutes) and the harness asserts no timing.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProcessGroup } from './runProcessGroup';
import { provisionRealClients } from '../../realClients/provisionRealClients.mjs';
import type { ForwardedExchange } from './forwardingProxy';
import type { GatewayRunRecords } from './gatewayProxy';
import type { ProxyName } from './proxies';
import type { RealClientName } from './RealClientScenario';
import type { RunnerJob, RunnerResult, StepOutcome } from './runnerTypes';
import { scenarioFor, type ScenarioName } from './scenarios';
import type { ServerCall } from './scriptedServer';
import { isLoopback, parseStraceNetwork, type LocalSocket, type NetworkAttempt } from './straceNetwork';

const repoRoot = join(import.meta.dirname, '..', '..', '..');
const runsRoot = join(repoRoot, 'test', 'realClients', '.runs');

/** One model call as the server answered it: what a test compares an import against. */
export interface HarnessCall {
  /** Arrival order over all requests. */
  index: number;
  path: string;
  /** Whose call it was by the script: `main`, `subagent`, `compaction`, … (`unscripted` when no rule matched). */
  agent: string;
  rule: string;
  /** The prompt's o200k tokens as the server counted them (`promptPieces.ts`). */
  promptTokens: number;
  /** The usage object exactly as returned. */
  usage: Record<string, unknown>;
  body: Record<string, unknown>;
}

type TurnAttempt = NetworkAttempt & { turn: number };

export interface RealClientRun {
  scenario: ScenarioName;
  client: RealClientName;
  /** Where the client was pointed, `http://127.0.0.1:<port>` (the port the trace must show): the server, or the tap in front of the proxy. */
  origin: string;
  /** The scripted server's own origin (the same as `origin` without a proxy). */
  upstreamOrigin: string;
  proxy: ProxyName | undefined;
  /** With a proxy: every request the client sent, as the tap received it, in arrival order; empty without. */
  clientSent: ForwardedExchange[];
  /** With a gateway as the proxy: its own records of the run (sessions, threads, calls). */
  gateway: GatewayRunRecords | undefined;
  workspace: string;
  clientHome: string;
  /** Every request the server received, in arrival order. */
  calls: ServerCall[];
  /** The model calls (Messages or Responses requests answered 200). */
  modelCalls: HarnessCall[];
  unusedRules: string[];
  steps: StepOutcome[];
  /** Every IPv4/IPv6 address any process of the client tried, with the turn (0-based) it was tried in. */
  network: TurnAttempt[];
  /** The ones not on loopback (the test fails naming them). */
  offLoopback: TurnAttempt[];
  localSockets: LocalSocket[];
  /** Files under the client's home, relative to it, for locating sessions. */
  files(): string[];
  remove(): void;
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** The command prefix that starts a process in a new network namespace: `unshare --net` as root, else in a user namespace mapped to root. */
export const unsharePrefix = (unshare: string): string[] => (isRoot() ? [unshare, '--net'] : [unshare, '--map-root-user', '--net']);

function listFiles(root: string, prefix = ''): string[] {
  if (!existsSync(root)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...listFiles(join(root, entry.name), rel));
    else out.push(rel);
  }
  return out;
}

/**
 * Runs a scenario (each client's three-turn one is named after the client) and returns what
 * happened; throws with the runner's output when it could not run, and with `turnFailure`'s cause
 * (the run removed) when a turn did not finish.
 */
export async function runRealClient(scenario: ScenarioName, options: { stepTimeoutMs?: number; proxy?: ProxyName } = {}): Promise<RealClientRun> {
  const { client } = scenarioFor(scenario);
  const { clients, tools } = provisionRealClients();
  mkdirSync(runsRoot, { recursive: true });
  const runDir = mkdtempSync(join(runsRoot, `${client}-`));
  const workspace = mkdtempSync(join(tmpdir(), `strata-${client}-ws-`));
  const remove = () => {
    if (process.env['STRATA_KEEP_REAL_CLIENT_RUNS'] === '1') {
      console.log(`real clients: kept ${runDir} and ${workspace} (STRATA_KEEP_REAL_CLIENT_RUNS=1); they hold the vendors' prompts, delete them when done`);
      return;
    }
    rmSync(runDir, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  };
  try {
    const stepTimeoutMs = options.stepTimeoutMs ?? 240_000;
    const job: RunnerJob = {
      scenario,
      client,
      ...(options.proxy ? { proxy: options.proxy } : {}),
      runDir,
      workspace,
      cli: client === 'claude-code' ? clients.claude : clients.codex,
      tools: { strace: tools.strace, ip: tools.ip },
      stepTimeoutMs,
      resultFile: join(runDir, 'result.json'),
    };
    const jobFile = join(runDir, 'job.json');
    writeFileSync(jobFile, JSON.stringify(job));
    const unshare = unsharePrefix(tools.unshare);
    const runner = join(import.meta.dirname, 'realClientRunner.ts');
    const g = await runProcessGroup([...unshare, process.execPath, '--import', 'tsx', runner, jobFile], { cwd: repoRoot, timeoutMs: stepTimeoutMs * 4 + 60_000 });
    const r = { code: g.code, timedOut: g.timedOut, stdout: Buffer.concat(g.stdout).toString('utf8'), stderr: g.spawnError ?? Buffer.concat(g.stderr).toString('utf8') };
    if (r.code !== 0 || !existsSync(job.resultFile)) {
      const why = /unshare failed|Operation not permitted/.test(r.stderr)
        ? `could not create a network namespace with ${unshare.join(' ')} (needs root, or unprivileged user namespaces): ${r.stderr.trim()}`
        : `the real-client runner ${r.timedOut ? 'timed out' : `exited with ${String(r.code)}`}: ${r.stderr.trim() || r.stdout.trim()}`;
      throw new Error(`real clients (${client}): ${why}`);
    }
    const result = JSON.parse(readFileSync(job.resultFile, 'utf8')) as RunnerResult;
    const network: TurnAttempt[] = [];
    const localSockets: LocalSocket[] = [];
    for (const [turn, step] of result.steps.entries()) {
      // A turn without its trace would make the offline check pass for nothing.
      if (!existsSync(step.straceLog)) throw new Error(`real clients (${client}): turn "${step.label}" left no strace log at ${step.straceLog}`);
      const traced = parseStraceNetwork(readFileSync(step.straceLog, 'utf8'));
      network.push(...traced.attempts.map((a) => ({ ...a, turn })));
      localSockets.push(...traced.local);
    }
    const modelCalls: HarnessCall[] = result.calls
      .filter((c) => (c.kind === 'anthropic-messages' || c.kind === 'openai-responses') && c.status === 200 && c.usage)
      .map((c) => ({ index: c.index, path: c.path, agent: c.agent ?? 'unscripted', rule: c.rule ?? 'unscripted', promptTokens: c.promptTokens ?? 0, usage: c.usage!, body: c.body as Record<string, unknown> }));
    const run: RealClientRun = {
      scenario,
      client,
      origin: result.origin,
      upstreamOrigin: result.upstreamOrigin,
      proxy: options.proxy,
      clientSent: result.clientSent,
      gateway: result.gateway,
      workspace,
      clientHome: result.clientHome,
      calls: result.calls,
      modelCalls,
      unusedRules: result.unusedRules,
      steps: result.steps,
      network,
      offLoopback: network.filter((a) => !isLoopback(a.address)),
      localSockets,
      files: () => listFiles(result.clientHome),
      remove,
    };
    const failed = turnFailure(run);
    if (failed) throw new Error(failed);
    return run;
  } catch (err) {
    remove();
    throw err;
  }
}

/**
 * Why the run cannot be checked, naming the first turn that did not finish (exit code, timeout,
 * the tail of its stderr and stdout), or undefined when every turn ran. `runRealClient` throws it,
 * so a broken run reads as its cause rather than as missing session files.
 */
function turnFailure(run: RealClientRun): string | undefined {
  const bad = run.steps.find((s) => s.exitCode !== 0);
  if (!bad) return run.steps.length === 0 ? `real clients (${run.client}): the runner ran no turn` : undefined;
  const why = bad.spawnError ? `could not start: ${bad.spawnError}` : bad.timedOut ? `timed out after ${bad.durationMs} ms` : `exited with ${String(bad.exitCode)}${bad.signal ? ` (${bad.signal})` : ''}`;
  return `real clients (${run.client}): turn "${bad.label}" ${why}\n$ ${bad.argv.join(' ')}\nstderr: ${bad.stderr.slice(-3000)}\nstdout: ${bad.stdout.slice(-2000)}`;
}

/** One line per off-loopback attempt, for a failure message. */
export const describeAttempts = (attempts: readonly NetworkAttempt[]): string =>
  attempts.map((a) => `${a.syscall} ${a.family} ${a.address}:${a.port}${a.dnsName ? ` (DNS query for ${a.dnsName})` : ''} ${a.result}`).join('\n');
