import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentRecord } from '../../../../engine/catalog/Catalog';
import { applyStep } from '../../../../engine/host/DemoPlayer';
import { DemoScenarioSchema, loadDemoScenario } from '../../../../engine/host/demoScenario';
import { demoDir, tempDir } from '../../../support/tempDir';

const base = {
  schemaVersion: 1,
  workspace: { name: 'w' },
  agents: [
    { agentId: 'p', parent: null, role: 'primary', task: 't', model: 'm', budget: 10 },
    { agentId: 'w', parent: 'p', role: 'worker', task: 't', model: 'm', budget: 10 },
  ],
  steps: [{ agentId: 'w', status: 'running', log: 'go' }],
};

describe('demo scenario', () => {
  const dirs: ReturnType<typeof tempDir>[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => d.remove()));

  it('bundles a valid scenario with items, builds and a provider context-limit error', () => {
    const s = loadDemoScenario(demoDir);
    expect(s.agents.length).toBeGreaterThanOrEqual(6);
    expect(s.steps.filter((st) => st.contextLimit)).toHaveLength(1);
    expect(s.steps.filter((st) => st.build).length).toBeGreaterThan(30);
    expect(s.steps.flatMap((st) => st.items ?? []).length).toBeGreaterThan(30);
  });

  it.each([
    ['a duplicate id', { agents: [base.agents[0], base.agents[0]] }, /duplicate agent id "p"/],
    ['a parent listed later', { agents: [base.agents[1], base.agents[0]] }, /parent "p" must be listed before "w"/],
    ['a step for an unknown agent', { steps: [{ agentId: 'ghost', log: 'x' }] }, /unknown agent "ghost"/],
    [
      'a duplicate item id',
      { steps: [1, 2].map(() => ({ agentId: 'w', log: 'x', items: [{ id: 'i', kind: 'note', class: 'ephemeral', title: 't', content: 'c', source: 'worker_finding' }] })) },
      /duplicate item id "i"/,
    ],
    ['an unknown field', { extra: 1 }, /extra/],
  ])('refuses %s', (_what, patch, message) => {
    const r = DemoScenarioSchema.safeParse({ ...base, ...patch });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.message).join('\n')).toMatch(message);
  });

  it('names the file and the field when loading fails', () => {
    const d = tempDir();
    dirs.push(d);
    mkdirSync(d.dir, { recursive: true });
    writeFileSync(join(d.dir, 'scenario.json'), JSON.stringify({ ...base, steps: [{ agentId: 'w', usage: { input: -1, cacheRead: 0, cacheWrite: 0, output: 0 }, log: 'x' }] }));
    expect(() => loadDemoScenario(d.dir)).toThrow(new RegExp(`Invalid demo scenario .*scenario\\.json: steps\\.0\\.usage\\.input`));
    writeFileSync(join(d.dir, 'scenario.json'), '{ not json');
    expect(() => loadDemoScenario(d.dir)).toThrow(/Cannot read the demo scenario .*scenario\.json/);
  });

  it('applies a step: changed fields, summed usage, next revision', () => {
    const a: AgentRecord = {
      agentId: 'w',
      parent: 'p',
      role: 'worker',
      task: 't',
      model: 'm',
      status: 'waiting',
      generation: 1,
      tokens: 5,
      budget: 10,
      usage: { input: 1, cacheRead: 1, cacheWrite: 1, output: 1 },
      revision: 3,
      updatedAt: 'old',
    };
    const next = applyStep(a, { agentId: 'w', status: 'refreshing', usage: { input: 1, cacheRead: 2, cacheWrite: 3, output: 4 }, level: 'info', log: 'x' }, 'now', { tokens: 77, generation: 2 });
    expect(next).toEqual({ ...a, status: 'refreshing', generation: 2, tokens: 77, usage: { input: 2, cacheRead: 3, cacheWrite: 4, output: 5 }, revision: 4, updatedAt: 'now' });
    expect(applyStep(a, { agentId: 'w', level: 'info', log: 'x' }, 'now')).toEqual({ ...a, revision: 4, updatedAt: 'now' });
  });
});
