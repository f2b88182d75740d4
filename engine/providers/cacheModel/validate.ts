import { ANTHROPIC_MAX_BREAKPOINTS } from './rules';
import type { CacheProvider, CacheTtl, ModelCall, PromptSegment } from './types';

/** A call that passed every check, with the figures the models need. */
export interface CheckedCall {
  at: number;
  model: string;
  cacheKey: string | undefined;
  segments: readonly PromptSegment[];
  outputTokens: number;
  /** `through[i]` = tokens of segments 0..i. */
  through: number[];
  total: number;
  /** Indices of the segments carrying `cacheControl`, ascending. */
  breakpoints: number[];
}

const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
const show = (v: unknown): string => (typeof v === 'string' ? JSON.stringify(v) : String(v));

/**
 * Checks one call without touching any state: a `TypeError` for a wrong shape, a `RangeError` for
 * a value out of range (negative or fractional tokens, too many breakpoints, a call earlier than
 * `previousAt`). `where` names the call in messages (`call`, `calls[3]`).
 */
export function checkCall(call: ModelCall, provider: CacheProvider, previousAt: number | undefined, where: string): CheckedCall {
  function fail(Kind: typeof TypeError | typeof RangeError, what: string): never {
    throw new Kind(`cache model: ${where}${what}`);
  }
  if (typeof call !== 'object' || call === null) fail(TypeError, ' must be an object');
  const { at, model, cacheKey, segments, outputTokens } = call;
  if (typeof at !== 'number' || !Number.isFinite(at)) fail(RangeError, `.at must be a finite number of ms, got ${show(at)}`);
  if (previousAt !== undefined && at < previousAt) {
    fail(RangeError, `.at ${at} is earlier than the previous call's ${previousAt}: calls must be observed in time order`);
  }
  if (typeof model !== 'string' || model.length === 0) fail(TypeError, `.model must be a non-empty string, got ${show(model)}`);
  if (cacheKey !== undefined && typeof cacheKey !== 'string') fail(TypeError, `.cacheKey must be a string when given, got ${show(cacheKey)}`);
  if (outputTokens !== undefined && !isCount(outputTokens)) fail(RangeError, `.outputTokens must be a non-negative integer, got ${show(outputTokens)}`);
  if (!Array.isArray(segments)) fail(TypeError, '.segments must be an array');
  if (segments.length === 0) fail(RangeError, '.segments must hold at least one segment');

  const through: number[] = new Array<number>(segments.length);
  const breakpoints: number[] = [];
  let total = 0;
  let seen5m = false;
  for (let i = 0; i < segments.length; i++) {
    const s: PromptSegment | undefined = segments[i];
    const here = `.segments[${i}]`;
    if (typeof s !== 'object' || s === null) fail(TypeError, `${here} must be an object`);
    const seg = s as PromptSegment;
    if (typeof seg.id !== 'string' || seg.id.length === 0) fail(TypeError, `${here}.id must be a non-empty string, got ${show(seg.id)}`);
    if (!isCount(seg.tokens)) fail(RangeError, `${here}.tokens must be a non-negative integer, got ${show(seg.tokens)}`);
    const ttl: CacheTtl | undefined = seg.cacheControl;
    if (ttl !== undefined) {
      if (ttl !== '5m' && ttl !== '1h') fail(RangeError, `${here}.cacheControl must be '5m' or '1h' when given, got ${show(ttl)}`);
      if (provider === 'anthropic' && ttl === '1h' && seen5m) {
        // "Cache entries with longer TTL must appear before shorter TTLs" (Anthropic, "Mixing different TTLs").
        fail(RangeError, `${here}.cacheControl '1h' follows a '5m' breakpoint: a 1-hour entry must come before every 5-minute one`);
      }
      if (ttl === '5m') seen5m = true;
      breakpoints.push(i);
    }
    total += seg.tokens;
    if (!Number.isSafeInteger(total)) fail(RangeError, '.segments add up to more tokens than can be counted exactly');
    through[i] = total;
  }
  if (provider === 'anthropic' && breakpoints.length > ANTHROPIC_MAX_BREAKPOINTS) {
    fail(RangeError, `.segments carry ${breakpoints.length} cacheControl breakpoints; Anthropic allows at most ${ANTHROPIC_MAX_BREAKPOINTS}`);
  }
  return { at, model, cacheKey, segments, outputTokens: outputTokens ?? 0, through, total, breakpoints };
}
