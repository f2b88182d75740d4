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
});
