import type { ValidationOptions } from './providerValidation';
import type { ScriptRule } from './replyScript';
import type { StepOutcome } from './runnerTypes';
import type { ServerCall } from './scriptedServer';

/**
 * One scripted run of a real client: the workspace and configuration it starts from, the reply
 * script its server answers with, and the CLI invocations (turns) in order. The runner
 * (`realClientRunner.ts`) executes it inside a network namespace that has only loopback.
 */

export type RealClientName = 'claude-code' | 'codex';

export interface ScenarioContext {
  /** The run's own folder (removed afterwards): logs, traces, the client's home and `HOME`. */
  runDir: string;
  /** The workspace the client works in (its cwd), outside any git repository. */
  workspace: string;
  /** `CLAUDE_CONFIG_DIR` or `CODEX_HOME`. */
  clientHome: string;
  /** `HOME` of the client processes, so no real user configuration is read. */
  userHome: string;
  /** The client's entry point: Claude Code's native binary, or Codex's `bin/codex.js`. */
  cli: string;
  /** Where the client sends its calls, `http://127.0.0.1:<port>`: the scripted server, or the tap in front of the proxy under test. */
  origin: string;
  /** The server's log so far (a later step may size itself on earlier calls). */
  calls: readonly ServerCall[];
  /** The turns run so far. */
  outcomes: readonly StepOutcome[];
}

/** One CLI invocation: `argv[0]` is the program. */
export interface CliStep {
  label: string;
  argv: string[];
  env: Record<string, string>;
}

export interface RealClientScenario {
  client: RealClientName;
  /** The server refuses what the providers refuse (`providerValidation.ts`); off when undefined. */
  validation?: ValidationOptions;
  /** Writes the workspace files and the client's configuration. */
  prepare(ctx: ScenarioContext): void;
  /** The reply script; built before the server starts, so `ctx.origin` is still empty. */
  rules(ctx: ScenarioContext): ScriptRule[];
  /** The turns in order; each is built just before it runs. */
  steps: ((ctx: ScenarioContext) => CliStep)[];
}
