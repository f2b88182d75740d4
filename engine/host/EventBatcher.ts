import type { EventPayload, StrataEvent } from '../contract';
import type { Scheduler } from '../ports/Scheduler';

type Batched = 'turn.completed' | 'generation.created' | 'context.refreshed' | 'usage.recorded';
type Entry<K extends Batched> = EventPayload<K>[keyof EventPayload<K>] extends (infer E)[] ? E : never;

/** Flushes per second per event name (4 names: at most 16 batched messages a second). */
export const BATCH_INTERVAL_MS = 250;
/** Entries one message carries at most; a backlog beyond is sent over the next flushes. */
const BATCH_MAX_ENTRIES = 500;

const KEY: { [K in Batched]: keyof EventPayload<K> } = {
  'turn.completed': 'turns',
  'generation.created': 'generations',
  'context.refreshed': 'refreshes',
  'usage.recorded': 'calls',
};

/**
 * Collects the runtime's high-rate events and sends each name at most once per
 * {@link BATCH_INTERVAL_MS} with everything since (`[event-batching]`), so a busy run cannot flood
 * the views; the timer runs only while something is pending.
 */
export class EventBatcher {
  readonly #pending = new Map<Batched, unknown[]>();
  #latest: (() => StrataEvent | undefined) | undefined;
  #stop: (() => void) | undefined;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly emit: (event: StrataEvent) => void,
  ) {}

  add<K extends Batched>(name: K, entry: Entry<K>): void {
    const list = this.#pending.get(name) ?? [];
    list.push(entry);
    this.#pending.set(name, list);
    this.#stop ??= this.scheduler.every(BATCH_INTERVAL_MS, () => this.flush());
  }

  /**
   * Send the event `make` returns at the next flush, after the batches, once however often this is
   * called before it: it is made at the flush, so it says how things stand then (undefined: nothing to send).
   */
  latest(make: () => StrataEvent | undefined): void {
    this.#latest = make;
    this.#stop ??= this.scheduler.every(BATCH_INTERVAL_MS, () => this.flush());
  }

  /** Send what is pending now (one message per name). */
  flush(): void {
    for (const [name, list] of this.#pending) {
      const batch = list.splice(0, BATCH_MAX_ENTRIES);
      if (batch.length > 0) this.emit({ name, payload: { [KEY[name]]: batch } } as StrataEvent);
      if (list.length === 0) this.#pending.delete(name);
    }
    const latest = this.#latest?.();
    this.#latest = undefined;
    if (latest) this.emit(latest);
    if (this.#pending.size === 0) {
      this.#stop?.();
      this.#stop = undefined;
    }
  }

  close(): void {
    this.#stop?.();
    this.#stop = undefined;
    this.#latest = undefined;
    this.#pending.clear();
  }
}
