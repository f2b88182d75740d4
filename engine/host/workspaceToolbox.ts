import type { ToolCall } from '../conversation/Message';
import type { AgentIdentity } from '../generations/AgentIdentity';
import type { ItemInput } from '../items/createItem';
import type { ToolBox, ToolOutcome } from '../runtime/Driver';
import { createWorkspaceTools } from '../node/tools/registry';
import { toolResultItem } from '../node/tools/toolResultItem';
import type { ToolsConfig } from '../node/tools/toolsConfig';
import type { ToolResult } from '../node/tools/types';

/** Results kept for item mapping until the runtime commits them (a turn's calls, a few turns back). */
const KEPT_RESULTS = 256;

/**
 * The workspace tools as the runtime's ToolBox, plus the matching `toolItems`: the runtime runs a
 * call through `call` and, when the turn commits, asks `toolItems` for its pool items, which come
 * from the full result (with its structured facts) the tool returned.
 */
export function workspaceToolbox(root: string, config: ToolsConfig): { toolbox: ToolBox; toolItems: (agent: AgentIdentity, call: ToolCall, outcome: ToolOutcome, at: number) => ItemInput[] } {
  const tools = createWorkspaceTools(root, config);
  const results = new Map<string, ToolResult>();
  const toolbox: ToolBox = {
    specs: tools.specs,
    async call(call: ToolCall): Promise<ToolOutcome> {
      const result = await tools.call(call);
      results.set(call.id, result);
      if (results.size > KEPT_RESULTS) results.delete(results.keys().next().value as string);
      return { callId: call.id, content: result.content, isError: result.isError };
    },
  };
  const toolItems = (agent: AgentIdentity, call: ToolCall, _outcome: ToolOutcome, at: number): ItemInput[] => {
    const result = results.get(call.id);
    results.delete(call.id);
    const item = result ? toolResultItem(call, result, { agentId: agent.agentId, taskId: agent.taskId, at, workspaceRoot: root }) : null;
    return item ? [item] : [];
  };
  return { toolbox, toolItems };
}
