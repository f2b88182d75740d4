import { describe, expect, it } from 'vitest';
import type { Action } from '../../../../../renderer/store/actions';
import { gatewayInitialState, reduceGateway, type GatewayState } from '../../../../../renderer/store/gateway/gatewaySlice';
import { initialRootState, reduce } from '../../../../../renderer/store/reduce';
import { gatewayCallEvent, gatewaySessionEvent, gatewayStatusEvent, makeGatewayCall, makeGatewayDetail, makeGatewaySession, makeGatewayStatus, makeThread, stoppedGateway } from '../../gatewayFixtures';

const run = (actions: Action[], from: GatewayState = gatewayInitialState) => actions.reduce(reduceGateway, from);

/** A state showing session gs-1 with its detail: the main thread holding call c1, and a subagent. */
function selected(): GatewayState {
  const main = makeThread('th-main', { calls: [makeGatewayCall('c1')] });
  const sub = makeThread('th-sub', { parentId: 'th-main', label: 'subagent 1' });
  return run([
    { type: 'gateway.loaded', status: makeGatewayStatus(), sessions: [makeGatewaySession('gs-1'), makeGatewaySession('gs-2', { updatedAt: 500 })] },
    { type: 'gateway.select', sessionId: 'gs-1' },
    { type: 'gateway.detail', detail: makeGatewayDetail('gs-1', [main, sub]) },
  ]);
}

