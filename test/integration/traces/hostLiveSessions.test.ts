import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveSessionDetailDto, LiveSessionDto, StrataEvent } from '../../../engine/contract';
import { Host } from '../../../engine/host';
import { ATTACHED_MAX, SESSION_EVENT_MS } from '../../../engine/host/LiveSessions';
import { manualClock } from '../../../engine/ports/Clock';
import { manualScheduler } from '../../../engine/ports/Scheduler';
import { importTraceText } from '../../../engine/traces/importTrace';
import { costUsd, listPriceOf } from '../../../engine/pricing/costUsd';
import { recordedTruth } from '../../../engine/traces/replay/recordedTruth';
import { quarterTokenizer } from '../../support/engineFixtures';
import { tempDir } from '../../support/tempDir';

const tracesDir = process.env.STRATA_TRACES_DIR ?? resolve(import.meta.dirname, '../../../../shared/traces');
const codexTrace = join(tracesDir, 'codex-rollout-jsonl', 'eaglepointAiLabs__TASK-w1t9__sessions__session-1.jsonl');
const have = existsSync(codexTrace);
if (!have) console.warn(`hostLiveSessions: SKIPPED, ${codexTrace} does not exist (set STRATA_TRACES_DIR)`);

describe.skipIf(!have)('[live-attach] attached sessions through the host', () => {
  const tmp = tempDir('strata-host-live-');
  let host: Host;
  // The host's clock and timers (the spacing of session.updated); each session's thread runs on the real ones.
  const clock = manualClock(Date.parse('2026-11-30T09:00:00Z'));
  const scheduler = manualScheduler(clock);
  const events: StrataEvent[] = [];
  let conn: ReturnType<Host['connect']>;
  const value = async <T,>(name: string, args: unknown): Promise<T> => {
    const envelope = await conn.call(name, args);
    if (!envelope.ok) throw new Error(`${name}: ${envelope.error.code}: ${envelope.error.message}`);
    return envelope.value as T;
  };
  beforeAll(async () => {
    host = Host.open({ catalogPath: join(tmp.dir, 'catalog.sqlite'), workspaceName: 'live', version: '1', tokenizer: quarterTokenizer, sessionRoots: {}, clock, scheduler });
    conn = host.connect((e) => events.push(e));
    await conn.call('subscribe', { events: ['session.updated', 'session.detached'] });
  });
  afterAll(() => {
    host.close();
    tmp.remove();
  });

  it('[live-attach] follows a Codex session as it is written: updates go out, and the series converge to the whole file\'s, replayed in a worker', async () => {
    const text = readFileSync(codexTrace, 'utf8');
    const file = join(tmp.dir, 'rollout-live.jsonl');
    writeFileSync(file, '');
    const { session } = await value<{ session: LiveSessionDto }>('attachSession', { path: file, budget: 32_000 });
    expect(session).toMatchObject({ sessionId: 'ses-1', path: file, strategy: 'variable', budget: 32_000, lines: 0 });
    const bytes = Buffer.from(text);
    const whole = recordedTruth(importTraceText(text, file).events);
    const steps: number[] = [];
    for (let at = 0; at < bytes.length; at += 200_000) {
      appendFileSync(file, bytes.subarray(at, at + 200_000));
      // The thread reads and converts the slice now and replays it; then the host's spacing lets the update out.
      host.liveSessions.flush();
      await host.liveSessions.idle();
      scheduler.advance(SESSION_EVENT_MS);
      steps.push((await value<LiveSessionDetailDto>('getSession', { sessionId: 'ses-1' })).session.real.steps);
    }
    // Live: the steps grew slice by slice up to the whole file's.
    expect(steps.some((n) => n > 0 && n < whole.steps)).toBe(true);
    expect(steps).toEqual([...steps].sort((x, y) => x - y));
    const detail = await value<LiveSessionDetailDto>('getSession', { sessionId: 'ses-1' });
    expect(detail.session.real).toMatchObject({ steps: whole.steps, promptTokens: whole.promptTokens, cacheRead: whole.cacheRead, hitRate: whole.hitRate });
    expect(detail.session.model).toBe(whole.model);
    // Each recorded step's prompt in dollars at the recorded model's list price, as the whole file's.
    const rates = listPriceOf(whole.model)!.perMTok;
    expect(detail.real).toEqual(whole.perStep.map((s) => ({ step: s.step, prompt: s.prompt, input: s.input, cacheRead: s.cacheRead, cacheWrite: s.cacheWrite, output: s.output, promptUsd: costUsd(s, rates).prompt })));
    expect(detail.session.real.promptUsd).toBe(whole.costUsd!.prompt);
    expect(detail.session.priceNote).toBe(whole.pricing.note);
    expect(detail.shadow).toHaveLength(whole.steps);
    expect(detail.session.shadow).toMatchObject({ steps: whole.steps, replayedEvents: detail.session.events });
    expect(detail.session.shadow!.generation).toBeGreaterThanOrEqual(1);
    const updates = events.filter((e) => e.name === 'session.updated');
    expect(updates.length).toBeGreaterThan(1);
    expect(updates.at(-1)).toMatchObject({ payload: { session: { sessionId: 'ses-1', real: { steps: whole.steps }, shadow: { replayedEvents: detail.session.events } } } });
    expect((await value<{ sessions: LiveSessionDto[] }>('listAttached', {})).sessions.map((s) => s.sessionId)).toEqual(['ses-1']);
    // Attaching the same file with the same settings gives the same session.
    expect((await value<{ session: LiveSessionDto }>('attachSession', { path: file, budget: 32_000 })).session.sessionId).toBe('ses-1');
    // The session file was only read.
    expect(readFileSync(file, 'utf8')).toBe(text);
    await value('detachSession', { sessionId: 'ses-1' });
    expect(events.at(-1)).toEqual({ name: 'session.detached', payload: { sessionId: 'ses-1' } });
    expect((await value<{ sessions: LiveSessionDto[] }>('listAttached', {})).sessions).toEqual([]);
  }, 90_000);

  it('[live-attach] refuses what is not a session file, unknown ids, and more than the attach limit', async () => {
    const refusal = async (name: string, args: unknown) => {
      const envelope = await conn.call(name, args);
      return envelope.ok ? undefined : envelope.error;
    };
    expect(await refusal('attachSession', { path: join(tmp.dir, 'missing.jsonl') })).toMatchObject({ code: 'not_found' });
    expect(await refusal('attachSession', { path: '/etc/passwd' })).toMatchObject({ code: 'invalid_args', message: expect.stringContaining('not a session file') });
    mkdirSync(join(tmp.dir, 'dir.jsonl'));
    expect(await refusal('attachSession', { path: join(tmp.dir, 'dir.jsonl') })).toMatchObject({ code: 'invalid_args' });
    expect(await refusal('detachSession', { sessionId: 'ses-99' })).toMatchObject({ code: 'not_found' });
    expect(await refusal('getSession', { sessionId: 'ses-99' })).toMatchObject({ code: 'not_found' });
    for (let i = 0; i < ATTACHED_MAX; i++) {
      writeFileSync(join(tmp.dir, `s${i}.jsonl`), '');
      await value('attachSession', { path: join(tmp.dir, `s${i}.jsonl`) });
    }
    writeFileSync(join(tmp.dir, 'one-more.jsonl'), '');
    expect(await refusal('attachSession', { path: join(tmp.dir, 'one-more.jsonl') })).toMatchObject({ code: 'conflict' });
  });
});
