/**
 * The request a replayed step sends, as the segments a provider's prompt cache sees, priced by the
 * provider cache model. Pure.
 *
 * Engine request (`[replay-request]`): the layout of `composeRequest` without a conversation (in a
 * counterfactual replay the engine's items ARE the history): the static part (L0 + L1) is the first
 * system block, with a breakpoint; each L2 block is a system block of its own, the breakpoint on
 * the last (L2 only appends within a generation, so the previous request's breakpoint stays a block
 * boundary); the tail (the end of L2 and L3) is the one user message. The segments concatenate to
 * exactly the text `Engine.build` returns, so the request is what the engine sized against the
 * budget, and prefix reuse is measured on that text.
 */
import type { PromptParts } from '../../prompt/composeParts';
import type { CacheModel, CacheTtl, ModeledUsage, PromptSegment } from '../../providers/cacheModel';
import { segmentId } from '../../runtime/priceWithCacheModel';
import { resultMarker } from './traceItems';

/** One piece of a request, in the order the provider reads it. */
export interface RequestSegment {
  text: string;
  /** A cache breakpoint (Anthropic `cache_control`, with the pricer's TTL) at its end. */
  breakpoint: boolean;
  /** Its tokens when known without its text (a calibrated stand-in for a prefix nobody recorded, whose `text` only names it). */
  tokens?: number;
  /** Tokens it carries beyond what its text counts to (a recorded response's hidden reasoning, in the provider's own tokens). */
  extra?: number;
}

/** The engine prompt as request segments (see the module comment); their texts join to `static + dynamic`. */
export function engineSegments(parts: PromptParts): RequestSegment[] {
  const blocks = parts.l2Blocks ?? (parts.layers.L2 ? [parts.layers.L2] : []);
  const now = `<now>\n${parts.layers.L3}</now>\n`;
  const out: RequestSegment[] = [{ text: parts.static, breakpoint: true }];
  blocks.forEach((b, i) => out.push({ text: i === 0 ? `<context>\n${b}` : b, breakpoint: i === blocks.length - 1 }));
  out.push({ text: blocks.length > 0 ? `</context>\n${now}` : now, breakpoint: false });
  return out;
}

/** Distinct segment texts remembered before the memo starts over. */
const MEMO_LIMIT = 50_000;

/**
 * Prices requests with one cache model, remembering each distinct segment's id and tokens, so a
 * block sent at every step of a generation is hashed and counted once. Every breakpoint asks for
 * the same lifetime, `ttl` (`[replay-ttl]`: the recording's, or the option's; default 5 minutes).
 */
export class SegmentPricer {
  readonly #memo = new Map<string, { id: string; tokens: number }>();

  constructor(
    private readonly model: CacheModel,
    private readonly count: (text: string) => number,
    readonly ttl: CacheTtl = '5m',
  ) {}

  segment(s: RequestSegment): PromptSegment {
    const key = s.tokens === undefined && !s.extra ? s.text : `${s.tokens ?? ''}+${s.extra ?? 0}\0${s.text}`;
    let m = this.#memo.get(key);
    if (!m) {
      if (this.#memo.size >= MEMO_LIMIT) this.#memo.clear();
      m = { id: segmentId(key), tokens: s.tokens ?? this.count(s.text) + (s.extra ?? 0) };
      this.#memo.set(key, m);
    }
    return s.breakpoint ? { id: m.id, tokens: m.tokens, cacheControl: this.ttl } : { id: m.id, tokens: m.tokens };
  }

  price(segments: readonly RequestSegment[], call: { at: number; model: string; cacheKey: string; outputTokens: number }): ModeledUsage {
    return this.model.observe({ ...call, segments: segments.map((s) => this.segment(s)) });
  }
}

/**
 * Tool results rendered in `text` (a line starting with `[result of call <id>`) and how many of
 * them have no rendered call (`### call <id>: …`) anywhere in the same text.
 */
export function renderedResults(text: string): { results: number; orphans: number } {
  const calls = new Set(idsAfter(text, '### call ', (c, next) => c === ':' && next === ' '));
  const ids = idsAfter(text, resultMarker(''), (c) => c === ']' || c === ' ');
  return { results: ids.length, orphans: ids.filter((id) => !calls.has(id)).length };
}

/** The ids that follow `marker` at the start of a line, up to where `stop` says (or a line end). */
function idsAfter(text: string, marker: string, stop: (c: string, next: string | undefined) => boolean): string[] {
  const out: string[] = [];
  for (let i = text.indexOf(marker); i !== -1; i = text.indexOf(marker, i + marker.length)) {
    if (i > 0 && text[i - 1] !== '\n') continue;
    const from = i + marker.length;
    let end = from;
    while (end < text.length && end - from < 400 && text[end] !== '\n' && !stop(text[end] as string, text[end + 1])) end++;
    if (end > from) out.push(text.slice(from, end));
  }
  return out;
}
