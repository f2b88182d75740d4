import type { AbortSignalLike } from '../ports/AbortSignalLike';

/** A cancel signal the pure runtime can make (it has no platform AbortController); adapters bridge it to one. */
export class Cancellation implements AbortSignalLike {
  #aborted = false;
  #reason: unknown;
  readonly #listeners = new Set<() => void>();

  get aborted(): boolean {
    return this.#aborted;
  }

  get reason(): unknown {
    return this.#reason;
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    if (this.#aborted) listener();
    else this.#listeners.add(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    this.#listeners.delete(listener);
  }

  cancel(reason: unknown = new CancelledError('cancelled')): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    for (const l of [...this.#listeners]) l();
    this.#listeners.clear();
  }
}

/** A turn that was cancelled before it committed anything. */
export class CancelledError extends Error {
  /** Stable for programs. */
  readonly code = 'cancelled';

  constructor(message: string) {
    super(message);
    this.name = 'CancelledError';
  }
}
