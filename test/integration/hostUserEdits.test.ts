import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommandName, ItemDto, MemoryEntryDto, StrataEvent } from '../../engine/contract';
import { Host } from '../../engine/host';
import { manualClock } from '../../engine/ports/Clock';
import { manualScheduler } from '../../engine/ports/Scheduler';
import { quarterTokenizer } from '../support/engineFixtures';
import { demoDir, tempDir } from '../support/tempDir';

/** Issue 22 items 11 and 13 at the host: a typed constraint, an edited memory entry, an undone verify. */
describe('Host: what a user types and undoes', () => {
  let tmp: ReturnType<typeof tempDir>;
  let host: Host;
  let scheduler: ReturnType<typeof manualScheduler>;
  let events: StrataEvent[];
  let conn: ReturnType<Host['connect']>;

  beforeEach(async () => {
    tmp = tempDir();
    scheduler = manualScheduler();
    host = Host.open({
      catalogPath: join(tmp.dir, 'catalog.sqlite'),
      workspaceName: 'demo',
      version: '9.9.9',
      demoDir,
      demoTickMs: 100,
      clock: manualClock(Date.parse('2026-11-29T12:00:00Z')),
      scheduler,
      tokenizer: quarterTokenizer,
    });
    events = [];
    conn = host.connect((e) => events.push(e));
    await conn.call('subscribe', { events: ['item.changed', 'memory.changed'] });
    for (let i = 0; i < 3; i++) {
      scheduler.tick();
      await host.runs.current?.idle();
    }
  });
  afterEach(() => {
    host.close();
    tmp.remove();
  });

  const call = async <T,>(name: CommandName, args: unknown): Promise<{ ok: true; value: T } | { ok: false; code: string; message: string }> => {
    const envelope = await conn.call(name, args);
    return envelope.ok ? { ok: true, value: envelope.value as T } : { ok: false, code: envelope.error.code, message: envelope.error.message };
  };
  const value = async <T,>(name: CommandName, args: unknown): Promise<T> => {
    const r = await call<T>(name, args);
    if (!r.ok) throw new Error(`${name}: ${r.code} ${r.message}`);
    return r.value;
  };

  it('[user-constraint] a typed constraint enters the pool pinned, as the user\'s requirement of the agent\'s task, and is in L1 of the next generation', async () => {
    const before = host.engine.currentGeneration('primary');
    const { item } = await value<{ item: ItemDto }>('addConstraint', { agentId: 'primary', title: ' No new dependencies ', text: '  Add no npm dependency without asking.  ' });
    expect(item).toMatchObject({ kind: 'constraint', class: 'task_state', title: 'No new dependencies', content: 'Add no npm dependency without asking.', pinned: true });
    expect(item.provenance).toMatchObject({ source: 'user_requirement', agentId: 'user', taskId: host.engine.identity('primary').taskId });
    expect(host.engine.item(item.id).pinned).toBe(true);
    expect(events.filter((e) => e.name === 'item.changed' && e.payload.itemId === item.id).map((e) => e.name === 'item.changed' && e.payload.change)).toEqual(['added', 'pinned']);
    // The pin makes the primary's next build start a new generation; tick until it took a turn.
    for (let i = 0; i < 30 && host.engine.currentGeneration('primary') === before; i++) {
      scheduler.tick();
      await host.runs.current?.idle();
    }
    const g = host.engine.generation('primary', host.engine.currentGeneration('primary'));
    expect(g.number).toBeGreaterThan(before);
    expect(g.included.find((e) => e.item.id === item.id)?.layer).toBe('L1');
  });

  it('[user-constraint] pinned: false adds it unpinned; without a title it is titled "Constraint"', async () => {
    const { item } = await value<{ item: ItemDto }>('addConstraint', { agentId: 'primary', text: 'Prefer small commits.', pinned: false });
    expect(item).toMatchObject({ title: 'Constraint', pinned: false });
  });

  it.each([
    ['empty text', { agentId: 'primary', text: '   ' }, 'invalid_args', /text is empty/],
    ['a secret', { agentId: 'primary', text: 'Deploy with sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH' }, 'invalid_args', /text: contains/],
    ['a two-line title', { agentId: 'primary', title: 'a\nb', text: 'fine' }, 'invalid_args', /title has a line break/],
    ['text over 4000 characters', { agentId: 'primary', text: 'x'.repeat(4001) }, 'invalid_args', /limit 4000/],
    ['an unknown agent', { agentId: 'nobody', text: 'fine' }, 'not_found', /nobody/],
  ])('[user-constraint] refuses %s with a clear error and adds nothing', async (_name, args, code, reason) => {
    const items = host.engine.items().length;
    const r = await call('addConstraint', args);
    expect(r).toMatchObject({ ok: false, code });
    if (!r.ok) expect(r.message).toMatch(reason);
    if (!r.ok) expect(r.message).not.toContain('sk-ant-');
    expect(host.engine.items().length).toBe(items);
  });

  it('[memory-edit] [memory-unverify] edit and unverify over the contract, each announced; a stale revision is a conflict', async () => {
    const { entry: proposed } = await value<{ entry: MemoryEntryDto }>('promoteToMemory', { itemId: 'objective' });
    const { entry: verified } = await value<{ entry: MemoryEntryDto }>('verifyMemory', { id: proposed.id, revision: proposed.revision });
    const { entry: undone } = await value<{ entry: MemoryEntryDto }>('unverifyMemory', { id: verified.id, revision: verified.revision });
    expect(undone).toMatchObject({ state: 'candidate', verified: false, revision: verified.revision + 1 });
    const again = await value<{ entry: MemoryEntryDto }>('verifyMemory', { id: undone.id, revision: undone.revision });
    const { entry: edited } = await value<{ entry: MemoryEntryDto }>('editMemory', { id: again.entry.id, revision: again.entry.revision, body: 'Rotate refresh tokens on every use.' });
    expect(edited).toMatchObject({ state: 'candidate', verified: false, body: 'Rotate refresh tokens on every use.', title: proposed.title });
    expect(await call('editMemory', { id: edited.id, revision: edited.revision - 1, body: 'late' })).toMatchObject({ ok: false, code: 'conflict' });
    expect(await call('editMemory', { id: edited.id, revision: edited.revision, body: '' })).toMatchObject({ ok: false, code: 'invalid_args' });
    expect(host.memory.get(edited.id)).toMatchObject({ revision: edited.revision, body: 'Rotate refresh tokens on every use.' });
    const changes = events.flatMap((e) => (e.name === 'memory.changed' ? [e.payload.change] : []));
    expect(changes).toEqual(['proposed', 'verified', 'unverified', 'verified', 'edited']);
  });
});
