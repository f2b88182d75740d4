import type { Scheduler } from '../ports/Scheduler';

/** Real timers, for the host processes (the only place in the engine that owns a timer). */
export const systemScheduler: Scheduler = {
  every(ms, fn) {
    const handle = setInterval(fn, ms);
    // A host that only plays the demo must not keep a CLI or test process alive.
    (handle as { unref?: () => void }).unref?.();
    return () => clearInterval(handle);
  },
};
