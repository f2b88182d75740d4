import { cacheHitRate } from '../../metrics/cacheHitRate';
import { PrefixForest, type PrefixNode } from './prefixForest';
import {
  ANTHROPIC_LOOKBACK_BLOCKS,
  ANTHROPIC_MIN_CACHEABLE_TOKENS,
  ANTHROPIC_TTL_MS,
  OPENAI_CACHE_INCREMENT_TOKENS,
  OPENAI_DEFAULT_TTL_MS,
  OPENAI_MIN_CACHEABLE_TOKENS,
  minCacheableTokensFor,
} from './rules';
import type {
  AnthropicCacheModelOptions,
  CacheModel,
  CacheModelOptions,
  CacheModelStats,
  CacheProvider,
  CacheRunResult,
  CacheTtl,
  MinCacheableTokensTable,
  ModelCall,
  ModeledUsage,
  OpenAICacheModelOptions,
} from './types';
import { checkCall, type CheckedCall } from './validate';

/**
 * The provider cache model: for a sequence of calls, the input / cache-read / cache-write tokens a
 * provider WOULD report, from its documented caching rules (`rules.ts`). Pure and deterministic:
 * the same calls give the same figures, and memory is bounded by what is still live.
 *
 * Assumptions beyond the documents, stated once:
 * - A call's writes are available to the next call, even at the same `at` (the provider makes an
 *   entry available once the first response begins; concurrent requests are not modelled).
 * - Caches are scoped per model (and, for OpenAI, per `prompt_cache_key`); one organisation.
 * - Prefixes match at segment granularity: within the first differing segment nothing matches.
 */

abstract class BaseCacheModel implements CacheModel {
  abstract readonly provider: CacheProvider;
  protected readonly forest = new PrefixForest();
  private lastAt: number | undefined;
  private lastSweepAt: number | undefined;

  constructor(private readonly sweepIntervalMs: number) {}

  observe(call: ModelCall): ModeledUsage {
    return this.observeAs(call, 'call');
  }

  /** `observe`, naming the call `where` in error messages. */
  observeAs(call: ModelCall, where: string): ModeledUsage {
    const checked = this.check(call, where);
    // Everything below runs only for a valid call: a refused call changes nothing.
    this.lastAt = checked.at;
    if (this.lastSweepAt === undefined) this.lastSweepAt = checked.at;
    else if (checked.at - this.lastSweepAt >= this.sweepIntervalMs) {
      this.forest.prune(checked.at);
      this.lastSweepAt = checked.at;
    }
    return this.apply(checked);
  }

  stats(): CacheModelStats {
    const now = this.lastAt ?? -Infinity;
    return {
      namespaces: this.forest.namespaceCount,
      retainedNodes: this.forest.nodeCount,
      liveEntries: this.forest.count((node) => this.isLiveEntry(node, now)),
    };
  }

  protected check(call: ModelCall, where: string): CheckedCall {
    return checkCall(call, this.provider, this.lastAt, where);
  }

  protected abstract apply(call: CheckedCall): ModeledUsage;
  protected abstract isLiveEntry(node: PrefixNode, now: number): boolean;
}

/**
 * Anthropic prompt caching, explicit `cache_control` breakpoints:
 * - the cached unit is the prefix up to and including a breakpoint's block (tools → system → messages);
 * - at each breakpoint the longest prefix cached by an earlier call is looked for at that boundary
 *   and the `lookbackBlocks` boundaries before it; the longest hit over all breakpoints is read
 *   (`cache_read_input_tokens`);
 * - everything from the hit to the last breakpoint is written (`cache_creation_input_tokens`), split
 *   by TTL as documented for mixed TTLs: A = the hit, B = the last `'1h'` breakpoint after A (or A),
 *   C = the last breakpoint; (B − A) is written for 1 h and (C − B) for 5 min;
 * - the rest, after the last breakpoint, is `input_tokens`;
 * - a breakpoint whose prefix is below the model's minimum cacheable length caches nothing;
 * - an entry lives its TTL from its last use: a hit refreshes every live entry on the prefix it reads.
 */
class AnthropicCacheModel extends BaseCacheModel {
  readonly provider = 'anthropic' as const;
  private readonly ttlMs: Readonly<Record<CacheTtl, number>>;
  private readonly lookback: number;
  private readonly minTable: MinCacheableTokensTable;
  private readonly minByModel = new Map<string, number>();

  constructor(options: AnthropicCacheModelOptions) {
    const ttlMs = { '5m': options.ttlMs?.['5m'] ?? ANTHROPIC_TTL_MS['5m'], '1h': options.ttlMs?.['1h'] ?? ANTHROPIC_TTL_MS['1h'] };
    requirePositive(ttlMs['5m'], "ttlMs['5m']");
    requirePositive(ttlMs['1h'], "ttlMs['1h']");
    const sweep = options.sweepIntervalMs ?? ttlMs['5m'];
    requirePositive(sweep, 'sweepIntervalMs');
    super(sweep);
    this.ttlMs = ttlMs;
    this.lookback = options.lookbackBlocks ?? ANTHROPIC_LOOKBACK_BLOCKS;
    requireCount(this.lookback, 'lookbackBlocks');
    this.minTable = options.minCacheableTokens ?? ANTHROPIC_MIN_CACHEABLE_TOKENS;
    checkTable(this.minTable);
  }

