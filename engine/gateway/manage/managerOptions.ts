import type { Tokenizer } from '../../tokens/Tokenizer';
import { ManageError } from './ManageError';

/** How a thread manager decides (`[gateway-manage-window]`, `[gateway-manage-hysteresis]`). */
export interface ThreadManagerOptions {
  /** Counts every figure (o200k in the gateway); each message and result is counted once per thread. */
  tokenizer: Tokenizer;
  /** The model's context window in tokens; the watermarks are fractions of it. */
  contextWindow: number;
  /** A generation ends when the rewritten request would exceed this share of the window (default 0.4). */
  highWatermark?: number;
  /** A budget boundary hides old results until the request is at or under this share (default 0.25); at least 0.1 below the high one. */
  lowWatermark?: number;
  /** The newest results this many are never hidden (default 4). */
  keepLastResults?: number;
  /** Nor are the newest results that together hold at most this many tokens (default 8,000). */
  keepLastTokens?: number;
  /** Results smaller than this are never hidden (default 200 tokens). */
  minResultTokens?: number;
}

export type ResolvedOptions = Required<ThreadManagerOptions>;

const positive = (n: number) => Number.isFinite(n) && n > 0;
const wholeAtLeast0 = (n: number) => Number.isInteger(n) && n >= 0;

/** The options with their defaults, or a `ManageError` naming the first bad one. */
export function resolveOptions(options: ThreadManagerOptions): ResolvedOptions {
  const o: ResolvedOptions = { highWatermark: 0.4, lowWatermark: 0.25, keepLastResults: 4, keepLastTokens: 8_000, minResultTokens: 200, ...options };
  const fail = (message: string): never => {
    throw new ManageError('options', message);
  };
  if (!positive(o.contextWindow)) fail(`contextWindow must be a positive number of tokens, got ${o.contextWindow}`);
  if (!(o.highWatermark > 0 && o.highWatermark <= 1)) fail(`highWatermark must be a share of the window in (0, 1], got ${o.highWatermark}`);
  if (!(o.lowWatermark > 0 && o.highWatermark - o.lowWatermark >= 0.1 - 1e-9)) fail(`lowWatermark must be positive and at least 0.1 below highWatermark (${o.highWatermark}), got ${o.lowWatermark}`);
  if (!wholeAtLeast0(o.keepLastResults)) fail(`keepLastResults must be a whole number >= 0, got ${o.keepLastResults}`);
  if (!wholeAtLeast0(o.keepLastTokens)) fail(`keepLastTokens must be a whole number >= 0, got ${o.keepLastTokens}`);
  if (!wholeAtLeast0(o.minResultTokens)) fail(`minResultTokens must be a whole number >= 0, got ${o.minResultTokens}`);
  return o;
}
