import { describe, expect, it } from 'vitest';
import type { Boundary } from '../../../../engine/generations/Generation';
import { budgetBoundary, indicatorRefresh, openingBoundary, type PendingBoundary } from '../../../../engine/generations/nextBoundary';
import type { Indicators } from '../../../../engine/refresh/indicators';

const indicators = (fired: string[]): Indicators => ({ utilization: 0.9, repeatedToolSignatures: 0, repeatedFailedEdits: 0, stalledBuilds: 0, obsoletePhaseShare: 0, transcriptShare: 0, fired });

describe('[boundary-only-evict] the boundary a build opens with', () => {
  const pending: PendingBoundary = { kind: 'refresh', reason: 'operator asked' };
  it.each<[string, PendingBoundary | undefined, { phase: string } | undefined, string, Boundary | undefined]>([
    ['a first build starts', undefined, undefined, 'implement', { kind: 'start', reason: 'first build' }],
    ['a first build after a refresh was asked for takes the refresh', pending, undefined, 'implement', pending],
    ['what was asked for wins over a phase change', pending, { phase: 'explore' }, 'implement', pending],
    ['a phase change rebuilds', undefined, { phase: 'explore' }, 'implement', { kind: 'rebuild', reason: 'phase changed: explore → implement' }],
    ['the same phase with nothing asked for appends', undefined, { phase: 'implement' }, 'implement', undefined],
  ])('[boundary-only-evict] [scope-fixed] %s', (_name, asked, current, phase, expected) => {
    expect(openingBoundary(asked, current, phase)).toEqual(expected);
  });

  it('[boundary-only-evict] the boundary asked for is the one the generation records', () => {
    expect(openingBoundary(pending, { phase: 'implement' }, 'implement')).toBe(pending);
  });

  it('[rebuild-at-budget] appending past the budget is a rebuild, not a refresh, naming the budget', () => {
    expect(budgetBoundary(4000)).toEqual({ kind: 'rebuild', reason: 'budget reached: appending would exceed 4000 tokens' });
  });
});

describe('[auto-refresh-rule] the refresh a build\'s indicators ask for', () => {
  it.each<[string, boolean, boolean, string[], PendingBoundary | undefined]>([
    ['utilization with another indicator, autoRefresh on', true, false, ['utilization', 'stalledBuilds'], { kind: 'refresh', reason: 'indicators: utilization, stalledBuilds', auto: true }],
    ['the same with autoRefresh off', false, false, ['utilization', 'stalledBuilds'], undefined],
    ['the same on a build that began its generation', true, true, ['utilization', 'stalledBuilds'], undefined],
    ['utilization alone', true, false, ['utilization'], undefined],
    ['others without utilization', true, false, ['stalledBuilds', 'transcriptShare'], undefined],
  ])('[auto-refresh-rule] [no-single-trigger] %s', (_name, autoRefresh, started, fired, expected) => {
    expect(indicatorRefresh({ autoRefresh, started, indicators: indicators(fired) })).toEqual(expected);
  });
});
