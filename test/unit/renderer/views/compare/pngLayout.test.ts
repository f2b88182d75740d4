import { describe, expect, it } from 'vitest';
import { pngLayout } from '../../../../../renderer/views/compare/download';

/** A measure where every character is 7 px wide. */
const measure = () => ({ font: '', measureText: (t: string) => ({ width: t.length * 7 }) });

describe('pngLayout', () => {
  it('keeps a short title on one line and the legend on one row', () => {
    const l = pngLayout(measure(), { width: 600, title: 'Prompt cost', legend: [{ label: 'variable', color: 'red' }], font: 'x' });
    expect(l.titleLines).toEqual(['Prompt cost']);
    expect(l.legend.map((e) => e.row)).toEqual([0]);
  });

  it('wraps a long title and flows the legend onto more rows within the width, and makes room for both', () => {
    const title = 'Cumulative uncached tokens per step · a-very-long-trace-name.jsonl · budget 64,000';
    const legend = ['variable', 'summary', 'role_optimized', 'sliding window', 'baseline (transcript)', 'as recorded'].map((label) => ({ label, color: 'red' }));
    const width = 320;
    const l = pngLayout(measure(), { width, title, legend, font: 'x' });
    expect(l.titleLines.length).toBeGreaterThan(1);
    expect(l.titleLines.join(' ')).toBe(title);
    for (const line of l.titleLines) expect(line.length * 7).toBeLessThanOrEqual(width - 24);
    const rows = Math.max(...l.legend.map((e) => e.row)) + 1;
    expect(rows).toBeGreaterThan(1);
    for (const e of l.legend) expect(e.x + 14 + 6 + e.label.length * 7).toBeLessThanOrEqual(width - 12);
    const one = pngLayout(measure(), { width: 2000, title, legend, font: 'x' });
    expect(l.top).toBeGreaterThan(one.top);
    expect(l.bottom).toBeGreaterThan(one.bottom);
  });
});
