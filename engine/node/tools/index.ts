/** Workspace tools for the model driver, confined to the agent's workspace directory. */
export { createWorkspaceTools, MAX_ARGUMENTS_CHARS, type ToolRegistry } from './registry';
export { DEFAULT_TOOLS_CONFIG, TOOLS_CONFIG_BOUNDS, toolsConfigFrom, validateToolsConfig, type ToolsConfig } from './toolsConfig';
export { confine, confineLexically, ConfinementError, INTERNAL_DIR, isInternalPath, workspaceRoot, type ConfinedPath, type ConfinementReason, type WorkspaceRoot } from './confine';
export { isTestCommand, parseCommandLine, SHELL_METACHARACTERS, type ParsedCommand } from '../../runtime/commandLine';
export { checkAllowed, entryPermits, type AllowDecision } from './allowedCommand';
export { minimalEnv } from './runCommand';
export { locationsIn, signatureOf, toolItemId, toolResultItem, type ToolItemContext } from './toolResultItem';
export {
  DEFAULT_TOOL_LIMITS,
  isErrorMeta,
  PRE_RUN_ERRORS,
  type GrepHit,
  type GrepMeta,
  type ListFilesMeta,
  type ReadFileMeta,
  type RunCommandMeta,
  type ToolContext,
  type ToolErrorCode,
  type ToolErrorMeta,
  type ToolLimits,
  type ToolMeta,
  type ToolResult,
  type WorkspaceTool,
} from './types';
