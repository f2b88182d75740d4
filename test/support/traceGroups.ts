/**
 * A trace's main thread as the groups a ContextManager appends (one user message alone, or one
 * assistant message followed by its results), built with the live pairing the replays use
 * (`walkTrace` + `transcriptVisitor`, full history): the tests feed real traces to a manager
 * through the same code that prices them. Assistant groups before the first user message are left
 * out and counted (a manager's history starts with a user message).
 */
import type { HistoryMessage } from '../../engine/conversation/Message';
import type { GroupInput } from '../../engine/conversation/readGroup';
import type { ReplayRepairs } from '../../engine/traces/replay/ReplayTypes';
import { AgentTranscript, transcriptRepairs, transcriptVisitor } from '../../engine/traces/replay/transcript';
import { walkTrace, type AgentKey } from '../../engine/traces/replay/walkTrace';
import type { TraceEvent } from '../../engine/traces/TraceEvent';

export interface TraceGroups {
  groups: GroupInput[];
  repairs: ReplayRepairs & { standInResults: number; lateResults: number; droppedLeading: number };
}

const withoutId = ({ id: _id, ...m }: HistoryMessage): GroupInput[number] => m;

/** The main agent's history of `events`, every call answered, cut into appendable groups. */
export function traceGroups(events: readonly TraceEvent[]): TraceGroups {
  const transcripts = new Map<AgentKey, AgentTranscript>();
  const walked = walkTrace(events, transcriptVisitor(events, 'full_history', { step: () => {} }, transcripts), { agents: 'main' });
  const main = transcripts.get(undefined);
  main?.settle();
  const groups: HistoryMessage[][] = [];
  for (const m of main?.messages() ?? []) {
    if (m.role === 'tool') groups.at(-1)?.push(m);
    else groups.push([m]);
  }
  const firstUser = groups.findIndex((g) => g[0]?.role === 'user');
  const kept = firstUser < 0 ? [] : groups.slice(firstUser);
  return {
    groups: kept.map((g) => g.map(withoutId)),
    repairs: { ...walked, ...transcriptRepairs(transcripts.values()), droppedLeading: groups.length - kept.length },
  };
}
