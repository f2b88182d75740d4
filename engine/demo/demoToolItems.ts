import type { ToolCall } from '../conversation/Message';
import type { AgentIdentity } from '../generations/AgentIdentity';
import type { ItemInput } from '../items/createItem';
import type { ToolOutcome } from '../runtime/Driver';

const argsOf = (call: ToolCall): Record<string, unknown> => {
  try {
    const v = JSON.parse(call.arguments) as unknown;
    return typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

/** `path:line` locations in a text, paths first seen first. */
function locations(text: string): { files: string[]; symbols: string[] } {
  const files = new Set<string>();
  const symbols = new Set<string>();
  for (const m of text.matchAll(/\b((?:src|tests|docs|migrations)\/[\w./-]+\.\w+)(?::(\d+))?/g)) {
    files.add(m[1]!);
    if (m[2]) symbols.add(`${m[1]}:${m[2]}`);
  }
  return { files: [...files].slice(0, 20), symbols: [...symbols].slice(0, 20) };
}

/**
 * The items a replayed demo tool call adds to the pool, with the class and provenance the live
 * tools give (`toolResultItem`): grep hits and edits ephemeral, file reads ephemeral code, a failing
 * test run task state (it survives a refresh until fixed), a passing one ephemeral.
 */
export function demoToolItems(agent: AgentIdentity, call: ToolCall, outcome: ToolOutcome, at: number): ItemInput[] {
  const args = argsOf(call);
  const base = { id: `tool:${call.id}`, agentId: agent.agentId, taskId: agent.taskId, at, content: outcome.content || '(no output)', signature: `${call.name} ${call.arguments}` };
  const found = locations(outcome.content);
  switch (call.name) {
    case 'read_file': {
      const path = typeof args['path'] === 'string' ? args['path'] : undefined;
      return [{ ...base, kind: 'code', class: 'ephemeral', source: 'repository_source', title: `read ${path ?? 'a file'}`, files: path ? [path] : found.files }];
    }
    case 'grep':
      return [{ ...base, kind: 'tool_output', class: 'ephemeral', source: 'repository_source', title: `grep ${String(args['pattern'] ?? '')}`, files: found.files, symbols: found.symbols }];
    case 'run_command': {
      const command = String(args['command'] ?? '');
      const test = /\b(test|vitest|jest|pytest)\b/.test(command);
      if (test && outcome.isError) return [{ ...base, kind: 'failure', class: 'task_state', source: 'test_result', title: `failing: ${command}`, files: found.files, symbols: found.symbols }];
      return [{ ...base, kind: 'tool_output', class: 'ephemeral', source: test ? 'test_result' : 'repository_source', title: command, files: found.files }];
    }
    default: {
      const path = typeof args['path'] === 'string' ? args['path'] : undefined;
      return [{ ...base, kind: 'tool_output', class: 'ephemeral', source: 'repository_source', title: `${call.name}${path ? ` ${path}` : ''}`, files: path ? [path] : found.files }];
    }
  }
}
