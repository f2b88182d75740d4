import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useFrameLag } from '../../../../renderer/views/useFrameLag';

/** Animation frames run only when the test says so. */
function manualFrames() {
  const frames = new Map<number, FrameRequestCallback>();
  let next = 1;
  vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => {
    frames.set(next, cb);
    return next++;
  });
  vi.stubGlobal('cancelAnimationFrame', (id: number) => frames.delete(id));
  return {
    pending: () => frames.size,
    draw: () =>
      act(() => {
        const due = [...frames.values()];
        frames.clear();
        for (const cb of due) cb(performance.now());
      }),
  };
}

describe('useFrameLag', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the first value at once and a change only after the next frame', () => {
    const frames = manualFrames();
    const { result, rerender } = renderHook(({ v }) => useFrameLag(v), { initialProps: { v: 'a' } });
    expect(result.current).toBe('a');
    expect(frames.pending()).toBe(0);
    rerender({ v: 'b' });
    expect(result.current).toBe('a');
    frames.draw();
    expect(result.current).toBe('b');
    expect(frames.pending()).toBe(0);
  });

  it('changes within one frame show the newest, and changes every frame never starve it', () => {
    const frames = manualFrames();
    const { result, rerender } = renderHook(({ v }) => useFrameLag(v), { initialProps: { v: 1 } });
    rerender({ v: 2 });
    rerender({ v: 3 });
    expect(frames.pending()).toBe(1);
    frames.draw();
    expect(result.current).toBe(3);
    for (const v of [4, 5, 6]) {
      rerender({ v });
      frames.draw();
      expect(result.current).toBe(v);
    }
  });

  it('a change back before the frame shows nothing new; unmounting cancels the frame', () => {
    const frames = manualFrames();
    const { result, rerender, unmount } = renderHook(({ v }) => useFrameLag(v), { initialProps: { v: 'x' } });
    rerender({ v: 'y' });
    rerender({ v: 'x' });
    frames.draw();
    expect(result.current).toBe('x');
    rerender({ v: 'z' });
    expect(frames.pending()).toBe(1);
    unmount();
    expect(frames.pending()).toBe(0);
  });
});
