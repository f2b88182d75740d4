import type { Clock } from '../ports/Clock';
import type { Scheduler } from '../ports/Scheduler';
import type { SessionRoots } from '../node/traces/live/discoverSessions';
import type { Tokenizer } from '../tokens/Tokenizer';
import type { RunManagerDeps } from './RunManager';
import type { GatewaySettings } from './GatewayService';

/**
 * What a shell (Electron main, the web host, the CLI, a test) gives `Host.open`. Read once by
 * `resolveHostOptions`, which supplies every default; nothing else in the host reads it.
 */
export interface HostOptions {
  /** SQLite file of the workspace catalog (created and migrated if needed). */
  catalogPath: string;
  workspaceName: string;
  /** Strata's version, reported by `health`. */
  version: string;
  /** `resources/demo`: seed the demo workspace from it on first run and play its scenario. */
  demoDir?: string;
  /** Milliseconds between demo steps; 0 or absent seeds without playing. */
  demoTickMs?: number;
  /** Scale the demo to this many agents (load tests, `STRATA_DEMO_AGENTS`); absent: the bundled demo. */
  demoAgents?: number;
  clock?: Clock;
  scheduler?: Scheduler;
  /** Token counting for the engine (default: o200k_base through js-tiktoken). */
  tokenizer?: Tokenizer;
  /** `Settings.memory`: recall project memory into prompts (default true). */
  memory?: boolean;
  /** The project folder, for a non-demo workspace (its files are the agents' view). */
  workspaceDir?: string;
  /** `resources/skills`: the skills shipped with Strata (absent: none). */
  skillsDir?: string;
  /**
   * Where `listSessions` looks for Claude Code and Codex sessions (absent: the standard folders of
   * this machine's user, `defaultSessionRoots()`).
   */
  sessionRoots?: SessionRoots;
  /** Providers and tools for model runs (the Electron and web shells supply them from settings). */
  runDeps?: Pick<RunManagerDeps, 'makeProvider' | 'makeToolbox' | 'providerSettings' | 'toolItems'>;
  /** Where unexpected handler failures are reported (they also reach the caller as `internal`). */
  onInternalError?: (err: unknown, command: string) => void;
  /**
   * The replay worker's own build entry (`out/main/replayWorker.js`) for a bundled host; absent
   * when running from source, where the worker starts from the replay module itself.
   */
  replayWorkerUrl?: URL;
  /** The live sessions' worker's build entry (`out/main/liveWorker.js`) for a bundled host; absent from source, as above. */
  liveWorkerUrl?: URL;
  /** The local gateway's settings (port, upstreams, mode of new sessions); it starts when a view or the CLI starts it. */
  gateway?: GatewaySettings;
  /** The SQLite module to load instead of node_modules' Node build (see `CatalogOpenOptions`). */
  nativeBinding?: string | undefined;
}
