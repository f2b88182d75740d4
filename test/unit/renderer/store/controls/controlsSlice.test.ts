import { describe, expect, it } from 'vitest';
import { controlsInitialState, reduceControls } from '../../../../../renderer/store/controls/controlsSlice';

describe('reduceControls', () => {
  it('moves a target from pending to ok or error and can dismiss it', () => {
    let s = reduceControls(controlsInitialState, { type: 'control.pending', key: 'item:a', label: 'pin' });
    expect(s.byKey['item:a']).toEqual({ status: 'pending', label: 'pin', message: 'pin…' });
    s = reduceControls(s, { type: 'control.failed', key: 'item:a', label: 'pin', message: 'pin failed: No item a.' });
    expect(s.byKey['item:a']?.status).toBe('error');
    s = reduceControls(s, { type: 'control.done', key: 'agent:x', label: 'refresh', message: 'Context refreshed' });
    expect(Object.keys(s.byKey)).toEqual(['item:a', 'agent:x']);
    s = reduceControls(s, { type: 'control.dismiss', key: 'item:a' });
    expect(Object.keys(s.byKey)).toEqual(['agent:x']);
    expect(reduceControls(s, { type: 'control.dismiss', key: 'nope' })).toBe(s);
  });

  it('[change-preview] holds one question at a time: a new ask replaces it, a late preview of another is ignored, selecting an agent closes it', () => {
    let s = reduceControls(controlsInitialState, { type: 'control.ask', itemId: 'a', change: 'remove', title: 'A' });
    expect(s.confirm).toEqual({ itemId: 'a', change: 'remove', title: 'A', status: 'loading', agents: [], error: null });
    s = reduceControls(s, { type: 'control.ask', itemId: 'b', change: 'verify', title: 'B' });
    const late = reduceControls(s, { type: 'control.preview', itemId: 'a', change: 'remove', agents: [] });
    expect(late).toBe(s);
    s = reduceControls(s, { type: 'control.preview', itemId: 'b', change: 'verify', agents: [{ agentId: 'p', generation: 1, layer: 'L2', when: 'next boundary', promptTokens: 10, lostTokens: 4 }] });
    expect(s.confirm).toMatchObject({ itemId: 'b', status: 'ready', agents: [{ agentId: 'p' }] });
    s = reduceControls(s, { type: 'control.pending', key: 'item:b', label: 'verify' });
    expect(s.confirm?.itemId).toBe('b');
    expect(reduceControls(s, { type: 'agent.select', agentId: 'x' }).confirm).toBeNull();
    expect(reduceControls(s, { type: 'control.askClose' }).confirm).toBeNull();
  });
});
