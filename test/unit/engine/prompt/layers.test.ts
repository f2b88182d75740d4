import { generationTokens } from '../../../../engine/generations/Generation';
import { describe, expect, it } from 'vitest';
import type { AgentRole } from '../../../../engine/contract';
import { roleInstructions } from '../../../../engine/prompt/roleInstructions';
import { renderItem } from '../../../../engine/prompt/renderItem';
import { layerOf } from '../../../../engine/prompt/layerOf';
import { createItem } from '../../../../engine/items/createItem';
import { contentHash } from '../../../../engine/text/hash';
import { identity, item, item as fixtureItem, newEngine, T0, taskItems } from '../../../support/engineFixtures';

const ROLES: AgentRole[] = ['primary', 'worker', 'debug', 'integration', 'probe', 'reviewer', 'architect', 'test'];
const ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

describe('[L0-identical] role instructions', () => {
  it('[L0-identical] two agents of one role get byte-identical L0 in every generation; no id, task or time in it', () => {
    const { engine, clock } = newEngine();
    engine.registerAgent(identity({ agentId: 'worker-1', taskId: 'task-auth', task: 'Implement refresh token rotation' }));
    engine.registerAgent(identity({ agentId: 'worker-7', taskId: 'task-db', task: 'Migrate the users table', model: 'gpt-4o', budget: 9000, workspace: 'ws_other' }));
    for (const i of taskItems()) engine.addItem(i);
    const a = engine.build('worker-1', { phase: 'implement' }).prompt.layers.L0;
    clock.advance(3600_000);
    const b = engine.build('worker-7', { phase: 'verify' }).prompt.layers.L0;
    expect(b).toBe(a);
    expect(engine.rebuild('worker-1').prompt.layers.L0).toBe(a);
    expect(engine.refresh('worker-7', 'test').result.prompt.layers.L0).toBe(a);
    expect(a).toBe(roleInstructions('worker'));
    for (const forbidden of ['worker-1', 'worker-7', 'task-auth', 'task-db', 'refresh token rotation', 'users table', 'gpt-4o', 'ws_']) {
      expect(a).not.toContain(forbidden);
    }
    expect(a).not.toMatch(ISO);
    expect(a).not.toMatch(/Generation \d/);
  });

  it('[L0-identical] each role has its own L0, and every L0 starts with the shared rules', () => {
    const all = ROLES.map(roleInstructions);
    expect(new Set(all).size).toBe(ROLES.length);
    const shared = all[0]!.slice(0, all[0]!.indexOf('Role:'));
    expect(shared.length).toBeGreaterThan(200);
    for (const [i, text] of all.entries()) {
      expect(text.startsWith(shared)).toBe(true);
      expect(text).toContain(`Role: ${ROLES[i]}.`);
      expect(text).not.toMatch(/\d/);
    }
  });
});

