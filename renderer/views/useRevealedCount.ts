import { useEffect, useState } from 'react';

/**
 * How many rows of a long list to render: `step` at first, `step` more each time the element after
 * the rendered rows (`sentinel`, a spacer standing for the rest) comes within `margin` of the view.
 * Everything where there is no IntersectionObserver (no layout to measure). The rows stay
 * reachable by scrolling; only the ones nobody scrolled to are not in the DOM.
 */
export function useRevealedCount(step: number, margin = '400px'): [count: number, sentinel: (el: HTMLElement | null) => void] {
  const observable = typeof IntersectionObserver === 'function';
  const [count, setCount] = useState(observable ? step : Infinity);
  const [el, sentinel] = useState<HTMLElement | null>(null);
  useEffect(() => {
    if (!el || !observable) return;
    // A new observer per count: its first report says whether the spacer is still in view after growing.
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) setCount(count + step);
    }, { rootMargin: margin });
    io.observe(el);
    return () => io.disconnect();
  }, [el, count, step, margin, observable]);
  return [count, sentinel];
}
