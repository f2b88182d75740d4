import type { RewriteRecord } from '../types';
import { anthropicMessages } from './anthropicMessages';
import { placeBreakpoint } from './anthropicBreakpoints';
import { type ApiAdapter, type Conversation, type Json } from './conversation';
import { ManageError } from './ManageError';
import { resolveOptions, type ThreadManagerOptions } from './managerOptions';
import { openaiChat } from './openaiChat';
import { openaiResponses } from './openaiResponses';
import { makePlaceholder, planHidden, type CountedResult, type HiddenResult } from './planHidden';

/** The APIs whose requests manage mode rewrites (count_tokens goes through `rewriteCountTokens`). */
export type ManagedApi = 'anthropic-messages' | 'openai-responses' | 'openai-chat';

/** The control room's say over a thread's items, by result key (the call id). */
export interface ManageControls {
  /** Never hidden. */
  pins?: readonly string[];
  /** Shown as a "removed by the operator" placeholder that keeps the call pairing, and recorded in `dropped`. */
  removals?: readonly string[];
}

/**
 * What tells a request's entries apart, when the caller knows better than their JSON: one key per
 * list entry and one for the fixed part, equal exactly when the prefix cache sees the same thing
 * (the gateway passes its block hashes, `[gateway-blocks]`, which it has already). Used only when
 * there is one key per entry; otherwise the entries' JSON is compared.
 */
export interface EntryKeys {
  entries: readonly string[];
  fixed: string;
}

/** One generation of a thread as a plain value, for the control room's diff (`[gateway-manage-generations]`). */
interface GatewayGeneration {
  generation: number;
  reason: string;
  /** The thread's call (1-based) that opened it, and how many calls it served. */
  firstCall: number;
  calls: number;
  /** Result keys its latest request showed verbatim. */
  included: string[];
  compressed: RewriteRecord['compressed'];
  dropped: RewriteRecord['dropped'];
}

interface RewriteResult {
  body: Json;
  record: RewriteRecord;
}

/** One thread's manager: its state lives between calls; every method is deterministic in its inputs. */
export interface ThreadManager {
  /** The request as manage mode sends it upstream. Throws `ManageError` (and changes nothing) on a body it cannot read. */
  rewrite(api: ManagedApi, body: unknown, controls?: ManageControls, keys?: EntryKeys): RewriteResult;
  /** An Anthropic count_tokens body with the current generation's choices applied; the state does not change. */
  rewriteCountTokens(body: unknown, keys?: EntryKeys): RewriteResult;
  /** The newest generations (at most 50), oldest first, and how many there were in all. */
  generations(): { generations: GatewayGeneration[]; total: number };
  /** Forgets the thread's last request (what memory grows with), keeping its generations; its next call opens a generation. */
  release(): void;
}

const ADAPTERS: Readonly<Record<ManagedApi, ApiAdapter>> = { 'anthropic-messages': anthropicMessages, 'openai-responses': openaiResponses, 'openai-chat': openaiChat };
const MAX_GENERATIONS = 50;

interface Counted {
  keys: string[];
  fixedKey: string;
  tokens: number[];
  fixedTokens: number;
  results: CountedResult[];
  originalTokens: number;
  /** Length of the previous original list when this one extends it, else the first index that differs. */
  extendsTo: number;
  extendsPrevious: boolean;
}

const sorted = (keys: readonly string[] | undefined) => [...new Set(keys ?? [])].sort();

/**
 * A manager for one client thread (`[gateway-manage-generations]`): within a generation a request
 * is the previous rewritten request's bytes plus the new entries verbatim; the set of hidden results
 * changes only at a boundary (the first call, the client's history diverging, the controls
 * changing, or the request passing the high watermark while something can still be hidden).
 */
