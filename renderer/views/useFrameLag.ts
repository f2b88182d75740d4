import { useEffect, useRef, useState } from 'react';

/**
 * `value` as of the previous drawn frame: the first render shows it at once, a change follows on
 * the next animation frame (at once where there are no frames), however often it changes. Two
 * heavy redraws that follow one change (the two charts of a data batch) then take a frame each
 * instead of sharing one long frame.
 */
export function useFrameLag<T>(value: T): T {
  const [shown, setShown] = useState(value);
  const latest = useRef(value);
  const frame = useRef<number | null>(null);
  useEffect(() => {
    latest.current = value;
    if (Object.is(shown, value) || frame.current !== null) return;
    if (typeof requestAnimationFrame !== 'function') {
      setShown(() => value);
      return;
    }
    frame.current = requestAnimationFrame(() => {
      frame.current = null;
      setShown(() => latest.current);
    });
  }, [value, shown]);
  useEffect(
    () => () => {
      if (frame.current !== null) cancelAnimationFrame(frame.current);
      frame.current = null;
    },
    [],
  );
  return shown;
}
