import { describe, expect, it } from 'vitest';
import type { InfoClass, Source } from '../../../../engine/items/ContextItem';
import { scopeExclusion, type Scope } from '../../../../engine/pack/Scope';
import { identity, item, newEngine, T0, taskItems } from '../../../support/engineFixtures';

type Probe = { class: InfoClass; kind: string; pinned: boolean; mandatory: boolean; provenance: { source: Source; taskId: string } };
const probe = (over: Partial<Omit<Probe, 'provenance'>> & { source?: Source; taskId?: string } = {}): Probe => ({
  class: over.class ?? 'finding',
  kind: over.kind ?? 'finding',
  pinned: over.pinned ?? false,
  mandatory: over.mandatory ?? false,
  provenance: { source: over.source ?? 'worker_finding', taskId: over.taskId ?? 'task-auth' },
});

function setup(scope: Scope, budget = 8000) {
  const { engine, clock } = newEngine();
  engine.registerAgent(identity({ scope, budget }));
  for (const i of taskItems()) engine.addItem(i);
  return { engine, clock };
}
const REQ = { phase: 'implement', files: ['src/auth/store.ts'], keywords: ['refresh', 'token'] };
const ids = (entries: { item: { id: string } }[]) => entries.map((e) => e.item.id);
const reasonOf = (g: { dropped: { item: { id: string }; reason: string }[] }, id: string) => g.dropped.find((d) => d.item.id === id)?.reason;

describe('scopeExclusion', () => {
  it.each<[string, Scope, Parameters<typeof probe>[0], string | undefined]>([
    ['no scope', {}, {}, undefined],
    ['class in scope', { classes: ['finding'] }, {}, undefined],
    ['class out of scope', { classes: ['task_state'] }, {}, "scope: class finding is not in this agent's scope"],
    ['pinned ignores classes', { classes: ['task_state'] }, { pinned: true }, undefined],
    ['mandatory ignores classes', { classes: ['task_state'] }, { mandatory: true }, undefined],
    ['project memory excluded', { excludeProjectMemory: true }, { class: 'project_memory' }, 'scope: project memory is excluded for this agent'],
    ['recalled memory excluded', { excludeProjectMemory: true }, { source: 'recalled_memory' }, 'scope: project memory is excluded for this agent'],
    ['memory kept when not excluded', { excludeProjectMemory: false }, { class: 'project_memory', source: 'recalled_memory' }, undefined],
    ['pinned memory enters', { excludeProjectMemory: true }, { class: 'project_memory', pinned: true }, undefined],
    ['dependency report', { dependencyTaskIds: ['task-db'] }, { source: 'parent_report', taskId: 'task-db' }, undefined],
    ['unrelated report', { dependencyTaskIds: ['task-db'] }, { source: 'parent_report', taskId: 'task-ui' }, 'scope: report of task task-ui, not a dependency of this task'],
    ['no dependencies at all', { dependencyTaskIds: [] }, { source: 'parent_report', taskId: 'task-ui' }, 'scope: report of task task-ui, not a dependency of this task'],
    ['deps only restrict parent reports', { dependencyTaskIds: ['task-db'] }, { source: 'worker_finding', kind: 'report', taskId: 'task-ui' }, undefined],
    ['no restriction without deps', {}, { source: 'parent_report', taskId: 'task-ui' }, undefined],
  ])('[scope-classes] [scope-no-memory] [scope-deps] %s', (_name, scope, over, reason) => {
    expect(scopeExclusion(scope, probe(over))).toBe(reason);
  });
});

