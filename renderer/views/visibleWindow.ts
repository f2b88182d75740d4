/**
 * The rows of a fixed-row-height list that a viewport shows: `[start, end)` with `overscan` rows
 * either side, clamped to the list. Pure, so the windowing is tested without layout.
 */
export function visibleWindow(o: { count: number; rowHeight: number; scrollTop: number; height: number; overscan: number }): { start: number; end: number } {
  if (o.count <= 0 || o.rowHeight <= 0) return { start: 0, end: 0 };
  const first = Math.floor(Math.max(0, o.scrollTop) / o.rowHeight);
  const shown = Math.ceil(Math.max(0, o.height) / o.rowHeight) + 1;
  const start = Math.max(0, Math.min(first, o.count - 1) - o.overscan);
  const end = Math.min(o.count, first + shown + o.overscan);
  return { start, end };
}