  private minFor(model: string): number {
    let min = this.minByModel.get(model);
    if (min === undefined) {
      min = minCacheableTokensFor(model, this.minTable);
      // Bounded: a memo per distinct model name, which a run has few of.
      this.minByModel.set(model, min);
    }
    return min;
  }

  protected apply(call: CheckedCall): ModeledUsage {
    const { at, segments, through, total, breakpoints } = call;
    const minTokens = this.minFor(call.model);
    const tokensAt = (i: number): number => (i >= 0 ? through[i]! : 0);
    const qualifying = breakpoints.filter((b) => through[b]! >= minTokens);
    const last = qualifying.length > 0 ? qualifying[qualifying.length - 1]! : -1;

    const path = this.forest.walk(this.forest.root(call.model), segments, last + 1);
    let hit = -1;
    for (const b of qualifying) {
      const lowest = Math.max(0, b - this.lookback);
      for (let p = Math.min(b, path.length - 1); p >= lowest; p--) {
        if (path[p]!.entryExpiresAt > at) {
          if (p > hit) hit = p;
          break;
        }
      }
    }

    let oneHourEnd = hit;
    for (const b of qualifying) if (b > hit && segments[b]!.cacheControl === '1h') oneHourEnd = b;
    const cacheRead = tokensAt(hit);
    const write1h = tokensAt(oneHourEnd) - cacheRead;
    const write5m = last > oneHourEnd ? tokensAt(last) - tokensAt(oneHourEnd) : 0;

    if (last >= 0) this.record(call, path, hit, qualifying);

    const cacheWrite = write1h + write5m;
    return {
      input: total - cacheRead - cacheWrite,
      cacheRead,
      cacheWrite,
      output: call.outputTokens,
      promptTokens: total,
      cachedPrefixSegments: hit + 1,
      cacheWriteByTtl: { '5m': write5m, '1h': write1h },
      minCacheableTokens: minTokens,
    };
  }

  /** Refreshes the entries the hit used and writes (or refreshes) one entry per qualifying breakpoint. */
  private record(call: CheckedCall, walked: PrefixNode[], hit: number, qualifying: number[]): void {
    const { at, segments } = call;
    const last = qualifying[qualifying.length - 1]!;
    const root = this.forest.ensureRoot(call.model);
    const path = this.forest.extend(root, segments, walked, last + 1);
    for (let p = 0; p <= hit; p++) {
      const node = path[p]!;
      if (node.entryExpiresAt > at) node.entryExpiresAt = Math.max(node.entryExpiresAt, at + node.entryTtlMs);
    }
    for (const b of qualifying) {
      const node = path[b]!;
      const ttl = this.ttlMs[segments[b]!.cacheControl!];
      if (node.entryExpiresAt > at) {
        node.entryTtlMs = Math.max(node.entryTtlMs, ttl);
        node.entryExpiresAt = Math.max(node.entryExpiresAt, at + node.entryTtlMs);
      } else {
        node.entryTtlMs = ttl;
        node.entryExpiresAt = at + ttl;
      }
    }
    let latest = -Infinity;
    for (let p = last; p >= 0; p--) {
      const node = path[p]!;
      latest = Math.max(latest, node.entryExpiresAt);
      node.liveUntil = Math.max(node.liveUntil, latest);
    }
    root.liveUntil = Math.max(root.liveUntil, latest);
  }

  protected isLiveEntry(node: PrefixNode, now: number): boolean {
    return node.entryExpiresAt > now;
  }
}

/**
 * OpenAI automatic prompt caching (models before GPT-5.6):
 * - a prompt of at least `minCacheableTokens` (1024) is cached whole, every prefix of it included;
 * - a later prompt in the same namespace (model × `prompt_cache_key`) reads the longest live prefix
 *   it shares with an earlier one, counted as 1024 + k × 128 tokens (rounded down), 0 below 1024;
 * - no write charge (`cacheWrite` 0); `input` is the prompt minus the cached tokens;
 * - a prefix lives `ttlMs` from its last use (each call that contains it refreshes it).
 */
class OpenAICacheModel extends BaseCacheModel {
  readonly provider = 'openai' as const;
  private readonly ttlMs: number;
  private readonly minTokens: number;
  private readonly increment: number;

