import type { CountedPrompt } from './countedPrompt';
import type { Breakpoint } from './promptPieces';

/**
 * The harness server's prompt-cache simulations, over real token counts (`countedPrompt.ts`), at
 * piece granularity: a cached prefix is always a whole number of pieces. Adapted from the
 * character-based `test/support/loopback/promptCache.ts`; no expiry (a run lasts minutes).
 *
 * Anthropic (explicit breakpoints): a successful call writes, at each of its breakpoints whose
 * prefix has at least `minTokens` tokens, the prefix ending there. The next call reads the
 * longest written prefix that begins its own prompt and ends at or before its LAST breakpoint,
 * and writes the rest up to that breakpoint; the written tokens are split by the TTL of the
 * breakpoint that closes each stretch (`cache_creation.ephemeral_5m/1h_input_tokens`). Tokens
 * after the last breakpoint are uncached input. `input + cacheRead + cacheWrite` is the prompt.
 *
 * OpenAI (automatic): cached tokens are the tokens of the longest prefix of pieces equal to a
 * prefix of ANY earlier successful call's prompt, counted from 1024 tokens and rounded down to
 * 128-token steps; `input_tokens` is the whole prompt, the cached ones included.
 */

export interface AnthropicCacheFigures {
  input: number;
  cacheRead: number;
  cacheWrite: number;
  write5m: number;
  write1h: number;
}

export class AnthropicTokenCache {
  private readonly written = new Set<string>();

  constructor(readonly minTokens = 1024) {}

  measure(prompt: CountedPrompt, breakpoints: readonly Breakpoint[]): AnthropicCacheFigures {
    const last = breakpoints.length > 0 ? Math.max(...breakpoints.map((b) => b.after)) : 0;
    const upToLast = prompt.cumulative[last]!;
    if (last === 0 || upToLast < this.minTokens) return { input: prompt.total, cacheRead: 0, cacheWrite: 0, write5m: 0, write1h: 0 };
    let read = 0;
    for (let k = last; k > 0; k--) {
      if (this.written.has(prompt.chain[k]!)) {
        read = k;
        break;
      }
    }
    let write5m = 0;
    let write1h = 0;
    let from = read;
    for (const b of [...breakpoints].sort((x, y) => x.after - y.after)) {
      if (b.after <= from) continue;
      const stretch = prompt.cumulative[b.after]! - prompt.cumulative[from]!;
      if (b.ttl === '1h') write1h += stretch;
      else write5m += stretch;
      from = b.after;
    }
    const cacheRead = prompt.cumulative[read]!;
    return { input: prompt.total - upToLast, cacheRead, cacheWrite: write5m + write1h, write5m, write1h };
  }

  remember(prompt: CountedPrompt, breakpoints: readonly Breakpoint[]): void {
    for (const b of breakpoints) if (prompt.cumulative[b.after]! >= this.minTokens) this.written.add(prompt.chain[b.after]!);
  }
}

export interface OpenAICacheFigures {
  promptTokens: number;
  cachedTokens: number;
}

export class OpenAITokenCache {
  private readonly seen = new Set<string>();

  constructor(
    readonly minTokens = 1024,
    readonly stepTokens = 128,
  ) {}

  measure(prompt: CountedPrompt): OpenAICacheFigures {
    let common = 0;
    for (let k = prompt.chain.length - 1; k > 0; k--) {
      if (this.seen.has(prompt.chain[k]!)) {
        common = prompt.cumulative[k]!;
        break;
      }
    }
    const cached = common >= this.minTokens ? Math.floor(common / this.stepTokens) * this.stepTokens : 0;
    return { promptTokens: prompt.total, cachedTokens: cached };
  }

  remember(prompt: CountedPrompt): void {
    for (let k = 1; k < prompt.chain.length; k++) this.seen.add(prompt.chain[k]!);
  }
}
