import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useRevealedCount } from '../../../../renderer/views/useRevealedCount';

/** An IntersectionObserver the test drives: `report(true)` says the observed element is in view. */
function fakeObservers() {
  const live = new Set<{ cb: IntersectionObserverCallback; els: Element[]; margin: string | undefined }>();
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      readonly o: { cb: IntersectionObserverCallback; els: Element[]; margin: string | undefined };
      constructor(cb: IntersectionObserverCallback, init?: IntersectionObserverInit) {
        this.o = { cb, els: [], margin: init?.rootMargin };
        live.add(this.o);
      }
      observe(el: Element) {
        this.o.els.push(el);
      }
      disconnect() {
        live.delete(this.o);
      }
    },
  );
  return {
    count: () => live.size,
    margins: () => [...live].map((o) => o.margin),
    report: (inView: boolean) =>
      act(() => {
        for (const o of [...live]) o.cb(o.els.map((target) => ({ target, isIntersecting: inView }) as IntersectionObserverEntry), {} as IntersectionObserver);
      }),
  };
}

function List({ total, step }: { total: number; step: number }) {
  const [count, sentinel] = useRevealedCount(step);
  const shown = Math.min(total, count);
  return (
    <>
      <ul>
        {Array.from({ length: shown }, (_, i) => (
          <li key={i}>{i}</li>
        ))}
      </ul>
      {shown < total && <div ref={sentinel} data-testid="rest" />}
    </>
  );
}

describe('useRevealedCount', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('renders `step` rows, and `step` more each time the spacer after them comes into view', () => {
    const io = fakeObservers();
    render(<List total={120} step={50} />);
    expect(screen.getAllByRole('listitem')).toHaveLength(50);
    expect(io.margins()).toEqual(['400px']);
    io.report(false);
    expect(screen.getAllByRole('listitem')).toHaveLength(50);
    io.report(true);
    expect(screen.getAllByRole('listitem')).toHaveLength(100);
    // Still in view after growing: the new observer's first report grows it again.
    io.report(true);
    expect(screen.getAllByRole('listitem')).toHaveLength(120);
    expect(screen.queryByTestId('rest')).toBeNull();
    expect(io.count()).toBe(0);
  });

  it('renders everything where nothing can observe intersections', () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    render(<List total={120} step={50} />);
    expect(screen.getAllByRole('listitem')).toHaveLength(120);
  });
});
