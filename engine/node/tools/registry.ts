import type { ToolCall } from '../../conversation/Message';
import type { ToolSpec } from '../../providers/Provider';
import { workspaceRoot, type WorkspaceRoot } from './confine';
import { grepTool } from './grep';
import { listFilesTool } from './listFiles';
import { readFileTool } from './readFile';
import { RUN_COMMAND, runCommandTool } from './runCommand';
import { DEFAULT_TOOLS_CONFIG, validateToolsConfig, type ToolsConfig } from './toolsConfig';
import { DEFAULT_TOOL_LIMITS, toolError, type ToolContext, type ToolLimits, type ToolResult, type WorkspaceTool } from './types';
import { jsonNestingBeyond, MAX_JSON_NESTING } from '../../text/jsonNesting';

/** Longest arguments text parsed; a longer one is refused unread. */
const MAX_ARGUMENTS_CHARS = 64 * 1024;

/** The workspace tools of one agent: specs for the provider request and a dispatcher. */
export interface ToolRegistry {
  /** The workspace root as given, and its real path (every tool is confined to it). */
  readonly root: WorkspaceRoot;
  readonly config: Readonly<ToolsConfig>;
  /** Specs in a fixed order: list_files, read_file, grep, and run_command when `allow` is not empty. */
  readonly specs: ToolSpec[];
  /** A tool by name (also `run_command` when it is not advertised), or undefined. */
  get(name: string): WorkspaceTool | undefined;
  /**
   * Run one tool call: parse its JSON arguments (malformed → error result), dispatch by name
   * (unknown → error result), run. Never throws and never rejects: whatever goes wrong is a result
   * the model can read, with `isError` set.
   */
  call(toolCall: ToolCall, ctx?: ToolContext): Promise<ToolResult>;
}

/**
 * The tools an agent may use on its workspace directory: `list_files`, `read_file`, `grep` and
 * `run_command`, all confined to `root`. `run_command` is advertised only when `config.allow` has
 * entries (it still answers, with a refusal, when called without). Throws when `root` is not a
 * directory or `config` breaks the `[tools]` rules: both are the host's mistakes, not the model's.
 */
export function createWorkspaceTools(root: string, config: ToolsConfig = DEFAULT_TOOLS_CONFIG, limits: Partial<ToolLimits> = {}): ToolRegistry {
  const issues = validateToolsConfig(config);
  if (issues.length > 0) throw new Error(`Invalid tools config: ${issues.map((i) => i.message).join('; ')}`);
  const ws = workspaceRoot(root);
  const frozen: ToolsConfig = Object.freeze({ ...config, allow: Object.freeze([...config.allow]) });
  const env = { ws, config: frozen, limits: { ...DEFAULT_TOOL_LIMITS, ...limits } };
  const tools = [listFilesTool(env), readFileTool(env), grepTool(env), runCommandTool(env)];
  const byName = new Map(tools.map((t) => [t.spec.name, t]));
  const specs = tools.filter((t) => t.spec.name !== RUN_COMMAND || frozen.allow.length > 0).map((t) => t.spec);
  const advertised = specs.map((s) => s.name);

  return {
    root: ws,
    config: frozen,
    specs,
    get: (name) => byName.get(name),
    async call(toolCall, ctx = {}) {
      const name = typeof toolCall?.name === 'string' ? toolCall.name : '';
      try {
        const tool = byName.get(name);
        if (!tool) {
          return toolError(name, 'unknown_tool', `Unknown tool ${JSON.stringify(name)}. Available tools: ${advertised.join(', ')}.`);
        }
        const raw = typeof toolCall.arguments === 'string' ? toolCall.arguments : '';
        if (raw.length > MAX_ARGUMENTS_CHARS) {
          return toolError(name, 'malformed_json', `The arguments of ${name} are longer than ${MAX_ARGUMENTS_CHARS} characters.`);
        }
        if (jsonNestingBeyond(raw) >= 0) {
          return toolError(name, 'malformed_json', `The arguments of ${name} nest more than ${MAX_JSON_NESTING} levels deep. Send a flat JSON object.`);
        }
        let args: unknown;
        try {
          args = raw.trim() === '' ? {} : JSON.parse(raw);
        } catch (err) {
          const reason = err instanceof Error ? err.message : String(err);
          return toolError(name, 'malformed_json', `The arguments of ${name} are not valid JSON (${reason}). Send a JSON object.`);
        }
        if (typeof args !== 'object' || args === null || Array.isArray(args)) {
          return toolError(name, 'malformed_json', `The arguments of ${name} must be a JSON object.`);
        }
        return await tool.run(args, ctx);
      } catch (err) {
        return toolError(name, 'internal', `${name || 'The tool'} failed unexpectedly: ${err instanceof Error ? err.message : String(err)}.`);
      }
    },
  };
}
