import type { ToolSpec } from '../../providers/Provider';
import type { ZodError } from 'zod';
import type { WorkspaceRoot } from './confine';
import type { ToolsConfig } from './toolsConfig';

/** Why a call produced no tool output. The `PRE_RUN` ones mean the tool never ran. */
export type ToolErrorCode =
  | 'malformed_json'
  | 'unknown_tool'
  | 'invalid_arguments'
  | 'outside_workspace'
  | 'not_allowed'
  | 'not_found'
  | 'not_a_file'
  | 'binary_file'
  | 'invalid_pattern'
  | 'pattern_timeout'
  | 'spawn_failed'
  | 'io_error'
  | 'cancelled'
  | 'internal';

/** Refusals before anything in the workspace was read or run. */
export const PRE_RUN_ERRORS: ReadonlySet<ToolErrorCode> = new Set(['malformed_json', 'unknown_tool', 'invalid_arguments', 'invalid_pattern', 'outside_workspace', 'not_allowed']);

export interface ToolErrorMeta {
  tool: string;
  error: ToolErrorCode;
  /** The path concerned, as the model wrote it, when there is one. */
  path?: string;
}

export interface ListFilesMeta {
  tool: 'list_files';
  /** Root-relative, `/`-separated (`.` for the root). */
  path: string;
  depth: number;
  entries: number;
  truncated: boolean;
}

export interface ReadFileMeta {
  tool: 'read_file';
  path: string;
  /** 1-based, inclusive; `endLine < startLine` for an empty file. */
  startLine: number;
  endLine: number;
  /** Lines in the file, or null when the file was too large to count. */
  totalLines: number | null;
  /** Bytes of file content returned. */
  bytes: number;
  truncated: boolean;
}

export interface GrepHit {
  /** Root-relative, `/`-separated. */
  file: string;
  /** 1-based. */
  line: number;
}

export interface GrepMeta {
  tool: 'grep';
  pattern: string;
  fixed: boolean;
  path: string;
  hits: GrepHit[];
  filesSearched: number;
  /** More matches exist than were returned (max_results, output cap, file or time limits). */
  truncated: boolean;
}

export interface RunCommandMeta {
  tool: 'run_command';
  command: string;
  argv: string[];
  /** Null when the process was killed by a signal. */
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
  /** Bytes the command wrote (stdout and stderr), before capping. */
  outputBytes: number;
  truncated: boolean;
  /** The command runs tests (`isTestCommand`). */
  testCommand: boolean;
  pid?: number;
}

export type ToolMeta = ToolErrorMeta | ListFilesMeta | ReadFileMeta | GrepMeta | RunCommandMeta;

/** What a tool returns: text for the model, whether it is an error, and structured facts. */
export interface ToolResult<M extends ToolMeta = ToolMeta> {
  content: string;
  isError: boolean;
  meta: M;
}

export interface ToolContext {
  /** Cancels a running command or search; the result then says it was cancelled. */
  signal?: AbortSignal;
}

/** One tool: its spec for the provider request and its implementation. `run` never throws. */
export interface WorkspaceTool {
  readonly spec: ToolSpec;
  run(args: unknown, ctx?: ToolContext): Promise<ToolResult>;
}

/** An error result: the message is what the model reads. */
export function toolError(tool: string, error: ToolErrorCode, message: string, path?: string): ToolResult<ToolErrorMeta> {
  const meta: ToolErrorMeta = { tool, error };
  if (path !== undefined) meta.path = path;
  return { content: message, isError: true, meta };
}

/** A zod failure as one line per issue, in words the model can act on. */
export function describeZodError(tool: string, error: ZodError): string {
  const lines = error.issues.map((issue) => {
    const where = issue.path.length > 0 ? issue.path.map(String).join('.') : 'arguments';
    return `- ${where}: ${issue.message}`;
  });
  return `Invalid arguments for ${tool}:\n${lines.join('\n')}`;
}

/** Folders no walk enters (the engine's store is refused by name anyway). */
export const SKIPPED_DIRS: ReadonlySet<string> = new Set(['.git', 'node_modules', '.strata']);

/** Limits that are not configuration: fixed in production, smaller in tests. */
export interface ToolLimits {
  /** Most entries one `list_files` returns. */
  listMaxEntries: number;
  /** Files larger than this are not searched by `grep` (they are counted as skipped). */
  grepMaxFileBytes: number;
  /** Most files one `grep` reads. */
  grepMaxFiles: number;
  /** Wall-clock budget of one `grep`; past it the search stops with what it has. */
  grepBudgetMs: number;
  /** Longest one slice of regex matching may run before the pattern is declared pathological. */
  regexSliceMs: number;
  /** After a timeout's SIGTERM, how long before SIGKILL. */
  killGraceMs: number;
}

export const DEFAULT_TOOL_LIMITS: Readonly<ToolLimits> = Object.freeze({
  listMaxEntries: 1000,
  grepMaxFileBytes: 2 * 1024 * 1024,
  grepMaxFiles: 20_000,
  grepBudgetMs: 10_000,
  regexSliceMs: 1000,
  killGraceMs: 1000,
});

/** What every tool works with. */
export interface ToolEnv {
  ws: WorkspaceRoot;
  config: ToolsConfig;
  limits: ToolLimits;
}
