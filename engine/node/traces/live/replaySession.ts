/**
 * The counterfactual replay of an attached session: its main agent and its most recently active
 * subagents, each replayed under the attached strategy and budget with its generations captured
 * for the inspector. Pure: it runs in the session's own thread (`liveSessionThread.ts`), with one
 * shared tokenizer, so a replay of a longer prefix counts only the texts that are new.
 */
import type { StrategyName } from '../../../strategies/Strategy';
import { providerOfModel, recordedModel } from '../../../traces/replay/replayDefaults';
import type { ReplayResult } from '../../../traces/replay/ReplayTypes';
import { runReplayJob, type ReplayJob } from '../replayWorker';
import type { TraceEvent } from '../../../traces/TraceEvent';
import { subagentThreads } from './sessionThreads';

/** Subagents of one session replayed counterfactually (the most recently active ones); the others show their recorded figures only. */
const SHADOW_SUBAGENTS_MAX = 16;

/** A session replay: the main agent's and each replayed subagent's (by its key). */
export interface SessionReplay {
  main: ReplayResult;
  subagents: Record<string, ReplayResult>;
}

export interface SessionReplayOptions {
  path: string;
  strategy: StrategyName;
  budget: number;
}

/** The jobs of a session's replay: the main agent's, then one per replayed subagent (with its key). */
function sessionReplayJobs(events: readonly TraceEvent[], o: SessionReplayOptions): { job: ReplayJob; key: string | null; events: readonly TraceEvent[] }[] {
  // Priced as the recording agent's provider would bill it: OpenAI's automatic cache for GPT and o-series models.
  const provider = providerOfModel(recordedModel(events)) ?? 'anthropic';
  const subs = subagentThreads(events)
    .sort((a, b) => b.lastIndex - a.lastIndex)
    .slice(0, SHADOW_SUBAGENTS_MAX)
    .filter((t) => t.events.length > 0);
  const job = (trace: string): ReplayJob => ({ trace, strategy: o.strategy, budget: o.budget, provider, capture: true });
  return [{ job: job(o.path), key: null, events }, ...subs.map((t) => ({ job: job(`${o.path}#${t.key}`), key: t.key, events: t.events }))];
}

/** Replays a session in the calling thread. The main agent's failure fails it; a subagent's only leaves that subagent without a shadow. */
export function replaySession(events: readonly TraceEvent[], o: SessionReplayOptions): SessionReplay {
  const [main, ...subs] = sessionReplayJobs(events, o);
  if (!main) throw new Error('a session replay has a main job');
  const result: SessionReplay = { main: runReplayJob(main.job, main.events), subagents: {} };
  for (const s of subs) {
    try {
      result.subagents[s.key as string] = runReplayJob(s.job, s.events);
    } catch {
      // Shown with its recorded figures only, as a subagent past the cap is.
    }
  }
  return result;
}