describe('scope in a build', () => {
  it('[scope-classes] [exclusion-reasons] only the scope\'s classes enter; the rest are dropped with the scope reason', () => {
    const { engine } = setup({ classes: ['task_state', 'finding'] });
    engine.addItem(item({ id: 'f', kind: 'finding', class: 'finding' }));
    engine.addItem(item({ id: 'mem', kind: 'architecture', class: 'project_memory' }));
    engine.addItem(item({ id: 'grep', kind: 'tool_output', class: 'ephemeral' }));
    const a = engine.build('worker-1', REQ).generation;
    expect(ids(a.included).sort()).toEqual(['acceptance', 'constraint-1', 'f', 'objective']);
    expect(reasonOf(a, 'mem')).toBe("scope: class project_memory is not in this agent's scope");
    expect(reasonOf(a, 'grep')).toBe("scope: class ephemeral is not in this agent's scope");
    // Arrivals inside the generation meet the same scope.
    engine.addItem(item({ id: 'late-grep', kind: 'tool_output', class: 'ephemeral' }));
    engine.addItem(item({ id: 'late-f', kind: 'finding', class: 'finding', content: 'rotateRefreshToken locks the row' }));
    const b = engine.build('worker-1', REQ);
    expect(b.started).toBe(false);
    expect(ids(b.generation.included)).toContain('late-f');
    expect(reasonOf(b.generation, 'late-grep')).toBe("scope: class ephemeral is not in this agent's scope");
  });

  it('[scope-no-memory] project memory and recalled memory stay out, other items of the same content enter', () => {
    const { engine } = setup({ excludeProjectMemory: true });
    engine.addItem(item({ id: 'mem', kind: 'architecture', class: 'project_memory' }));
    engine.addItem(item({ id: 'recalled', kind: 'note', class: 'finding', source: 'recalled_memory' }));
    engine.addItem(item({ id: 'fact', kind: 'finding', class: 'finding', source: 'verified_fact' }));
    const g = engine.build('worker-1', REQ).generation;
    expect(ids(g.included)).toContain('fact');
    expect(reasonOf(g, 'mem')).toBe('scope: project memory is excluded for this agent');
    expect(reasonOf(g, 'recalled')).toBe('scope: project memory is excluded for this agent');
  });

  it('[scope-deps] parent reports enter only from dependency tasks', () => {
    const { engine } = setup({ dependencyTaskIds: ['task-db'] });
    const report = (id: string, taskId: string) => item({ id, kind: 'report', class: 'finding', source: 'parent_report', taskId, agentId: `w-${taskId}`, content: `Report of ${taskId}: refresh token rows migrated in src/db/users.ts` });
    engine.addItem(report('dep', 'task-db'));
    engine.addItem(report('unrelated', 'task-ui'));
    const g = engine.build('worker-1', REQ).generation;
    expect(ids(g.included)).toContain('dep');
    expect(ids(g.included)).not.toContain('unrelated');
    expect(reasonOf(g, 'unrelated')).toBe('scope: report of task task-ui, not a dependency of this task');
  });

  it('[scope-clip] an oversized item is clipped to head and tail around a token marker; mandatory and pinned ones are not', () => {
    const { engine } = setup({ maxItemTokens: 120 });
    const lines = Array.from({ length: 80 }, (_, i) => `line ${String(i).padStart(2, '0')}: refresh token detail ${i}`);
    const long = lines.join('\n');
    engine.addItem(item({ id: 'log', kind: 'code', class: 'finding', content: long }));
    engine.addItem(item({ id: 'pinned-log', kind: 'code', class: 'finding', content: long + '\npinned', pinned: true }));
    engine.addItem(item({ id: 'mandatory-log', kind: 'code', class: 'finding', content: long + '\nmandatory', mandatory: true }));
    const g = engine.build('worker-1', REQ).generation;

    const entry = g.included.find((e) => e.item.id === 'log')!;
    const m = /\n\[… (\d+) tokens clipped …\]\n/.exec(entry.item.content);
    expect(m).not.toBeNull();
    const [head, tail] = entry.item.content.split(m![0]);
    expect(long.startsWith(head!)).toBe(true);
    expect(long.endsWith(tail!)).toBe(true);
    expect(head).toContain('line 00');
    expect(tail).toContain('line 79');
    // N is the tokens of the removed middle.
    const middle = long.slice(head!.length, long.length - tail!.length);
    expect(Number(m![1])).toBe(Math.ceil(middle.length / 4));
    expect(entry.tokens).toBeLessThanOrEqual(120);
    expect(g.compressed).toContainEqual({ itemId: 'log', from: expect.any(Number), to: entry.tokens, method: 'clip' });
    // The pool keeps the whole item.
    expect(engine.item('log').content).toBe(long);

    for (const id of ['pinned-log', 'mandatory-log']) {
      expect(g.included.find((e) => e.item.id === id)!.item.content).toBe(engine.item(id).content);
      expect(g.compressed.map((c) => c.itemId)).not.toContain(id);
    }
  });

  it('[scope-clip] an item within the limit is left whole', () => {
    const { engine } = setup({ maxItemTokens: 400 });
    engine.addItem(item({ id: 'small', kind: 'code', class: 'finding' }));
    const g = engine.build('worker-1', REQ).generation;
    expect(g.included.find((e) => e.item.id === 'small')!.item.content).toBe(engine.item('small').content);
    expect(g.compressed).toEqual([]);
  });

  it('[scope-fixed] the scope the agent registered with is the one every generation packs with, and its identity still holds it', () => {
    const scope: Scope = { classes: ['task_state'] };
    const { engine } = setup(scope);
    engine.addItem(item({ id: 'grep', kind: 'tool_output', class: 'ephemeral', content: 'src/auth/store.ts:12: saveToken(refresh token)', relevance: 1, confidence: 1 }));
    const first = engine.build('worker-1', REQ).generation;
    expect(reasonOf(first, 'grep')).toBe("scope: class ephemeral is not in this agent's scope");
    const second = engine.rebuild('worker-1').generation;
    expect([first.number, second.number]).toEqual([1, 2]);
    expect(ids(second.included)).not.toContain('grep');
    expect(second.included.every((e) => e.item.class === 'task_state')).toBe(true);
    expect(engine.identity('worker-1').scope).toEqual(scope);
  });

  it('[exclusion-reasons] every reason names its cause: scope, strategy, relevance or budget', () => {
    const { engine } = setup({ classes: ['task_state', 'finding', 'ephemeral'] }, 1200);
    engine.addItem(item({ id: 'mem', kind: 'architecture', class: 'project_memory' }));
    engine.addItem(item({ id: 'hist', kind: 'transcript', class: 'raw_history' }));
    engine.addItem(item({ id: 'noise', kind: 'note', class: 'ephemeral', content: 'lunch menu', files: [], symbols: [], taskId: 'x', confidence: 0, at: T0 - 48 * 3600_000 }));
    for (let i = 0; i < 10; i++) engine.addItem(item({ id: `code${i}`, kind: 'code', class: 'finding', content: `code ${i} `.repeat(60) }));
    const g = engine.build('worker-1', REQ).generation;
    const all = new Map(g.dropped.map((d) => [d.item.id, d.reason]));
    expect(all.get('mem')).toMatch(/^scope: /);
    expect(all.get('hist')).toMatch(/^scope: /);
    expect(all.get('noise')).toBe('low relevance: below 0.3 for optional material');
    expect([...all.values()].some((r) => /^budget: (needs \d+ tokens, \d+ left of \d+|the target of \d+ tokens is full)$/.test(r))).toBe(true);
    expect(g.included.length + g.dropped.length).toBe(engine.items().length);
  });
});
