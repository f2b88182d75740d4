import { describe, expect, it } from 'vitest';
import type { Action } from '../../../../../renderer/store/actions';
import { reduceSessions, sessionsInitialState, type SessionsState } from '../../../../../renderer/store/sessions/sessionsSlice';
import { makeLive, makeLiveDetail, makeSession, sessionDetached, sessionUpdated } from '../../sessionFixtures';

const run = (actions: Action[], from: SessionsState = sessionsInitialState): SessionsState => actions.reduce(reduceSessions, from);
const ids = (s: SessionsState) => s.order;

describe('reduceSessions: discovered sessions', () => {
  it('goes loading → ready with the sessions and the folders searched; a failure keeps the last list', () => {
    const a = makeSession('/s/a.jsonl');
    let s = run([{ type: 'sessions.listing' }]);
    expect(s.discovered.status).toBe('loading');
    s = run([{ type: 'sessions.listed', sessions: [a], roots: ['/home/dev/.claude/projects'] }], s);
    expect(s.discovered).toEqual({ sessions: [a], roots: ['/home/dev/.claude/projects'], status: 'ready', error: null });
    s = run([{ type: 'sessions.listing' }, { type: 'sessions.listFailed', message: 'Sessions could not be listed: boom' }], s);
    expect(s.discovered).toMatchObject({ sessions: [a], status: 'failed', error: 'Sessions could not be listed: boom' });
  });
});

describe('reduceSessions: attached sessions', () => {
  it('an attach answer adds the session with its notice; session.updated replaces it in place', () => {
    let s = run([{ type: 'sessions.attaching', path: '/s/a.jsonl' }]);
    expect(s.attaching).toBe('/s/a.jsonl');
    s = run([{ type: 'sessions.attachDone', session: makeLive('ses-1'), message: 'Attached ses-1.' }], s);
    expect(s.attaching).toBeNull();
    expect(s.notice).toEqual({ status: 'ok', message: 'Attached ses-1.' });
    const later = makeLive('ses-1', { lines: 90 });
    s = run([{ type: 'event', event: sessionUpdated(makeLive('ses-2')) }, { type: 'event', event: sessionUpdated(later) }], s);
    expect(ids(s)).toEqual(['ses-1', 'ses-2']);
    expect(s.attached['ses-1']).toBe(later);
  });

  it('a failed attach changes no session and shows the host’s error', () => {
    const s = run([{ type: 'sessions.attaching', path: '/nope.jsonl' }, { type: 'sessions.attachFailed', path: '/nope.jsonl', message: 'Could not attach /nope.jsonl: No session file at /nope.jsonl.' }]);
    expect(s.attached).toEqual({});
    expect(s.attaching).toBeNull();
    expect(s.notice).toEqual({ status: 'error', message: 'Could not attach /nope.jsonl: No session file at /nope.jsonl.' });
  });

  it('session.detached removes the session and its detail; a later update of it is ignored', () => {
    let s = run([{ type: 'sessions.attachedSnapshot', sessions: [makeLive('ses-1'), makeLive('ses-2')] }, { type: 'sessions.detail', detail: makeLiveDetail('ses-1') }]);
    expect(s.details['ses-1']).toBeDefined();
    s = run([{ type: 'event', event: sessionDetached('ses-1') }], s);
    expect(ids(s)).toEqual(['ses-2']);
    expect(s.details['ses-1']).toBeUndefined();
    // An update queued before the detach (the renderer applied the detach answer first).
    const after = run([{ type: 'event', event: sessionUpdated(makeLive('ses-1')) }], s);
    expect(after).toBe(s);
    // The host's own event after the answer changes nothing more.
    expect(run([{ type: 'event', event: sessionDetached('ses-1') }], s)).toBe(s);
  });

  it('a detach in flight is marked; its failure keeps the session and shows why', () => {
    let s = run([{ type: 'sessions.attachedSnapshot', sessions: [makeLive('ses-1')] }, { type: 'sessions.detaching', sessionId: 'ses-1' }]);
    expect(s.detaching).toEqual({ 'ses-1': true });
    s = run([{ type: 'sessions.detachFailed', sessionId: 'ses-1', message: 'Could not detach ses-1: No attached session ses-1.' }], s);
    expect(s.detaching).toEqual({});
    expect(ids(s)).toEqual(['ses-1']);
    expect(s.notice?.status).toBe('error');
    s = run([{ type: 'sessions.detaching', sessionId: 'ses-1' }, { type: 'sessions.detachDone', sessionId: 'ses-1', message: 'Detached ses-1.' }], s);
    expect(ids(s)).toEqual([]);
    expect(s.notice).toEqual({ status: 'ok', message: 'Detached ses-1.' });
  });

  it('a listing does not undo what arrived while it was in flight: newer updates, attaches and detaches stay', () => {
    let s = run([{ type: 'sessions.attachedSnapshot', sessions: [makeLive('ses-1'), makeLive('ses-2')] }, { type: 'sessions.attachedLoading' }]);
    const fresh = makeLive('ses-1', { lines: 500 });
    s = run(
      [
        { type: 'event', event: sessionUpdated(fresh) },
        { type: 'event', event: sessionDetached('ses-2') },
        { type: 'sessions.attachDone', session: makeLive('ses-3'), message: 'Attached ses-3.' },
      ],
      s,
    );
    // The host's answer was taken before those three.
    s = run([{ type: 'sessions.attachedSnapshot', sessions: [makeLive('ses-1', { lines: 100 }), makeLive('ses-2')] }], s);
    expect(ids(s)).toEqual(['ses-1', 'ses-3']);
    expect(s.attached['ses-1']).toBe(fresh);
    expect(s.attachedStatus).toBe('ready');
    // Once listed, later listings are taken as they are (except the detached id, until the next listing starts).
    const next = run([{ type: 'sessions.attachedSnapshot', sessions: [makeLive('ses-1', { lines: 700 })] }], s);
    expect(next.attached['ses-1']?.lines).toBe(700);
    expect(ids(next)).toEqual(['ses-1']);
  });

  it('a new listing forgets earlier detaches: after a host restart the id may name a new session', () => {
    let s = run([{ type: 'sessions.attachedSnapshot', sessions: [makeLive('ses-1')] }, { type: 'event', event: sessionDetached('ses-1') }]);
    s = run([{ type: 'sessions.attachedLoading' }, { type: 'sessions.attachedSnapshot', sessions: [makeLive('ses-1', { path: '/other.jsonl' })] }], s);
    expect(s.attached['ses-1']?.path).toBe('/other.jsonl');
  });

  it('a failed listing says why and keeps the sessions held', () => {
    const s = run([{ type: 'sessions.attachedSnapshot', sessions: [makeLive('ses-1')] }, { type: 'sessions.attachedLoading' }, { type: 'sessions.attachedFailed', message: 'Attached sessions could not be listed: offline' }]);
    expect(s.attachedStatus).toBe('failed');
    expect(s.attachedError).toBe('Attached sessions could not be listed: offline');
    expect(ids(s)).toEqual(['ses-1']);
  });
});

