import type { LiveSessionDetailDto, LiveSessionDto, SessionDto, StrataEvent } from '../../../engine/contract';

/** A discovered Claude Code session file; tests override only what they are about. */
export function makeSession(path: string, over: Partial<SessionDto> = {}): SessionDto {
  return {
    path,
    tool: 'claude-code',
    project: 'strata',
    cwd: '/work/strata',
    model: 'claude-sonnet-4',
    startedAt: '2026-01-05T09:00:00.000Z',
    size: 12_288,
    modifiedAt: '2026-01-05T09:30:00.000Z',
    growing: false,
    done: false,
    subagents: 0,
    ...over,
  };
}

type Shadow = NonNullable<LiveSessionDto['shadow']>;

/** An attached session with recorded and Strata figures. */
export function makeLive(sessionId: string, over: Partial<LiveSessionDto> = {}, shadow: Partial<Shadow> | null = {}): LiveSessionDto {
  return {
    sessionId,
    revision: 1,
    path: `/home/dev/.claude/projects/strata/${sessionId}.jsonl`,
    strategy: 'variable',
    budget: 100_000,
    status: 'following',
    message: '',
    lines: 40,
    events: 30,
    model: 'claude-sonnet-4',
    priceNote: 'claude-sonnet-4 (Claude Sonnet 4): $3 input, $0.3 cache read, $3.75 5-minute / $6 1-hour cache write, $15 output per million tokens',
    // Prompt dollars at those rates, 5-minute writes: the sums of the detail's steps below.
    real: { steps: 3, promptTokens: 30_000, input: 6_000, cacheRead: 20_000, cacheWrite: 4_000, output: 900, hitRate: 20_000 / 30_000, promptUsd: 0.039 },
    shadow:
      shadow === null
        ? null
        : {
            steps: 3,
            promptTokens: 24_000,
            input: 3_000,
            cacheRead: 19_000,
            cacheWrite: 2_000,
            output: 900,
            hitRate: 19_000 / 24_000,
            promptUsd: 0.0222,
            prefixReuse: 0.92,
            neededReferenceRecall: 0.75,
            generation: 2,
            refreshes: 1,
            replayedEvents: 30,
            provider: 'anthropic',
            ...shadow,
          },
    shadowError: null,
    ...over,
  };
}

/** Three steps of each series: the recorded one and Strata's, whose totals `makeLive` carries. */
export function makeLiveDetail(sessionId: string, over: Partial<LiveSessionDto> = {}): LiveSessionDetailDto {
  return {
    session: makeLive(sessionId, over),
    real: [
      { step: 1, prompt: 8_000, input: 4_000, cacheRead: 2_000, cacheWrite: 2_000, output: 300, promptUsd: 0.0201 },
      { step: 2, prompt: 10_000, input: 1_000, cacheRead: 8_000, cacheWrite: 1_000, output: 300, promptUsd: 0.00915 },
      { step: 3, prompt: 12_000, input: 1_000, cacheRead: 10_000, cacheWrite: 1_000, output: 300, promptUsd: 0.00975 },
    ],
    shadow: [
      { step: 1, promptTokens: 6_000, input: 2_000, cacheRead: 3_000, cacheWrite: 1_000, prefixReuse: 0, neededReferenceRecall: null, generation: 1, promptUsd: 0.01065 },
      { step: 2, promptTokens: 8_000, input: 500, cacheRead: 7_000, cacheWrite: 500, prefixReuse: 0.9, neededReferenceRecall: 1, generation: 1, promptUsd: 0.005475 },
      { step: 3, promptTokens: 10_000, input: 500, cacheRead: 9_000, cacheWrite: 500, prefixReuse: 0.95, neededReferenceRecall: 0.5, generation: 2, promptUsd: 0.006075 },
    ],
    compactions: [2],
    generations: [{ step: 3, generation: 2, kind: 'refresh' }],
  };
}

export const sessionUpdated = (session: LiveSessionDto): StrataEvent => ({ name: 'session.updated', payload: { session } });
export const sessionDetached = (sessionId: string): StrataEvent => ({ name: 'session.detached', payload: { sessionId } });
