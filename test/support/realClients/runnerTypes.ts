import type { ForwardedExchange } from './forwardingProxy';
import type { GatewayRunRecords } from './gatewayProxy';
import type { ProxyName } from './proxies';
import type { RealClientName } from './RealClientScenario';
import type { ScenarioName } from './scenarios';
import type { ServerCall } from './scriptedServer';

/** What the harness hands the runner (as a JSON file). */
export interface RunnerJob {
  scenario: ScenarioName;
  client: RealClientName;
  /** The proxy to put between the client and the server (behind a recording tap); none when undefined. */
  proxy?: ProxyName;
  /** Logs, traces and the homes; under the repository's git-ignored `test/realClients/.runs/` (not /tmp: Codex refuses its PATH helpers under a temporary folder). */
  runDir: string;
  /** The client's cwd: a fresh folder under the OS temp folder, outside any git repository. */
  workspace: string;
  /** Claude Code's native binary, or Codex's `bin/codex.js`. */
  cli: string;
  tools: { strace: string; ip: string };
  stepTimeoutMs: number;
  resultFile: string;
}

/** One CLI turn as it ran. */
export interface StepOutcome {
  label: string;
  argv: string[];
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  spawnError?: string;
  stdout: string;
  stderr: string;
  /** The `strace -f` log of every connect/sendto/sendmsg/sendmmsg of the turn's processes. */
  straceLog: string;
  durationMs: number;
}

/** What the runner writes back. */
export interface RunnerResult {
  client: RealClientName;
  workspace: string;
  clientHome: string;
  /** Where the client was pointed: the server, or the tap in front of the proxy. */
  origin: string;
  /** The scripted server's own origin. */
  upstreamOrigin: string;
  /** Every request the server received, in arrival order. */
  calls: ServerCall[];
  /** With a proxy: every request the client sent, as the tap in front of the proxy received it; empty without. */
  clientSent: ForwardedExchange[];
  /** With a gateway as the proxy: what it recorded. */
  gateway?: GatewayRunRecords;
  unusedRules: string[];
  steps: StepOutcome[];
}
