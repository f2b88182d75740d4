/**
 * Request bodies for the gateway bench's managed scenarios (`test/bench/gatewayBench.ts`), built
 * on the generated sessions of `gatewaySessions.ts` (Anthropic Messages, Claude Code's shape).
 */
import { anthropicRequest, generateSession, type SessionStep } from './gatewaySessions';

/**
 * A session whose first requests grow to `targetTokens` (o200k, counted by `count`) and whose
 * later steps are small (an agent making edits after reading a lot), so `timed` requests after
 * the warm-up all stay near the target: `warm` are the bodies up to the first at the target,
 * `timed` the ones after it, each one tool call longer.
 */
export function largeSessionBodies(count: (text: string) => number, targetTokens: number, timed: number): { warm: Buffer[]; timed: Buffer[]; firstTimedTokens: number } {
  const big = generateSession(2026, 400);
  const warm: Buffer[] = [];
  let n = 1;
  let tokens = 0;
  for (; n < big.length; n++) {
    const body = JSON.stringify(anthropicRequest(big, n));
    warm.push(Buffer.from(body));
    tokens = count(body);
    if (tokens >= targetTokens) break;
  }
  const small: SessionStep[] = generateSession(77, timed).map((s, i) => ({ ...s, id: `toolu_edit_${i}`, tool: 'Edit', input: { file_path: `src/module${i % 7}.ts` }, output: `Edited src/module${i % 7}.ts: 3 lines changed.`, isError: false }));
  const steps = [...big.slice(0, n - 1), ...small];
  const bodies = Array.from({ length: timed }, (_, i) => Buffer.from(JSON.stringify(anthropicRequest(steps, n + 1 + i))));
  return { warm, timed: bodies, firstTimedTokens: tokens };
}

const COMPACT_ASK = 'Your task is to create a detailed summary of the conversation so far.';
const CONTINUED = 'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.';

/**
 * The body of call `call` (0-based) of a long session whose client compacts as Claude Code does:
 * after `every` tool calls it sends its history once more asking for a summary, then continues
 * from a first user message holding the summary, so no request holds more than `every` results.
 */
export function compactingSessionBody(steps: readonly SessionStep[], call: number, every: number): Buffer {
  const cycle = every + 1;
  const round = Math.floor(call / cycle);
  const at = call % cycle;
  const mine = steps.slice(round * every, round * every + Math.min(at, every));
  const body = anthropicRequest(mine, mine.length + 1);
  const messages = body['messages'] as Record<string, unknown>[];
  if (round > 0) messages[0] = { role: 'user', content: [{ type: 'text', text: `${CONTINUED}\n\nSummary of round ${round}: read ${every} files, ran the tests, the rounding bug is in invoice.py.` }] };
  if (at === every) messages.push({ role: 'assistant', content: [{ type: 'text', text: 'Noted.' }] }, { role: 'user', content: [{ type: 'text', text: COMPACT_ASK }] });
  return Buffer.from(JSON.stringify(body));
}
