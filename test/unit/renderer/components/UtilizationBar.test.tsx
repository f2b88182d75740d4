import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { UtilizationBar } from '../../../../renderer/components/UtilizationBar';

describe('UtilizationBar', () => {
  afterEach(cleanup);

  it('shows tokens against the budget as a meter', () => {
    render(<UtilizationBar used={2_500} budget={10_000} />);
    const meter = screen.getByRole('meter', { name: 'context utilization' });
    expect(meter.getAttribute('aria-valuenow')).toBe('2500');
    expect(meter.getAttribute('aria-valuemax')).toBe('10000');
    expect(meter.textContent).toBe('25%');
    expect(meter.className).not.toContain('util--over');
  });

  it('marks over budget, fills the track without clipping the figure', () => {
    render(<UtilizationBar used={12_000} budget={10_000} />);
    const meter = screen.getByRole('meter');
    expect(meter.className).toContain('util--over');
    expect(meter.getAttribute('title')).toBe('12k of 10k tokens, engine budget (over budget)');
    expect(meter.textContent).toBe('120%');
    expect((meter.querySelector('.util__fill') as HTMLElement).style.width).toBe('100%');
  });

  it('a zero budget reads as 0%, not NaN', () => {
    render(<UtilizationBar used={5} budget={0} />);
    expect(screen.getByRole('meter').textContent).toBe('0%');
  });
});
