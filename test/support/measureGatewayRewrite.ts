/**
 * The manage-mode rewrite's own cost on a large request (issue 23 item 5: a managed rewrite of a
 * 150k-token request, target <= 10 ms p50). A generated Anthropic session grows until its requests
 * hold at least `targetTokens` (o200k); then `calls` more requests, each one tool call longer, are
 * rewritten and timed one by one (bodies are built before the clock starts; the tokenizer's memo
 * is warm, as in a running gateway). Figures, never assertions.
 */
import { createThreadManager } from '../../engine/gateway/manage/createThreadManager';
import { memoTokenizer } from '../../engine/tokens/memoTokenizer';
import { anthropicRequest, generateSession } from './gatewaySessions';

export interface RewriteFigures {
  /** o200k tokens of the first timed request, as it came from the client. */
  requestTokens: number;
  /** Of the timed calls: inside a generation, and at a generation boundary. */
  withinGeneration: { calls: number; p50Ms: number; p95Ms: number };
  boundaries: { calls: number; p50Ms: number; p95Ms: number };
}

const quantile = (sorted: readonly number[], q: number): number => (sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);
const summary = (ms: number[]) => {
  const s = [...ms].sort((a, b) => a - b);
  return { calls: s.length, p50Ms: quantile(s, 0.5), p95Ms: quantile(s, 0.95) };
};

export function measureGatewayRewrite(targetTokens = 150_000, calls = 40): RewriteFigures {
  const tokenizer = memoTokenizer('o200k_base');
  const steps = generateSession(2026, 400);
  // A window large enough that the timed requests stay around the target once rewritten.
  const manager = createThreadManager({ tokenizer, contextWindow: 2 * targetTokens, highWatermark: 0.6, lowWatermark: 0.45 });
  let n = 1;
  for (; n < steps.length; n++) if (manager.rewrite('anthropic-messages', anthropicRequest(steps, n)).record.originalTokens >= targetTokens) break;
  const bodies = Array.from({ length: calls }, (_, i) => anthropicRequest(steps, n + 1 + i));
  const within: number[] = [];
  const boundary: number[] = [];
  let requestTokens = 0;
  for (const body of bodies) {
    const started = performance.now();
    const { record } = manager.rewrite('anthropic-messages', body);
    const ms = performance.now() - started;
    requestTokens ||= record.originalTokens;
    (record.boundary ? boundary : within).push(ms);
  }
  return { requestTokens, withinGeneration: summary(within), boundaries: summary(boundary) };
}