describe('reduceSessions: details', () => {
  it('keeps the latest detail per attached session, and its load error until the next answer', () => {
    let s = run([{ type: 'sessions.attachedSnapshot', sessions: [makeLive('ses-1')] }, { type: 'sessions.detailFailed', sessionId: 'ses-1', message: 'timeout' }]);
    expect(s.detailErrors).toEqual({ 'ses-1': 'timeout' });
    const d = makeLiveDetail('ses-1');
    s = run([{ type: 'sessions.detail', detail: d }], s);
    expect(s.details['ses-1']).toBe(d);
    expect(s.detailErrors).toEqual({});
  });

  it('drops a late answer for a session no longer attached', () => {
    const s = run([{ type: 'sessions.attachedSnapshot', sessions: [] }]);
    expect(run([{ type: 'sessions.detail', detail: makeLiveDetail('ses-9') }], s)).toBe(s);
    expect(run([{ type: 'sessions.detailFailed', sessionId: 'ses-9', message: 'not found' }], s)).toBe(s);
  });

  it('other actions and events leave the slice as it is', () => {
    const s = run([{ type: 'sessions.attachedSnapshot', sessions: [makeLive('ses-1')] }]);
    expect(reduceSessions(s, { type: 'tree.filter', text: 'x' })).toBe(s);
    expect(reduceSessions(s, { type: 'event', event: { name: 'trace.imported', payload: { trace: { id: 't', name: 't', format: 'claude-code-jsonl', sourcePath: '/t', sha256: 'a'.repeat(64), importedAt: '', steps: 0, toolCalls: 0, eventCount: 0 } } } })).toBe(s);
    expect(reduceSessions(s, { type: 'sessions.dismissNotice' })).toBe(s);
  });
});
