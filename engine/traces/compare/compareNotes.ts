/**
 * What a comparison's money and cache lifetimes rest on, as lines printed under its table
 * (`[compare-money]`): the unit, each priced model's list prices with their source and date, the
 * models without one, and each trace's cache TTL with why; then its context windows and agent
 * roles (`contextNotes.ts`). Pure.
 */
import { listPriceOf } from '../../pricing/costUsd';
import type { PriceProvider } from '../../pricing/listPrices';
import { ttlLabel, type TtlChoice } from '../replay/cacheTtl';
import type { ReplayResult } from '../replay/ReplayTypes';
import { roleNotes, windowNotes } from './contextNotes';

/** The TTLs of several replays, grouped: `1h: from the recording` for one kind, `1h: from the recording ×3; 5m: default ×1` for several. */
export function ttlSummary(choices: readonly TtlChoice[], optionName?: string): string {
  const counts = new Map<string, number>();
  for (const c of choices) {
    const label = ttlLabel(c, optionName);
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  if (counts.size <= 1) return [...counts.keys()][0] ?? '-';
  return [...counts].map(([label, n]) => `${label} ×${n}`).join('; ');
}

/** The unit and scope of every dollar figure of a comparison. */
export const MONEY_NOTE =
  'USD: US dollars at list prices; prompt USD = uncached input + cache reads + cache writes (5-minute and 1-hour writes at their own rates where the provider charges for writes), total USD adds output. Batch and priority tiers, long-context surcharges and the storage charge of explicit caches (Gemini) are not included.';

/**
 * What the cache model approximates when a model's own provider caches differently: the tokens read
 * and written come from the comparison's cache model (Anthropic's or OpenAI's rules), then are billed
 * at the model's prices.
 */
const APPROXIMATED: Record<PriceProvider, string> = {
  anthropic: "Anthropic's caching (breakpoints, the TTL above) is approximated by the OpenAI cache model's automatic prefix caching (--provider anthropic models it)",
  openai: "OpenAI's automatic prefix caching is approximated by the Anthropic cache model's breakpoints and lifetimes (--provider openai models it); written tokens are billed as input",
  deepseek: "DeepSeek's disk cache (prefix units kept for hours to days) is not modelled: the reads come from the comparison's cache model and are billed at the cache-hit price, everything else at the cache-miss price",
  google: "Gemini's implicit caching is not modelled: the reads come from the comparison's cache model and are billed at the context-caching price, everything else as input",
};

const names = (traces: readonly string[]) => (traces.length <= 4 ? traces.join(', ') : `${traces.slice(0, 4).join(', ')} and ${traces.length - 4} more`);

/**
 * The notes of a comparison's replays, each labelled by its trace: the money note, one price line
 * per model priced, the models without a list price, calls over a standard-rate prompt size, and
 * the traces by cache TTL; `options` names where a TTL or a model is set (`--ttl`, `--model` on the
 * command line).
 */
export function compareNotes(entries: readonly { trace: string; result: ReplayResult }[], options: { ttl: string; model: string; window?: string } = { ttl: '--ttl', model: '--model', window: '--window' }): string[] {
  const lines = [MONEY_NOTE];
  const prices = new Map<string, { note: string; source: ReplayResult['modelSource']; traces: Set<string> }>();
  const unpriced = new Map<string, Set<string>>();
  const over = new Map<string, number>();
  const ttls = new Map<string, Set<string>>();
  const approximated = new Map<string, Set<string>>();
  for (const { trace, result } of entries) {
    const { model, note, callsOverStandardRate } = result.totals.pricing;
    const own = listPriceOf(model)?.provider;
    if (own && own !== result.provider) {
      const line = `${model}: ${APPROXIMATED[own]}`;
      approximated.set(line, (approximated.get(line) ?? new Set()).add(trace));
    }
    if (result.totals.costUsd) {
      const key = `${result.modelSource}\u0000${model}`;
      const p = prices.get(key) ?? { note, source: result.modelSource, traces: new Set<string>() };
      prices.set(key, { ...p, traces: p.traces.add(trace) });
    } else unpriced.set(note, (unpriced.get(note) ?? new Set()).add(trace));
    if (callsOverStandardRate > 0) over.set(model, (over.get(model) ?? 0) + callsOverStandardRate);
    const label = ttlLabel(result.cacheTtl, options.ttl);
    ttls.set(label, (ttls.get(label) ?? new Set()).add(trace));
  }
  for (const { note, source, traces } of prices.values()) {
    const why = source === 'default' ? ` (the default model, for traces that name none: ${names([...traces])})` : source === 'option' ? ` (${options.model})` : '';
    lines.push(`price${why}: ${note}`);
  }
  for (const [note, traces] of unpriced) lines.push(`${note} (${names([...traces])}): left out of the dollar figures; * marks a sum over the other traces`);
  for (const [line, traces] of approximated) lines.push(`${line} (${names([...traces])})`);
  for (const [model, n] of over) lines.push(`${n} replayed calls of ${model} were over its standard-rate prompt size and are priced at the standard rate (too low)`);
  const all = new Set(entries.map((e) => e.trace)).size;
  const byTtl = [...ttls].map(([label, traces]) => `${label} (${traces.size === all ? (all === 1 ? [...traces][0] : 'every trace') : names([...traces])})`);
  if (byTtl.length > 0) lines.push(`cache TTL of the breakpoints: ${byTtl.join('; ')}`);
  if (entries.some((e) => e.result.provider === 'openai')) lines.push("the OpenAI cache model has no lifetime choice: the TTL only changes Anthropic's caching and write price");
  return [...lines, ...windowNotes(entries, options.window), ...roleNotes(entries)];
}
