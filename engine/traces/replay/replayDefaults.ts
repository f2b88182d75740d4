/** Defaults and small helpers shared by the engine replay and the full-history baseline. Pure. */
import type { CacheProvider } from '../../providers/cacheModel';
import type { Tokenizer } from '../../tokens/Tokenizer';
import type { TraceEvent } from '../TraceEvent';
import type { TraceStep } from '../traceSteps';
import type { ModelSource, Timer } from './ReplayTypes';

export const DEFAULT_REPLAY_MODEL = { anthropic: 'claude-sonnet-4-5', openai: 'gpt-5' } as const;

/** `performance.now` where the platform has it, else `Date.now`. */
export const defaultTimer: Timer = (() => {
  const perf = (globalThis as { performance?: { now(): number } }).performance;
  return perf ? () => perf.now() : () => Date.now();
})();

/** The model of the trace's first main-thread usage event that names one. */
export function recordedModel(events: readonly TraceEvent[]): string | undefined {
  for (const e of events) if (e.type === 'usage' && e.agentId === undefined && e.model) return e.model;
  return undefined;
}

/** The source of the model `options.model ?? recordedModel(events) ?? DEFAULT_REPLAY_MODEL[provider]` picks. */
export function modelSourceOf(events: readonly TraceEvent[], option: string | undefined): ModelSource {
  if (option) return 'option';
  return recordedModel(events) ? 'recording' : 'default';
}

/**
 * Whose prompt cache billed a recorded model: OpenAI's automatic cache for GPT, o-series and Codex
 * models, Anthropic's for Claude; undefined for others (a DeepSeek run, a missing name).
 */
export function providerOfModel(model: string | undefined): CacheProvider | undefined {
  if (!model) return undefined;
  if (/^(gpt|o\d|codex)/i.test(model)) return 'openai';
  if (/^claude/i.test(model)) return 'anthropic';
  return undefined;
}

/** Output tokens of a step: as recorded, else counted from its text and call arguments. */
export function outputTokens(step: TraceStep, tokenizer: Tokenizer): number {
  return step.usage?.output ?? tokenizer.count([...step.texts, ...step.calls.map((c) => c.arguments)].join('\n'));
}

