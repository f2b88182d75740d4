import { describe, expect, it } from 'vitest';
import { createItem } from '../../../../engine/items/createItem';
import { CARRIED_STATE_TOKENS, carriedState } from '../../../../engine/refresh/carryState';
import { item } from '../../../support/engineFixtures';

const quarter = (t: string) => Math.ceil(t.length / 4);
const transient = (id: string, content: string) => createItem(item({ id, kind: 'tool_output', class: 'ephemeral', source: 'test_result', content }));
const carry = (...contents: string[]) =>
  carriedState({ agentId: 'worker-1', taskId: 'task-auth', generation: 3, transient: contents.map((c, n) => transient(`t${n}`, c)), countTokens: quarter });

describe('[refresh-pipeline] the durable state a refresh carries out of a generation', () => {
  it('[refresh-pipeline] [sources-distinct] failures, decisions, verification, risks, paths and symbols become one new generated_summary task-state item', () => {
    const carried = carry(
      'FAILED tests/refresh.spec.ts: expected 200, got 401',
      'Decided to use a token family table because reuse must revoke the family.',
      '$ npm test -- refresh',
      'Risk: the migration may lock src/db/users.ts for minutes.',
      'rotateRefreshToken() lives in src/auth/refresh.ts',
    )!;
    expect(carried).toMatchObject({
      id: 'state:worker-1:g3',
      kind: 'note',
      class: 'task_state',
      title: 'State carried from generation 3',
      source: 'generated_summary',
      agentId: 'worker-1',
      taskId: 'task-auth',
      confidence: 0.6,
      relevance: 0.8,
      durability: 'task',
    });
    expect(carried).not.toHaveProperty('at');
    const lines = carried.content.split('\n');
    expect(lines).toContain('failure: FAILED tests/refresh.spec.ts: expected 200, got 401');
    expect(lines.some((l) => l.startsWith('decision: Decided to use a token family table'))).toBe(true);
    expect(lines).toContain('verified by: $ npm test -- refresh');
    expect(lines.some((l) => l.startsWith('risk: Risk: the migration'))).toBe(true);
    expect(carried.files).toEqual(expect.arrayContaining(['tests/refresh.spec.ts', 'src/db/users.ts', 'src/auth/refresh.ts']));
    expect(carried.symbols).toContain('rotateRefreshToken');
    expect(lines.at(-2)).toBe(`paths: ${carried.files!.join(', ')}`);
    expect(lines.at(-1)).toBe(`symbols: ${carried.symbols!.join(', ')}`);
  });

  it.each([
    ['no transient items', []],
    ['transient items without a signal', ['hello there', 'looking around']],
  ])('[refresh-pipeline] %s carry nothing', (_name, contents) => {
    expect(carry(...contents)).toBeUndefined();
  });

  it('[refresh-pipeline] [compress-budget] a long state is compressed to its target, keeping lines verbatim', () => {
    const failures = Array.from({ length: 300 }, (_, n) => `FAILED tests/case${n}.spec.ts: expected ${n}, got ${n + 1}`);
    const carried = carry(...failures)!;
    expect(quarter(carried.content)).toBeLessThanOrEqual(CARRIED_STATE_TOKENS);
    expect(carried.content).toContain('failure: FAILED tests/case0.spec.ts: expected 0, got 1');
  });
});
