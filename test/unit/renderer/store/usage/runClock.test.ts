import { describe, expect, it } from 'vitest';
import { clockNote, clockOfRun } from '../../../../../renderer/store/usage/runClock';

describe('runClock', () => {
  it('names the clock of a run’s calls: a replayed recording’s own time, or the wall clock', () => {
    expect(clockOfRun({ driver: 'trace' })).toBe('recording time');
    expect(clockOfRun({ driver: 'model' })).toBe('wall clock');
    expect(clockOfRun(undefined)).toBe('wall clock');
    expect(clockNote('recording time')).toContain('not when it played here');
  });
});
