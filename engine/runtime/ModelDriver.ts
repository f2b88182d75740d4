import { type Clock, systemClock } from '../ports/Clock';
import type { Provider } from '../providers/Provider';
import type { AgentAction, Driver, SpawnRequest, ToolBox, TurnContext } from './Driver';

/** The tool a primary delegates with: the runtime turns each call into a child agent. */
export const DELEGATE_TOOL = {
  name: 'delegate',
  description: 'Start a child agent for a sub-task. Roles: worker (implements), probe (investigates read-only), reviewer (reviews finished work). Optionally wait for other children first.',
  parameters: {
    type: 'object',
    properties: {
      role: { type: 'string', enum: ['worker', 'probe', 'reviewer', 'test', 'debug'] },
      task: { type: 'string', minLength: 1 },
      depends_on: { type: 'array', items: { type: 'string' } },
    },
    required: ['role', 'task'],
    additionalProperties: false,
  },
} as const;

/**
 * Drives an agent with a model: the composed request goes to the provider, the answer's text and
 * tool calls come back with the provider's usage. Workspace tools run in the runtime (so a
 * cancelled turn leaves nothing behind); `delegate` calls of a primary become spawn requests, each
 * answered by a result naming the child. A turn without tool calls ends the agent's task.
 */
export class ModelDriver implements Driver {
  readonly kind = 'model' as const;
  readonly tools;
  #spawned = 0;
  /** When each agent's current turn first called the provider: a refresh's repeated call shares the turn's time. */
  readonly #turnStarts = new Map<string, { turn: number; at: number }>();

  constructor(
    private readonly provider: Provider,
    private readonly toolbox: ToolBox,
    private readonly options: { maxOutputTokens?: number; stream?: boolean; clock?: Clock } = {},
  ) {
    this.tools = [...toolbox.specs, DELEGATE_TOOL];
  }

  async act(context: TurnContext): Promise<AgentAction> {
    const canDelegate = context.agent.role === 'primary';
    const request = { ...context.request, tools: canDelegate ? this.tools : this.toolbox.specs, maxOutputTokens: this.options.maxOutputTokens ?? context.request.maxOutputTokens, signal: context.signal };
    if (this.options.stream !== undefined) request.stream = this.options.stream;
    const limit = this.provider.turnTimeoutMs;
    if (limit !== undefined) {
      // `[provider-time-limit]`: every call of one turn (a refresh repeats it) shares the turn's limit.
      const now = (this.options.clock ?? systemClock).now();
      const { agentId } = context.agent;
      const start = this.#turnStarts.get(agentId);
      const at = start?.turn === context.turn ? start.at : now;
      this.#turnStarts.set(agentId, { turn: context.turn, at });
      request.timeBudgetMs = Math.max(0, limit - (now - at));
    }
    const response = await this.provider.complete(request);
    const spawn: SpawnRequest[] = [];
    const results = [];
    for (const call of response.toolCalls) {
      if (call.name !== DELEGATE_TOOL.name) continue;
      const args = parseDelegate(call.arguments);
      if (!canDelegate || typeof args === 'string') {
        results.push({ callId: call.id, content: canDelegate ? `delegate refused: ${args as string}` : 'delegate refused: only the primary delegates', isError: true });
        continue;
      }
      const agentId = `${args.role}-${++this.#spawned}`;
      spawn.push({ agentId, role: args.role, task: args.task, ...(args.dependsOn.length ? { dependsOn: args.dependsOn } : {}) });
      results.push({ callId: call.id, content: `started ${agentId} (${args.role}) for: ${args.task}`, isError: false });
    }
    const action: AgentAction = { text: response.text, toolCalls: response.toolCalls, usage: response.usage, model: response.model, done: response.toolCalls.length === 0 };
    if (response.retries) action.providerRetries = response.retries;
    if (spawn.length) action.spawn = spawn;
    // Delegate results are known now; workspace tools are run by the runtime for the remaining calls.
    if (results.length) action.results = results;
    return action;
  }
}

const ROLES = new Set(['worker', 'probe', 'reviewer', 'test', 'debug']);

function parseDelegate(text: string): { role: SpawnRequest['role']; task: string; dependsOn: string[] } | string {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return 'arguments are not JSON';
  }
  const o = v as { role?: unknown; task?: unknown; depends_on?: unknown };
  if (typeof o !== 'object' || o === null || typeof o.role !== 'string' || !ROLES.has(o.role)) return 'role must be one of worker, probe, reviewer, test, debug';
  if (typeof o.task !== 'string' || o.task.trim() === '') return 'task must be non-empty text';
  const deps = Array.isArray(o.depends_on) ? o.depends_on.filter((d): d is string => typeof d === 'string') : [];
  return { role: o.role as SpawnRequest['role'], task: o.task.trim(), dependsOn: deps };
}
