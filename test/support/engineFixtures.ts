import { Engine } from '../../engine/Engine';
import type { EngineOptions } from '../../engine/EngineTypes';
import type { AgentIdentity } from '../../engine/generations/AgentIdentity';
import type { ItemInput } from '../../engine/items/createItem';
import { manualClock } from '../../engine/ports/Clock';
import type { Tokenizer } from '../../engine/tokens/Tokenizer';

/** A deterministic stand-in tokenizer for fast unit tests: one token per 4 UTF-16 units. */
export const quarterTokenizer: Tokenizer & { calls: number } = {
  encoding: 'quarter',
  calls: 0,
  count(text: string) {
    this.calls++;
    return Math.ceil(text.length / 4);
  },
};

export const T0 = Date.parse('2026-11-29T12:00:00Z');

export function identity(over: Partial<AgentIdentity> = {}): AgentIdentity {
  return {
    agentId: 'worker-1',
    parent: 'primary',
    role: 'worker',
    taskId: 'task-auth',
    task: 'Implement refresh token rotation in src/auth/refresh.ts',
    scope: {},
    model: 'claude-sonnet-4-5',
    workspace: 'ws_test',
    budget: 4000,
    ...over,
  };
}

export function newEngine(over: Partial<EngineOptions> = {}) {
  const clock = manualClock(T0);
  const engine = new Engine({ tokenizer: { encoding: 'quarter', count: (t) => Math.ceil(t.length / 4) }, clock, ...over });
  return { engine, clock };
}

let n = 0;
/** An item input with realistic defaults; `id` is unique unless given. */
export function item(over: Partial<ItemInput> = {}): ItemInput {
  n++;
  return {
    id: `item-${n}`,
    kind: 'finding',
    class: 'finding',
    title: `finding ${n}`,
    content: `The refresh token is stored in src/auth/store.ts by saveToken(); finding number ${n}.`,
    source: 'worker_finding',
    agentId: 'worker-1',
    taskId: 'task-auth',
    at: T0,
    files: ['src/auth/store.ts'],
    symbols: ['saveToken'],
    ...over,
  };
}

/** The usual tier-1 items of a task. */
export function taskItems(agentId = 'worker-1'): ItemInput[] {
  return [
    item({ id: 'objective', kind: 'objective', class: 'task_state', title: 'Objective', content: 'Add refresh-token rotation without breaking sessions.', source: 'user_requirement', agentId: 'user', mandatory: true }),
    item({ id: 'acceptance', kind: 'acceptance', class: 'task_state', title: 'Acceptance', content: 'Reuse of a rotated token revokes the family; tests pass.', source: 'user_requirement', agentId: 'user', mandatory: true }),
    item({ id: 'constraint-1', kind: 'constraint', class: 'task_state', title: 'Constraint', content: 'Never log token values.', source: 'user_requirement', agentId: agentId }),
  ];
}
