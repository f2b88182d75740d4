import { generateDemoRun, type DemoRunScript } from '../demo/generateDemoRun';
import { scaledDemoRun } from '../demo/scaledDemoRun';
import type { DemoFiles } from '../demo/world';
import type { WorktreeView } from '../memory/recall/WorktreeView';
import { type Clock, systemClock } from '../ports/Clock';
import type { Scheduler } from '../ports/Scheduler';
import { systemScheduler } from '../ports/systemScheduler';
import type { Tokenizer } from '../tokens/Tokenizer';
import { createTiktokenTokenizer } from '../tokens/tiktokenTokenizer';
import { defaultSessionRoots, type SessionRoots } from '../node/traces/live/discoverSessions';
import type { HostOptions } from './HostOptions';
import { bundledDemoDir, readDemoWorkspace } from '../node/workspace/readDemoWorkspace';
import type { RunManagerDeps } from './RunManager';
import type { GatewaySettings } from './GatewayService';
import { demoWorktreeView, folderWorktreeView } from './worktreeViews';

/** The model runs' providers and tools a shell supplies (none: no model runs). */
type RunDeps = Pick<RunManagerDeps, 'makeProvider' | 'makeToolbox' | 'providerSettings' | 'toolItems'>;

/**
 * The host's options with every default supplied, resolved once by {@link resolveHostOptions}: the
 * services and settings the host hands to its parts. Nothing here is optional that has a default.
 */
export interface HostServices {
  catalogPath: string;
  workspaceName: string;
  version: string;
  /** Wall time: catalog timestamps, uptime, session activity. */
  clock: Clock;
  scheduler: Scheduler;
  tokenizer: Tokenizer;
  /** Recall project memory into prompts (`Settings.memory`, default on). */
  recall: boolean;
  /** This is the demo workspace: its run is opened at once, ticking every `tickMs` (0: paused). */
  demo: { tickMs: number } | undefined;
  /** The project folder of a non-demo workspace (its memory partition, its tools). */
  workspaceDir: string | undefined;
  /** The folder holding strata.toml and .strata/skills: resources/demo for the demo, else the project folder. */
  settingsDir: string | undefined;
  /** The workspace as agents see it, for memory evidence: the demo's synthetic view, else the project folder's. */
  view: WorktreeView;
  skillsDir: string | undefined;
  /** Where sessions are looked for before the workspace's `[sessions]` settings apply. */
  sessionRoots: SessionRoots;
  runDeps: RunDeps;
  /** The demo's script, generated afresh for each demo run from the demo's files (read once, when first needed). */
  demoScript: () => DemoRunScript;
  onInternalError: ((err: unknown, command: string) => void) | undefined;
  replayWorkerUrl: URL | undefined;
  liveWorkerUrl: URL | undefined;
  nativeBinding: string | undefined;
  gateway: GatewaySettings;
}

/**
 * Every default of the host in one place: the system clock and scheduler, the o200k tokenizer,
 * memory recall on, this user's session folders, no model runs, the source tree's workers, and the
 * demo's files from `demoDir` (or, for a project workspace that plays the demo, where Strata ships it).
 */
export function resolveHostOptions(options: HostOptions): HostServices {
  const demo = options.demoDir !== undefined;
  let files: DemoFiles | undefined;
  const demoFiles = () => (files ??= readDemoWorkspace(options.demoDir ?? bundledDemoDir()));
  const agents = options.demoAgents;
  return {
    catalogPath: options.catalogPath,
    workspaceName: options.workspaceName,
    version: options.version,
    clock: options.clock ?? systemClock,
    scheduler: options.scheduler ?? systemScheduler,
    tokenizer: options.tokenizer ?? createTiktokenTokenizer(),
    recall: options.memory ?? true,
    demo: demo ? { tickMs: options.demoTickMs ?? 0 } : undefined,
    workspaceDir: options.workspaceDir,
    settingsDir: demo ? options.demoDir : options.workspaceDir,
    view: !demo && options.workspaceDir ? folderWorktreeView(options.workspaceDir) : demoWorktreeView,
    skillsDir: options.skillsDir,
    sessionRoots: options.sessionRoots ?? defaultSessionRoots(),
    runDeps: options.runDeps ?? {},
    demoScript: () => (agents !== undefined ? scaledDemoRun(demoFiles(), agents) : generateDemoRun(demoFiles(), 1)),
    onInternalError: options.onInternalError,
    replayWorkerUrl: options.replayWorkerUrl,
    liveWorkerUrl: options.liveWorkerUrl,
    nativeBinding: options.nativeBinding,
    gateway: options.gateway ?? {},
  };
}