describe('gateway slice', () => {
  it('a load keeps the status and the sessions, most recently active first', () => {
    const s = run([{ type: 'gateway.loading' }, { type: 'gateway.loaded', status: makeGatewayStatus(), sessions: [makeGatewaySession('old', { updatedAt: 1 }), makeGatewaySession('new', { updatedAt: 9 })] }]);
    expect(s.load).toBe('ready');
    expect(s.status?.running).toBe(true);
    expect(s.sessions.map((x) => x.id)).toEqual(['new', 'old']);
  });

  it('a selected session shows its main thread first; its detail for another session is ignored', () => {
    const s = selected();
    expect(s.threadId).toBe('th-main');
    expect(reduceGateway(s, { type: 'gateway.detail', detail: makeGatewayDetail('gs-2') })).toBe(s);
  });

  it('gateway.call merges into the selected session: a known call is replaced, a new one joins its thread newest last, other sessions and unknown threads change nothing', () => {
    const s = selected();
    const ended = makeGatewayCall('c1', { status: 200, usage: { input: 1, cacheRead: 2, cacheWrite: 3, cacheWrite1h: 0, output: 4 } });
    const fresh = makeGatewayCall('c2', { status: undefined, usage: undefined });
    const next = reduceGateway(s, { type: "event", event: gatewayCallEvent(ended, fresh) });
    const main = next.detail!.threads.find((t) => t.id === 'th-main')!;
    expect(main.calls.map((c) => c.id)).toEqual(['c1', 'c2']);
    expect(main.calls[0]!.usage?.output).toBe(4);
    // The subagent's thread is untouched (the same object).
    expect(next.detail!.threads[1]).toBe(s.detail!.threads[1]);
    const other = makeGatewayCall('x', { sessionId: 'gs-2' });
    expect(reduceGateway(s, { type: 'event', event: gatewayCallEvent(other) })).toBe(s);
    const unknownThread = makeGatewayCall('y', { threadId: 'th-new' });
    expect(reduceGateway(s, { type: 'event', event: gatewayCallEvent(unknownThread) })).toBe(s);
  });

  it('a thread keeps its newest 100 calls as calls stream in', () => {
    let s = selected();
    for (let i = 2; i <= 130; i++) s = reduceGateway(s, { type: 'event', event: gatewayCallEvent(makeGatewayCall(`c${i}`)) });
    const calls = s.detail!.threads[0]!.calls;
    expect(calls).toHaveLength(100);
    expect(calls[0]!.id).toBe('c31');
    expect(calls.at(-1)!.id).toBe('c130');
  });

  it('gateway.session updates the list and the shown session; an older copy never rolls a session back', () => {
    const s = selected();
    const newer = makeGatewaySession('gs-2', { updatedAt: 5_000, totals: { ...s.sessions[1]!.totals, calls: 9 } });
    const next = reduceGateway(s, { type: 'event', event: gatewaySessionEvent(newer, makeGatewaySession('gs-3', { updatedAt: 3_000 })) });
    expect(next.sessions.map((x) => x.id)).toEqual(['gs-2', 'gs-3', 'gs-1']);
    const mine = makeGatewaySession('gs-1', { updatedAt: 6_000, mode: 'manage' });
    const shown = reduceGateway(next, { type: 'event', event: gatewaySessionEvent(mine) });
    expect(shown.detail!.session.mode).toBe('manage');
    // A listing answered before that event does not undo it.
    const listed = reduceGateway(shown, { type: 'gateway.sessionsListed', sessions: [makeGatewaySession('gs-1', { updatedAt: 1_000 })] });
    expect(listed.sessions.map((x) => [x.id, x.mode])).toEqual([['gs-1', 'manage']]);
  });

  it('a listing without the selected session lets the selection go (the gateway started again)', () => {
    const s = reduceGateway(selected(), { type: 'gateway.sessionsListed', sessions: [] });
    expect(s.selectedId).toBeNull();
    expect(s.detail).toBeNull();
  });

  it('gateway.status replaces the status; a failed toggle keeps it and says why', () => {
    const s = run([{ type: 'gateway.loaded', status: stoppedGateway(), sessions: [] }, { type: 'event', event: gatewayStatusEvent(makeGatewayStatus()) }]);
    expect(s.status?.running).toBe(true);
    const refused = run([{ type: 'gateway.toggling' }, { type: 'gateway.toggleFailed', message: 'The gateway did not start: port 8787 is taken' }], s);
    expect(refused.status).toBe(s.status);
    expect(refused.toggling).toBe(false);
    expect(refused.notice).toEqual({ status: 'error', message: 'The gateway did not start: port 8787 is taken' });
  });

  it('a mode switch updates the session and the detail; a control updates its thread\'s pins and removals; a failure changes neither', () => {
    const s = selected();
    const busy = reduceGateway(s, { type: 'gateway.busy', key: 'gs-1' });
    expect(busy.busy['gs-1']).toBe(true);
    const set = reduceGateway(busy, { type: 'gateway.modeSet', session: makeGatewaySession('gs-1', { mode: 'manage' }), message: 'ok' });
    expect(set.busy['gs-1']).toBeUndefined();
    expect(set.detail!.session.mode).toBe('manage');
    expect(set.sessions.find((x) => x.id === 'gs-1')!.mode).toBe('manage');
    const controlled = reduceGateway(set, { type: 'gateway.controlled', key: 'k', threadId: 'th-sub', pins: ['toolu_1'], removals: ['toolu_2'], message: 'ok' });
    expect(controlled.detail!.threads[1]).toMatchObject({ pins: ['toolu_1'], removals: ['toolu_2'] });
    expect(controlled.detail!.threads[0]).toBe(set.detail!.threads[0]);
    const failed = reduceGateway({ ...controlled, busy: { k: true } }, { type: 'gateway.changeFailed', key: 'k', message: 'toolu_1 is pinned' });
    expect(failed.detail).toBe(controlled.detail);
    expect(failed.busy).toEqual({});
    expect(failed.notice?.status).toBe('error');
  });

  it('a request opens, fills in, and a late answer for another call is ignored', () => {
    const s = run([{ type: 'gateway.requestOpen', callId: 'c1' }], selected());
    expect(s.request).toEqual({ callId: 'c1', original: null, rewritten: null, error: null });
    expect(reduceGateway(s, { type: 'gateway.request', callId: 'c9', original: '{}', rewritten: null })).toBe(s);
    const filled = reduceGateway(s, { type: 'gateway.request', callId: 'c1', original: '{"a":1}', rewritten: '{"a":2}' });
    expect(filled.request).toMatchObject({ original: '{"a":1}', rewritten: '{"a":2}' });
    expect(reduceGateway(filled, { type: 'gateway.requestClose' }).request).toBeNull();
  });

  it('the root reducer carries the gateway slice and leaves it alone for other actions', () => {
    const next = reduce(initialRootState, { type: 'event', event: gatewayStatusEvent(makeGatewayStatus()) });
    expect(next.gateway.status?.running).toBe(true);
    expect(reduce(next, { type: 'tree.filter', text: 'x' }).gateway).toBe(next.gateway);
  });
});
