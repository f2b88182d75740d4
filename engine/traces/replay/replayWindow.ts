/**
 * Which context window a replay's requests are held against (`[replay-window-default]`): the one
 * an option sets, else the one the recording states for its model, else the documented window of
 * the priced model (`CONTEXT_WINDOWS`), else none, and every output says which and why. Pure.
 */
import { contextWindowOf } from '../../models/contextWindows';
import type { TraceEvent } from '../TraceEvent';
import type { ModelSource, WindowChoice } from './ReplayTypes';

/** The window the recording's main agent states for its calls (the first usage event that carries one). */
export function recordedWindow(events: readonly TraceEvent[]): number | undefined {
  for (const e of events) if (e.type === 'usage' && e.agentId === undefined && e.contextWindow !== undefined && e.contextWindow > 0) return e.contextWindow;
  return undefined;
}

/** The largest prompt the recording's main agent was billed for (input + cache read + cache write); 0 without usage. */
export function largestRecordedPrompt(events: readonly TraceEvent[]): number {
  let max = 0;
  for (const e of events) if (e.type === 'usage' && e.agentId === undefined) max = Math.max(max, e.input + e.cacheRead + e.cacheWrite);
  return max;
}

const MODEL_WHY: Record<ModelSource, string> = { recording: 'recorded model', option: 'model of the model option', default: 'default model (the trace names none)' };
const n = (x: number) => x.toLocaleString('en-US');

/**
 * The window to replay `events` with, priced as `model` (from `modelSource`): `option` when given;
 * else the recording's own (`recordedWindow`) when the priced model is the recorded one; else the
 * table's row for `model`, taking its larger beta or tier window only when the recording's own
 * prompts were larger than the standard one (they could not have been sent otherwise); else none.
 */
export function chooseWindow(events: readonly TraceEvent[], model: string, modelSource: ModelSource, option?: number): WindowChoice {
  if (option !== undefined) return { tokens: option, source: 'option', model, why: 'the window option' };
  const stated = modelSource === 'recording' ? recordedWindow(events) : undefined;
  if (stated !== undefined) return { tokens: stated, source: 'recording', model, why: `stated by the recording for ${model} (the client's model_context_window or contextWindow)` };
  const row = contextWindowOf(model);
  if (!row) return { tokens: null, source: 'none', model, why: `no known window for ${model}` };
  const source = `${row.source}, read ${row.read}${row.note ? `; ${row.note}` : ''}`;
  const largest = largestRecordedPrompt(events);
  if (row.extended && largest > row.prompt) {
    return { tokens: row.extended.prompt, source: 'table', model, why: `${MODEL_WHY[modelSource]} ${model} with ${row.extended.how}, since the recording's prompts reach ${n(largest)} tokens, over its standard ${n(row.prompt)} (${source}; ${row.extended.source})` };
  }
  return { tokens: row.prompt, source: 'table', model, why: `${MODEL_WHY[modelSource]} ${model} (${source})` };
}

/**
 * `200,000: recorded model claude-opus-4-6 (…)`, `150,000: --window`, `none: no known window for
 * deepseek-v9 (nothing checked)`; `optionName` names the option where it was set.
 */
export function windowLabel(choice: WindowChoice, optionName = '--window'): string {
  if (choice.tokens === null) return `none: ${choice.why} (no request is checked against a window)`;
  return `${n(choice.tokens)}: ${choice.source === 'option' ? optionName : choice.why}`;
}

/** The short form for a table cell: `200,000 (recorded model)`, `258,400 (recording)`, `150,000 (--window)`, `none`. */
export function windowCell(choice: WindowChoice, optionName = '--window'): string {
  if (choice.tokens === null) return 'none';
  const from = choice.source === 'option' ? optionName : choice.source === 'recording' ? 'recording' : 'model table';
  return `${n(choice.tokens)} (${from})`;
}