describe('[L1-stable] the session-stable layer', () => {
  function setup() {
    const { engine, clock } = newEngine();
    engine.registerAgent(identity({ agentId: 'worker-42' }));
    const item = (over: Parameters<typeof fixtureItem>[0]) => fixtureItem({ title: String(over?.kind), ...over });
    engine.addItem(item({ id: 'z-constraint', kind: 'constraint', class: 'task_state', content: 'Keep the API stable.', agentId: 'worker-42', at: Date.parse('2026-01-05T10:00:00Z') }));
    engine.addItem(item({ id: 'a-constraint', kind: 'constraint', class: 'task_state', content: 'Never log token values.', agentId: 'worker-42' }));
    engine.addItem(item({ id: 'acc', kind: 'acceptance', class: 'task_state', content: 'Tests pass.', mandatory: true, agentId: 'user' }));
    engine.addItem(item({ id: 'obj', kind: 'objective', class: 'task_state', content: 'Rotate refresh tokens.', mandatory: true, agentId: 'user' }));
    engine.addItem(item({ id: 'tsk', kind: 'task', class: 'task_state', content: 'Implement rotation in src/auth/refresh.ts.', agentId: 'user' }));
    engine.addItem(item({ id: 'arch', kind: 'architecture', class: 'project_memory', content: 'Sessions live in Redis; tokens in Postgres.' }));
    engine.addItem(item({ id: 'b-pinned', kind: 'code', class: 'finding', content: 'export function saveToken() {}', pinned: true }));
    engine.addItem(item({ id: 'a-pinned', kind: 'note', class: 'ephemeral', content: 'User: prefer small commits.', pinned: true }));
    engine.addItem(item({ id: 'arch-finding', kind: 'architecture', class: 'finding', content: 'A finding about architecture is L2.' }));
    return { engine, clock };
  }

  it('[L1-stable] L1 holds objective, task, acceptance, constraints, architecture memory and pinned items, ordered by kind then id', () => {
    const { engine } = setup();
    const g = engine.build('worker-42', { phase: 'implement' }).generation;
    expect(g.included.filter((e) => e.layer === 'L1').map((e) => e.item.id)).toEqual(['obj', 'tsk', 'acc', 'a-constraint', 'z-constraint', 'arch', 'a-pinned', 'b-pinned']);
    expect(g.included.find((e) => e.item.id === 'arch-finding')?.layer).toBe('L2');
  });

  it('[L1-stable] L1 carries no timestamps, no agent id and no counters, and is the same whatever the arrival order and time', () => {
    const { engine } = setup();
    const r = engine.build('worker-42', { phase: 'implement' });
    const L1 = r.prompt.layers.L1;
    expect(L1).not.toMatch(ISO);
    expect(L1).not.toContain('2026');
    expect(L1).not.toContain(String(T0));
    expect(L1).not.toContain('worker-42');
    expect(L1).not.toMatch(/generation|build \d|#\d/i);

    // The same items, added in reverse and an hour later, by another agent id: same L1 bytes.
    const { engine: other, clock } = newEngine();
    clock.advance(3600_000);
    other.registerAgent(identity({ agentId: 'worker-99' }));
    for (const i of [...setup().engine.items()].reverse()) {
      other.addItem({ ...i, source: i.provenance.source, agentId: i.provenance.agentId === 'worker-42' ? 'worker-99' : i.provenance.agentId, taskId: i.provenance.taskId, at: i.provenance.at + 3600_000, files: i.provenance.files, symbols: i.provenance.symbols });
    }
    expect(other.build('worker-99', { phase: 'implement' }).prompt.layers.L1).toBe(L1);
  });

  it('[L1-stable] an item renders as title, evidence, files and content only', () => {
    const i = createItem({ id: 'id-123', kind: 'finding', class: 'finding', title: 'Token store', content: 'saveToken() writes the row.\n\n', source: 'worker_finding', agentId: 'worker-42', taskId: 'task-x', at: T0, files: ['src/auth/store.ts'], confidence: 0.77 });
    expect(renderItem(i)).toBe('### Token store\n[finding | worker finding | unverified]\nfiles: src/auth/store.ts\nsaveToken() writes the row.\n');
  });

  it.each([
    ['objective', 'task_state', false, 'L1'],
    ['constraint', 'task_state', false, 'L1'],
    ['architecture', 'project_memory', false, 'L1'],
    ['architecture', 'finding', false, 'L2'],
    ['code', 'finding', true, 'L1'],
    ['code', 'finding', false, 'L2'],
    ['report', 'finding', false, 'L2'],
  ] as const)('[L1-stable] %s of class %s (pinned %s) goes to %s', (kind, cls, pinned, layer) => {
    expect(layerOf(createItem({ id: 'x', kind, class: cls, content: 'c', source: 'worker_finding', agentId: 'a', taskId: 't', at: T0, pinned }))).toBe(layer);
  });
});

describe('[L2-order] the order of L2 at a boundary', () => {
  it('[L2-order] most durable first, then content hash, then id, whatever the score or arrival order', () => {
    const { engine } = newEngine();
    engine.registerAgent(identity({ budget: 20_000 }));
    const specs = [
      { id: 'f1', durability: 'transient' as const, content: 'alpha refresh token' },
      { id: 'f2', durability: 'project' as const, content: 'bravo refresh token' },
      { id: 'f3', durability: 'task' as const, content: 'charlie refresh token' },
      { id: 'f4', durability: 'phase' as const, content: 'delta refresh token' },
      { id: 'f5', durability: 'task' as const, content: 'echo refresh token' },
      { id: 'f6', durability: 'task' as const, content: 'foxtrot refresh token' },
      { id: 'f7', durability: 'project' as const, content: 'golf refresh token' },
      // Same content as f3: the id breaks the tie.
      { id: 'f0', durability: 'task' as const, content: 'charlie refresh token' },
    ];
    for (const [n, s] of specs.entries()) engine.addItem(item({ ...s, kind: 'code', class: 'finding', relevance: n / 10, at: T0 - n * 60_000 }));
    const g = engine.build('worker-1', { phase: 'implement', keywords: ['refresh'] }).generation;
    const l2 = g.included.filter((e) => e.layer === 'L2');
    expect(l2).toHaveLength(specs.length);
    const rank = { project: 0, task: 1, phase: 2, transient: 3 };
    const expected = [...specs].sort(
      (a, b) => rank[a.durability] - rank[b.durability] || (contentHash(a.content) < contentHash(b.content) ? -1 : contentHash(a.content) > contentHash(b.content) ? 1 : 0) || (a.id < b.id ? -1 : 1),
    );
    expect(l2.map((e) => e.item.id)).toEqual(expected.map((s) => s.id));
    expect(l2.map((e) => e.item.provenance.durability)).toEqual(['project', 'project', 'task', 'task', 'task', 'task', 'phase', 'transient']);
    expect(l2.findIndex((e) => e.item.id === 'f0')).toBe(l2.findIndex((e) => e.item.id === 'f3') - 1);
    // The prompt text follows the same order.
    const r = engine.refresh('worker-1', 'test').result;
    expect(r.generation.included.map((e) => e.item.id)).toEqual(g.included.map((e) => e.item.id));
    const at = (id: string) => r.prompt.layers.L2.indexOf(specs.find((s) => s.id === id)!.content + '\n');
    const positions = expected.filter((s) => s.id !== 'f0').map((s) => at(s.id));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  it('[L2-order] [rebuild-keeps-prefix] a refresh re-sorts what a generation appended; a rebuild keeps the emitted order in front', () => {
    const { engine } = newEngine();
    engine.registerAgent(identity({ budget: 20_000 }));
    engine.addItem(item({ id: 'old', kind: 'code', class: 'finding', durability: 'transient', content: 'old transient refresh token' }));
    engine.build('worker-1', { phase: 'implement' });
    engine.addItem(item({ id: 'new', kind: 'code', class: 'finding', durability: 'project', content: 'new durable refresh token' }));
    const inside = engine.build('worker-1', { phase: 'implement' }).generation.included.map((e) => e.item.id);
    expect(inside).toEqual(['old', 'new']);
    expect(engine.rebuild('worker-1').generation.included.map((e) => e.item.id)).toEqual(['old', 'new']);
    expect(engine.refresh('worker-1', 'test').result.generation.included.map((e) => e.item.id)).toEqual(['new', 'old']);
  });
});

describe('[L3-tail] the volatile tail', () => {
  it('[L3-tail] L3 is this turn\'s input and the status line, at the very end, replaced on every build', () => {
    const { engine } = newEngine();
    engine.registerAgent(identity({ budget: 4000 }));
    for (const i of taskItems()) engine.addItem(i);
    const a = engine.build('worker-1', { phase: 'implement', input: 'First question?' });
    const pct = (t: number) => Math.round((t / 4000) * 100);
    expect(a.prompt.layers.L3).toBe(`First question?\nGeneration 1 · ${pct(generationTokens(a.generation))}% of budget · phase implement\n`);
    expect(a.text.endsWith(`<now>\n${a.prompt.layers.L3}</now>\n`)).toBe(true);

    engine.addItem(item({ id: 'f', kind: 'code', class: 'finding' }));
    const b = engine.build('worker-1', { phase: 'implement', input: 'Second question?' });
    expect(b.started).toBe(false);
    expect(b.text).not.toContain('First question?');
    expect(b.prompt.layers.L3).toBe(`Second question?\nGeneration 1 · ${pct(generationTokens(b.generation))}% of budget · phase implement\n`);
    expect(b.text.indexOf('Second question?')).toBeGreaterThan(b.text.indexOf(b.prompt.layers.L2));

    const c = engine.build('worker-1', { phase: 'verify' });
    expect(c.prompt.layers.L3).toBe(`Generation 2 · ${pct(generationTokens(c.generation))}% of budget · phase verify\n`);
    expect(c.text).not.toContain('Second question?');
  });

  it('[L3-tail] only the tail differs between two builds with nothing new', () => {
    const { engine } = newEngine();
    engine.registerAgent(identity());
    for (const i of taskItems()) engine.addItem(i);
    engine.addItem(item({ id: 'f', kind: 'code', class: 'finding' }));
    const a = engine.build('worker-1', { phase: 'implement', input: 'one' });
    const b = engine.build('worker-1', { phase: 'implement', input: 'two' });
    const tailStart = a.text.lastIndexOf('<now>\n') + '<now>\n'.length;
    expect(b.text.slice(0, tailStart)).toBe(a.text.slice(0, tailStart));
    expect(b.text.slice(tailStart)).toBe(`two\n${b.prompt.layers.L3.slice(4)}</now>\n`);
    expect(b.reuse).toBeCloseTo(Buffer.byteLength(b.text.slice(0, tailStart)) / Buffer.byteLength(b.text), 10);
  });
});
