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

  it('bundles a valid scenario with a refresh into generation 2', () => {
    const s = loadDemoScenario(demoDir);
    expect(s.agents.length).toBeGreaterThanOrEqual(6);
    expect(s.steps.some((st) => st.generation === 2 && /Context refreshed · Generation 1 → 2 · Reason:/.test(st.log))).toBe(true);
  });

  it.each([
    ['a duplicate id', { agents: [base.agents[0], base.agents[0]] }, /duplicate agent id "p"/],
    ['a parent listed later', { agents: [base.agents[1], base.agents[0]] }, /parent "p" must be listed before "w"/],
    ['a step for an unknown agent', { steps: [{ agentId: 'ghost', log: 'x' }] }, /unknown agent "ghost"/],
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
    writeFileSync(join(d.dir, 'scenario.json'), JSON.stringify({ ...base, steps: [{ agentId: 'w', tokens: -1, log: 'x' }] }));
    expect(() => loadDemoScenario(d.dir)).toThrow(new RegExp(`Invalid demo scenario .*scenario\\.json: steps\\.0\\.tokens`));
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
    const next = applyStep(a, { agentId: 'w', status: 'refreshing', generation: 2, usage: { input: 1, cacheRead: 2, cacheWrite: 3, output: 4 }, level: 'info', log: 'x' }, 'now');
    expect(next).toEqual({ ...a, status: 'refreshing', generation: 2, usage: { input: 2, cacheRead: 3, cacheWrite: 4, output: 5 }, revision: 4, updatedAt: 'now' });
    expect(applyStep(a, { agentId: 'w', level: 'info', log: 'x' }, 'now')).toEqual({ ...a, revision: 4, updatedAt: 'now' });
  });
});
