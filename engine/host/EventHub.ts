import type { EventName, StrataEvent } from '../contract';
import type { ClientSession } from './ClientSession';

type Deliver = (event: StrataEvent) => void;

/** Fans host events out to the sessions that subscribed to them. */
export class EventHub {
  private nextId = 1;
  private readonly sessions = new Map<number, { subs: Set<EventName>; deliver: Deliver }>();

  open(deliver: Deliver): ClientSession {
    const id = this.nextId++;
    const entry = { subs: new Set<EventName>(), deliver };
    this.sessions.set(id, entry);
    const hub = this;
    return {
      id,
      subscriptions: () => [...entry.subs],
      setSubscriptions(events) {
        entry.subs = new Set(events);
      },
      close() {
        hub.sessions.delete(id);
      },
      get closed() {
        return !hub.sessions.has(id);
      },
    };
  }

  /** Deliver `event` to every subscribed session; a session whose delivery throws is dropped. */
  emit(event: StrataEvent): void {
    for (const [id, s] of this.sessions) {
      if (!s.subs.has(event.name)) continue;
      try {
        s.deliver(event);
      } catch {
        this.sessions.delete(id);
      }
    }
  }

  size(): number {
    return this.sessions.size;
  }

  closeAll(): void {
    this.sessions.clear();
  }
}