  constructor(options: OpenAICacheModelOptions) {
    const ttlMs = options.ttlMs ?? OPENAI_DEFAULT_TTL_MS;
    requirePositive(ttlMs, 'ttlMs');
    const sweep = options.sweepIntervalMs ?? ttlMs;
    requirePositive(sweep, 'sweepIntervalMs');
    super(sweep);
    this.ttlMs = ttlMs;
    this.minTokens = options.minCacheableTokens ?? OPENAI_MIN_CACHEABLE_TOKENS;
    this.increment = options.incrementTokens ?? OPENAI_CACHE_INCREMENT_TOKENS;
    requireCount(this.minTokens, 'minCacheableTokens');
    requireCount(this.increment, 'incrementTokens');
    if (this.increment === 0) throw new RangeError('cache model: incrementTokens must be at least 1');
  }

  protected apply(call: CheckedCall): ModeledUsage {
    const { at, segments, through, total } = call;
    // The namespace is a pair, encoded so that no model/key pair can collide with another.
    const namespace = JSON.stringify([call.model, call.cacheKey ?? null]);
    const path = this.forest.walk(this.forest.root(namespace), segments, segments.length);
    let deepest = path.length - 1;
    while (deepest >= 0 && path[deepest]!.liveUntil <= at) deepest--;
    const common = deepest >= 0 ? through[deepest]! : 0;
    const eligible = total >= this.minTokens;
    const cacheRead = eligible && common >= this.minTokens ? this.minTokens + Math.floor((common - this.minTokens) / this.increment) * this.increment : 0;

    let cachedPrefixSegments = 0;
    if (cacheRead > 0) while (cachedPrefixSegments <= deepest && through[cachedPrefixSegments]! <= cacheRead) cachedPrefixSegments++;

    if (eligible) {
      const root = this.forest.ensureRoot(namespace);
      const full = this.forest.extend(root, segments, path, segments.length);
      const until = at + this.ttlMs;
      for (const node of full) node.liveUntil = Math.max(node.liveUntil, until);
      root.liveUntil = Math.max(root.liveUntil, until);
    }

    return {
      input: total - cacheRead,
      cacheRead,
      cacheWrite: 0,
      output: call.outputTokens,
      promptTokens: total,
      cachedPrefixSegments,
      cacheWriteByTtl: { '5m': 0, '1h': 0 },
      minCacheableTokens: this.minTokens,
    };
  }

  protected isLiveEntry(node: PrefixNode, now: number): boolean {
    return node.liveUntil > now;
  }
}

function requirePositive(n: unknown, name: string): void {
  if (typeof n !== 'number' || !Number.isFinite(n) || n <= 0) throw new RangeError(`cache model: ${name} must be a positive number of ms, got ${String(n)}`);
}

function requireCount(n: unknown, name: string): void {
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) throw new RangeError(`cache model: ${name} must be a non-negative integer, got ${String(n)}`);
}

function checkTable(table: MinCacheableTokensTable): void {
  requireCount(table.defaultMinTokens, 'minCacheableTokens.defaultMinTokens');
  table.rules.forEach((rule, i) => {
    if (!(rule.pattern instanceof RegExp) || rule.pattern.global || rule.pattern.sticky) {
      throw new TypeError(`cache model: minCacheableTokens.rules[${i}].pattern must be a RegExp without the g or y flag`);
    }
    requireCount(rule.minTokens, `minCacheableTokens.rules[${i}].minTokens`);
  });
}

/**
 * A stateful cache model for one provider. Options other than `provider` default to the
 * documented values in `rules.ts`; an invalid option is refused with a `RangeError`/`TypeError`.
 */
export function createCacheModel(options: CacheModelOptions): CacheModel {
  const provider: unknown = (options as { provider?: unknown } | null)?.provider;
  if (provider === 'anthropic') return new AnthropicCacheModel(options as AnthropicCacheModelOptions);
  if (provider === 'openai') return new OpenAICacheModel(options as OpenAICacheModelOptions);
  throw new RangeError(`cache model: provider must be 'anthropic' or 'openai', got ${JSON.stringify(provider)}`);
}

/**
 * Models a whole run on a fresh cache: per-call usage and the totals, with
 * hitRate = cacheRead / (input + cacheRead + cacheWrite) (0 when nothing was sent). An invalid call
 * is refused with its index in the message (`calls[3].segments[0].tokens …`).
 */
export function modelRun(provider: CacheProvider | CacheModelOptions, calls: readonly ModelCall[]): CacheRunResult {
  const model = createCacheModel(typeof provider === 'string' ? { provider } : provider) as BaseCacheModel;
  if (!Array.isArray(calls)) throw new TypeError('cache model: calls must be an array');
  const usages = calls.map((call, i) => model.observeAs(call, `calls[${i}]`));
  const sum = (pick: (u: ModeledUsage) => number): number => usages.reduce((acc, u) => acc + pick(u), 0);
  const totals = { input: sum((u) => u.input), cacheRead: sum((u) => u.cacheRead), cacheWrite: sum((u) => u.cacheWrite), output: sum((u) => u.output) };
  return { calls: usages, totals: { ...totals, hitRate: cacheHitRate(totals) } };
}
