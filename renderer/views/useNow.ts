import { useEffect, useState } from 'react';

/** The wall clock, read again every `everyMs` (the tree's stall check); `clock` is injectable for tests. */
export function useNow(everyMs: number, clock: () => number = Date.now): number {
  const [now, setNow] = useState(clock);
  useEffect(() => {
    const timer = setInterval(() => setNow(clock()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs, clock]);
  return now;
}
