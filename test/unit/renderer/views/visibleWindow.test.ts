import { describe, expect, it } from 'vitest';
import { visibleWindow } from '../../../../renderer/views/visibleWindow';

describe('visibleWindow', () => {
  it.each([
    { name: 'top of a long list', o: { count: 500, rowHeight: 40, scrollTop: 0, height: 400, overscan: 2 }, want: { start: 0, end: 13 } },
    { name: 'scrolled into the middle', o: { count: 500, rowHeight: 40, scrollTop: 4000, height: 400, overscan: 2 }, want: { start: 98, end: 113 } },
    { name: 'bottom clamps to the count', o: { count: 500, rowHeight: 40, scrollTop: 19_800, height: 400, overscan: 2 }, want: { start: 493, end: 500 } },
    { name: 'short list shows all', o: { count: 3, rowHeight: 40, scrollTop: 0, height: 400, overscan: 2 }, want: { start: 0, end: 3 } },
    { name: 'empty list', o: { count: 0, rowHeight: 40, scrollTop: 0, height: 400, overscan: 2 }, want: { start: 0, end: 0 } },
    { name: 'scrolled past a list that shrank', o: { count: 10, rowHeight: 40, scrollTop: 9_000, height: 400, overscan: 2 }, want: { start: 7, end: 10 } },
  ])('$name', ({ o, want }) => {
    expect(visibleWindow(o)).toEqual(want);
  });
});
