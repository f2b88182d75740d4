export declare const PREBUILT_TIMEOUT_MS: number;
export declare const REBUILD_TIMEOUT_MS: number;

export type BuildStep = 'prebuilt' | 'rebuild';

export interface RunRequest {
  step: BuildStep;
  command: string;
  args: string[];
  cwd: string;
  timeoutMs: number;
}

export interface RunResult {
  ok: boolean;
  output?: string;
  timedOut?: boolean;
}

export interface BuildAttempt {
  step: BuildStep;
  /** How the step is named in the one-line reason. */
  label: string;
  /** The tool's script, run with this Node; undefined when it is not installed. */
  tool: string | undefined;
  toolName: string;
  args: string[];
  cwd: string;
  /** The copy of better-sqlite3 the module appears in, as build/Release/better_sqlite3.node. */
  packageDir: string;
  /** Whether the copy needs the sources (a compile) or only package.json (a download). */
  sources: boolean;
  project?: string;
  timeoutMs: number;
}

export interface Target {
  root: string;
  electronVersion: string;
  platform: string;
  arch: string;
}

export declare function electronBindingPath(root: string, electronVersion: string, platform: string, arch: string): string;
export declare function installedElectron(root: string): { version: string; abi: string | undefined } | undefined;
export declare function builtForAbi(bytes: Buffer, abi: string): boolean;
export declare function attemptEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
export declare function explainBuildFailure(output: string): string;
export declare function buildAttempts(o: Target & { workDir: string }): BuildAttempt[];
export declare function ensureElectronBinding(
  o: Target & { abi?: string | undefined; run: (request: RunRequest) => Promise<RunResult>; workRoot?: string; onAttempt?: (step: BuildStep) => void },
): Promise<{ path: string } | { reason: string }>;
export declare function runBounded(request: RunRequest): Promise<RunResult>;
