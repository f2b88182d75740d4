import type { ExchangeSink } from '../../gateway/types';
import type { Clock } from '../../ports/Clock';

/** The server's side of an `ExchangeSink` (`[gateway-sink]`). */
export interface GuardedSink {
  start(status: number, headers: Readonly<Record<string, string>>): void;
  chunk(chunk: Uint8Array): void;
  /** Ends the exchange; only the first call counts. */
  end(error?: string): void;
  /** Delivers what was held and stops holding (after the decision's `afterForward` ran). */
  release(): void;
}

/**
 * `[gateway-sink]` Wraps a handler's sink so that it gets exactly one `upstreamEnd` and nothing
 * after it, each call stamped with the time it happened (the clock port), and calls that wait while
 * `held` (until `afterForward` has run, so the handler's own bookkeeping comes first). A sink that
 * throws never disturbs the exchange: its first throw is reported through `onError`.
 */
export function guardSink(sink: ExchangeSink | undefined, clock: Clock, onError: (error: unknown) => void, held: boolean): GuardedSink {
  let ended = false;
  let reported = false;
  let queue: (() => void)[] | undefined = held ? [] : undefined;
  const call = (f: (s: ExchangeSink) => void) => {
    if (!sink) return;
    const run = () => {
      try {
        f(sink);
      } catch (error) {
        if (!reported) onError(error);
        reported = true;
      }
    };
    if (queue) queue.push(run);
    else run();
  };
  return {
    start(status, headers) {
      if (ended) return;
      const at = clock.now();
      call((s) => s.upstreamStart(status, headers, at));
    },
    chunk(chunk) {
      if (ended) return;
      const at = clock.now();
      call((s) => s.upstreamChunk(chunk, at));
    },
    end(error) {
      if (ended) return;
      ended = true;
      const at = clock.now();
      call((s) => s.upstreamEnd(error === undefined ? { at } : { at, error }));
    },
    release() {
      const held = queue;
      queue = undefined;
      for (const run of held ?? []) run();
    },
  };
}