export function createThreadManager(options: ThreadManagerOptions): ThreadManager {
  const o = resolveOptions(options);
  const count = (text: string) => o.tokenizer.count(text);
  let api: ManagedApi | undefined;
  let calls = 0;
  let generation = 0;
  /** The identity of each entry of the thread's last original, and of its fixed part. */
  let keys: string[] = [];
  let tokens: number[] = [];
  let fixed = '';
  let fixedTokens = 0;
  let resultTokens = new Map<string, { text: string; tokens: number }>();
  let placeholders = new Map<string, { source: string; text: string; tokens: number }>();
  let hidden = new Map<string, HiddenResult>();
  let controlsKey = JSON.stringify([[], []]);
  const history: GatewayGeneration[] = [];
  let total = 0;
  let released = false;

  function measure(conv: Conversation, sameApi: boolean, given: EntryKeys | undefined): Counted {
    const n = conv.list.length;
    const usable = given !== undefined && given.entries.length === n;
    const next = usable ? [...given.entries] : Array.from({ length: n }, (_, i) => conv.entryText(i));
    const fixedKey = usable ? `keys ${given.fixed}` : conv.fixedText();
    let extendsTo = 0;
    const limit = sameApi ? Math.min(keys.length, n) : 0;
    while (extendsTo < limit && keys[extendsTo] === next[extendsTo]) extendsTo += 1;
    const counted = next.map((key, i) => (i < extendsTo ? tokens[i]! : count(usable ? conv.entryText(i) : key)));
    const fixedCount = sameApi && fixedKey === fixed ? fixedTokens : count(usable ? conv.fixedText() : fixedKey);
    const results = conv.results.map((r) => {
      const memo = resultTokens.get(r.key);
      return { ...r, tokens: memo && memo.text === r.text ? memo.tokens : count(r.text) };
    });
    const originalTokens = fixedCount + counted.reduce((a, b) => a + b, 0);
    return { keys: next, fixedKey, tokens: counted, fixedTokens: fixedCount, results, originalTokens, extendsTo, extendsPrevious: calls > 0 && sameApi && extendsTo === keys.length };
  }

  const placeholderOf = (r: CountedResult, g: number) => {
    const memo = placeholders.get(r.key);
    return memo && memo.source === r.text ? memo : makePlaceholder(r, g, count);
  };

  /** The replacement texts of `set` for the results present and unchanged. */
  function textsOf(results: readonly CountedResult[], set: ReadonlyMap<string, HiddenResult>) {
    const texts = new Map<string, string>();
    const compressed: RewriteRecord['compressed'] = [];
    const dropped: RewriteRecord['dropped'] = [];
    let saved = 0;
    for (const r of results) {
      const h = set.get(r.key);
      if (!h || h.source !== r.text || texts.has(r.key)) continue;
      texts.set(r.key, h.text);
      saved += h.beforeTokens - h.afterTokens;
      if (h.kind === 'removed') dropped.push({ key: r.key, why: h.why });
      else compressed.push({ key: r.key, tool: h.tool, beforeTokens: h.beforeTokens, afterTokens: h.afterTokens, why: h.why });
    }
    return { texts, compressed, dropped, saved };
  }

  function rewrite(callApi: ManagedApi, body: unknown, controls: ManageControls = {}, given?: EntryKeys): RewriteResult {
    const adapter = ADAPTERS[callApi];
    if (!adapter) throw new ManageError('request', `manage mode does not rewrite ${String(callApi)} requests`);
    const conv = adapter.read(body);
    const source = body as Json;
    const pins = sorted(controls.pins);
    const removals = sorted(controls.removals);
    const both = pins.filter((k) => removals.includes(k));
    if (both.length > 0) throw new ManageError('controls', `an item cannot be both pinned and removed: ${both.join(', ')}`);
    if (callApi === 'openai-responses' && typeof source['previous_response_id'] === 'string') {
      // The history lives upstream: nothing here can be hidden, so the request goes as it came.
      return { body: source, record: { generation, boundary: false, compressed: [], dropped: [], breakpoints: [], originalTokens: 0, rewrittenTokens: 0 } };
    }
    const m = measure(conv, api === callApi, given);
    const nextControls = JSON.stringify([pins, removals]);
    let reason: string | undefined;
    if (calls === 0) reason = 'first call';
    else if (released) reason = 'the thread came back after its state was released (other threads of its session were used more recently)';
    else if (api !== callApi) reason = `the thread switched from ${api} to ${callApi}`;
    else if (!m.extendsPrevious) reason = `the client's history diverged at entry ${m.extendsTo} (it compacted or edited its history)`;
    else if (nextControls !== controlsKey) reason = 'the operator changed pins or removals';
    const plan = planHidden(
      { results: m.results, currentTurnFrom: conv.currentTurnFrom, previous: hidden, pins: new Set(pins), removals: new Set(removals), generation: generation + 1, originalTokens: m.originalTokens, placeholderOf, countTokens: count },
      o,
    );
    let next = hidden;
    if (reason !== undefined) next = plan.hidden;
    else if ([...plan.hidden.keys()].some((k) => !hidden.has(k))) {
      reason = `budget reached: ${m.originalTokens - textsOf(m.results, hidden).saved} tokens over the high watermark ${Math.round(o.highWatermark * o.contextWindow)}`;
      next = plan.hidden;
    }
    const boundary = reason !== undefined;
    const g = boundary ? generation + 1 : generation;
    const applied = textsOf(m.results, next);
    let out = applied.texts.size > 0 ? adapter.replace(source, conv, applied.texts) : source;
    let placed: string[] = [];
    if (callApi === 'anthropic-messages') ({ body: out, placed } = placeBreakpoint(out, boundary ? 0 : keys.length));
    const rewrittenTokens = m.originalTokens - applied.saved;
    if (plan.short && boundary) reason = `${reason}; still over the low watermark with every result outside the protected window hidden`;
    const record: RewriteRecord = { generation: g, boundary, ...(reason !== undefined ? { reason } : {}), compressed: applied.compressed, dropped: applied.dropped, breakpoints: placed, originalTokens: m.originalTokens, rewrittenTokens };

    // Commit: nothing above changed the thread.
    released = false;
    api = callApi;
    calls += 1;
    generation = g;
    keys = m.keys;
    tokens = m.tokens;
    fixed = m.fixedKey;
    fixedTokens = m.fixedTokens;
    resultTokens = new Map(m.results.map((r) => [r.key, { text: r.text, tokens: r.tokens }]));
    const keptPlaceholders = new Map<string, { source: string; text: string; tokens: number }>();
    for (const r of m.results) {
      const h = next.get(r.key);
      const memo = h?.kind === 'hidden' ? { source: h.source, text: h.text, tokens: h.afterTokens } : placeholders.get(r.key);
      if (memo && memo.source === r.text) keptPlaceholders.set(r.key, memo);
    }
    placeholders = keptPlaceholders;
    hidden = next;
    controlsKey = nextControls;
    const included = m.results.filter((r) => !applied.texts.has(r.key)).map((r) => r.key);
    if (boundary) {
      history.push({ generation: g, reason: reason!, firstCall: calls, calls: 1, included, compressed: applied.compressed, dropped: applied.dropped });
      total += 1;
      if (history.length > MAX_GENERATIONS) history.shift();
    } else {
      const current = history[history.length - 1]!;
      history[history.length - 1] = { ...current, calls: current.calls + 1, included, compressed: applied.compressed, dropped: applied.dropped };
    }
    return { body: out, record };
  }

  function rewriteCountTokens(body: unknown, given?: EntryKeys): RewriteResult {
    const conv = anthropicMessages.read(body);
    const m = measure(conv, api === 'anthropic-messages', given);
    const applied = textsOf(m.results, hidden);
    const out = applied.texts.size > 0 ? anthropicMessages.replace(body as Json, conv, applied.texts) : (body as Json);
    return { body: out, record: { generation, boundary: false, compressed: applied.compressed, dropped: applied.dropped, breakpoints: [], originalTokens: m.originalTokens, rewrittenTokens: m.originalTokens - applied.saved } };
  }

  function release(): void {
    if (calls === 0) return;
    released = true;
    keys = [];
    tokens = [];
    fixed = '';
    fixedTokens = 0;
    resultTokens = new Map();
    placeholders = new Map();
    hidden = new Map();
  }

  return {
    rewrite,
    rewriteCountTokens,
    release,
    generations: () => ({ generations: history.map((h) => ({ ...h, included: [...h.included], compressed: [...h.compressed], dropped: [...h.dropped] })), total }),
  };
}
