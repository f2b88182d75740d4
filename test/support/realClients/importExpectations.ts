import type { TraceEvent, UsageEvent } from '../../../engine/traces/TraceEvent';
import type { HarnessCall } from './realClientHarness';

/**
 * What a correct import of a harness run holds, derived from the server's own log: each model
 * call's usage in Strata's normalised form (`UsageEvent`: disjoint parts, `input` uncached), and
 * the calls an import's events show.
 */

export interface UsageFigures {
  input: number;
  cacheRead: number;
  cacheWrite: number;
  cacheWrite1h: number;
  output: number;
}

const n = (v: unknown): number => (typeof v === 'number' ? v : 0);

/** A call's usage as the server returned it, normalised the way `UsageEvent` defines it. */
export function expectedUsage(call: HarnessCall): UsageFigures {
  const u = call.usage;
  if (call.path.startsWith('/v1/messages')) {
    const byTtl = (u['cache_creation'] ?? {}) as Record<string, unknown>;
    return { input: n(u['input_tokens']), cacheRead: n(u['cache_read_input_tokens']), cacheWrite: n(u['cache_creation_input_tokens']), cacheWrite1h: n(byTtl['ephemeral_1h_input_tokens']), output: n(u['output_tokens']) };
  }
  const cached = n((u['input_tokens_details'] as Record<string, unknown> | undefined)?.['cached_tokens']);
  return { input: n(u['input_tokens']) - cached, cacheRead: cached, cacheWrite: 0, cacheWrite1h: 0, output: n(u['output_tokens']) };
}

export const usageOf = (e: UsageEvent): UsageFigures => ({ input: e.input, cacheRead: e.cacheRead, cacheWrite: e.cacheWrite, cacheWrite1h: e.cacheWrite1h ?? 0, output: e.output });

export const figuresKey = (u: UsageFigures): string => `in ${u.input} · read ${u.cacheRead} · write ${u.cacheWrite} (1h ${u.cacheWrite1h}) · out ${u.output}`;

export const usageEvents = (events: readonly TraceEvent[]): UsageEvent[] => events.filter((e): e is UsageEvent => e.type === 'usage');

/** The distinct LLM calls an import's events show: one per (agent, step) of model output. */
export function importedCalls(events: readonly TraceEvent[]): { agentId: string | undefined; step: number }[] {
  const seen = new Map<string, { agentId: string | undefined; step: number }>();
  for (const e of events) {
    if (e.step === undefined || (e.type !== 'assistant_text' && e.type !== 'tool_call' && e.type !== 'usage')) continue;
    seen.set(`${e.agentId ?? ''}#${e.step}`, { agentId: e.agentId, step: e.step });
  }
  return [...seen.values()];
}

/** Sorted keys, so two multisets compare as arrays. */
export const sortedKeys = (figures: readonly UsageFigures[]): string[] => figures.map(figuresKey).sort();

/**
 * Per replayed step, Strata's as-recorded prompt tokens beside the server's count of the call the
 * step is (matched by the call's distinct usage): what `[real-client-prompt-tokens]` bounds.
 */
export function asRecordedAgainstServer(events: readonly TraceEvent[], steps: readonly { step: number; agentId?: string; promptTokens: number; call?: string }[], calls: readonly HarnessCall[]): { label: string; strata: number; server: number | undefined }[] {
  const byUsage = new Map(calls.map((c) => [figuresKey(expectedUsage(c)), c]));
  const usages = usageEvents(events);
  return steps.map((s, i) => {
    const u = usages.find((x) => x.step === s.step && x.agentId === s.agentId);
    const call = u ? byUsage.get(figuresKey(usageOf(u))) : undefined;
    return { label: `step ${i} (${s.agentId ?? 'main'}${s.call ? `, ${s.call}` : ''})`, strata: s.promptTokens, server: call?.promptTokens };
  });
}
