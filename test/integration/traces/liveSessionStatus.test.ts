import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentDto, StrataEvent } from '../../../engine/contract';
import { LiveSessions, SESSION_ACTIVE_MS } from '../../../engine/host/LiveSessions';
import { replayTrace } from '../../../engine/traces/replay/replayTrace';
import { quarterTokenizer } from '../../support/engineFixtures';
import { madeUpSession } from '../../support/liveSessionFixture';
import { tempDir } from '../../support/tempDir';

const tmp = tempDir('strata-live-status-');
let sessions: LiveSessions | undefined;
afterEach(() => {
  sessions?.close();
  tmp.remove();
});

describe('[live-agents] session agent statuses over time', () => {
  it('[live-agents] a session that stops writing turns from running to waiting, announced without a new line; a deleted file is failed', async () => {
    let now = Date.now();
    const events: StrataEvent[] = [];
    sessions = new LiveSessions({
      emit: (e) => events.push(e),
      replay: (ev, o) => Promise.resolve({ main: replayTrace(ev, { strategy: o.strategy, budget: o.budget, provider: 'anthropic', tokenizer: quarterTokenizer, timer: () => 0 }), subagents: {} }),
      now: () => now,
      pollMs: 10,
      throttleMs: 10,
      statusCheckMs: 20,
    });
    const file = join(tmp.dir, 'session.jsonl');
    writeFileSync(file, '');
    const { sessionId } = sessions.attach({ path: file, budget: 4_000 });
    appendFileSync(file, `${madeUpSession(3).join('\n')}\n`);
    const main = () => sessions!.agents().find((a) => a.agentId === sessionId) as AgentDto;
    const announced = () => events.flatMap((e) => (e.name === 'agent.updated' && e.payload.agent.agentId === sessionId ? [e.payload.agent] : []));
    for (let i = 0; i < 200 && announced().at(-1)?.status !== 'running'; i++) await new Promise((r) => setTimeout(r, 10));
    await sessions.idle();
    expect(main().status).toBe('running');
    expect(announced().at(-1)?.status).toBe('running');

    // Over a minute without a line: the periodic check announces the change by itself.
    now = Date.now() + SESSION_ACTIVE_MS + 1;
    for (let i = 0; i < 200 && announced().at(-1)?.status !== 'waiting'; i++) await new Promise((r) => setTimeout(r, 10));
    expect(announced().at(-1)?.status).toBe('waiting');
    expect(main().status).toBe('waiting');
    const revision = announced().at(-1)!.revision;
    // Nothing changed since: no more announcements of the same figures.
    await new Promise((r) => setTimeout(r, 100));
    expect(announced().at(-1)!.revision).toBe(revision);

    tmp.remove();
    for (let i = 0; i < 200 && announced().at(-1)?.status !== 'failed'; i++) await new Promise((r) => setTimeout(r, 10));
    expect(main().status).toBe('failed');
  });
});
