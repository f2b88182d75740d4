import { describe, expect, it } from 'vitest';
import type { StrataEvent } from '../../../../engine/contract';
import { EventHub } from '../../../../engine/host/EventHub';

const log: StrataEvent = { name: 'log', payload: { entry: { seq: 1, at: 't', level: 'info', agentId: null, message: 'm' } } };

describe('EventHub', () => {
  it('delivers only subscribed events, and nothing after close', () => {
    const hub = new EventHub();
    const got: StrataEvent[] = [];
    const s = hub.open((e) => got.push(e));
    hub.emit(log);
    expect(got).toEqual([]);
    s.setSubscriptions(['log']);
    hub.emit(log);
    expect(got).toEqual([log]);
    s.close();
    expect(s.closed).toBe(true);
    hub.emit(log);
    expect(got).toHaveLength(1);
  });

  it('drops a session whose delivery throws and keeps serving the others', () => {
    const hub = new EventHub();
    const bad = hub.open(() => {
      throw new Error('window gone');
    });
    const got: StrataEvent[] = [];
    const good = hub.open((e) => got.push(e));
    bad.setSubscriptions(['log']);
    good.setSubscriptions(['log']);
    hub.emit(log);
    hub.emit(log);
    expect(bad.closed).toBe(true);
    expect(got).toHaveLength(2);
    expect(hub.size()).toBe(1);
  });
});
