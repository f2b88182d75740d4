/**
 * Peers judged like provider APIs (`[replay-invalid]`): a request a provider would refuse is counted
 * invalid, priced as nothing sent, and never reaches the cache model; and the configurations that
 * decide the outcome in an agent loop, side by side (LangChain's `startOn`, the AI SDK's recipes).
 */
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../engine/conversation/Message';
import { createCacheModel } from '../../../engine/providers/cacheModel';
import { memoTokenizer } from '../../../engine/tokens/memoTokenizer';
import type { Tokenizer } from '../../../engine/tokens/Tokenizer';
import { SegmentPricer } from '../../../engine/traces/replay/replayRequest';
import { requestInvalidity } from '../../../engine/traces/replay/requestValidity';
import { messageText } from '../../../engine/traces/replay/transcript';
import type { TraceEvent } from '../../../engine/traces/TraceEvent';
import { replayPeer } from '../../bench/compare/peerReplay';
import { conversationTokens, fullHistory, langchainTrim, langchainTrimValidTail, type PeerAdapter, vercelPrepareStep, vercelPruneMessages } from '../../bench/compare/peers';
import { START_ON_HUMAN, START_ON_VALID_TAIL } from '../../bench/compare/peers/langchainTrim';

const source = { file: 'made-up.jsonl', line: 1 };
const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const iso = (s: number) => new Date(T0 + s * 1000).toISOString();
const quarter: Tokenizer = { encoding: 'quarter', count: (t) => Math.ceil(t.length / 4) };
const tokenizer = memoTokenizer();

/** One user prompt (with `promptLines` of context), then `steps` tool calls, each answered by a long result: the agent loop. */
function agentLoopTrace(steps: number, resultLines: number, promptLines = 0): TraceEvent[] {
  const ev: TraceEvent[] = [{ type: 'user_input', text: `Fix the failing parser tests.\n${'Context: the parser lives in src/parser.ts and the lexer in src/lexer.ts.\n'.repeat(promptLines)}`, at: iso(0), source }];
  for (let s = 0; s < steps; s++) {
    ev.push({ type: 'tool_call', callId: `c${s}`, name: 'Read', arguments: JSON.stringify({ file_path: `src/mod${s}.ts` }), step: s, at: iso(s * 10), source });
    ev.push({ type: 'tool_result', callId: `c${s}`, content: Array.from({ length: resultLines }, (_, i) => `src/mod${s}.ts:${i + 1}: export const value${i} = compute(${i});`).join('\n'), isError: false, at: iso(s * 10 + 2), source });
  }
  return ev;
}

/** The same loop as our messages: the user prompt, then each call with its result. */
function agentLoopConversation(steps: number): Message[] {
  const out: Message[] = [{ id: 'u1', role: 'user', content: 'Fix the failing parser tests.' }];
  for (let s = 0; s < steps; s++) {
    out.push({ id: `a${s}`, role: 'assistant', content: s === 0 ? 'Reading the modules one by one.' : '', toolCalls: [{ id: `c${s}`, name: 'Read', arguments: JSON.stringify({ file_path: `src/mod${s}.ts` }) }] });
    out.push({ id: `t${s}`, role: 'tool', toolCallId: `c${s}`, content: Array.from({ length: 40 }, (_, i) => `src/mod${s}.ts:${i + 1}: export const value${i} = compute(${i});`).join('\n'), isError: false });
  }
  return out;
}

/** Full history at every step, except at `at`, where it leaves out the newest result (an unanswered call). */
function dropsNewestResultAt(at: number, seen: Message[][]): PeerAdapter {
  let calls = 0;
  return {
    name: 'dropsNewestResult',
    peer: '',
    promisesBudget: false,
    budgetBehaviour: 'test double',
    toolPairs: 'test double',
    async select(conversation) {
      const out = calls++ === at ? conversation.slice(0, -1) : [...conversation];
      seen.push(out);
      return out;
    },
  };
}

describe('[replay-invalid] an invalid peer request is priced as nothing sent', () => {
  it('[replay-invalid] the refused step costs nothing and the next valid step is priced as if it had never been sent', async () => {
    // Every request is long enough to cache (the prompt alone is about 5,000 tokens here).
    const events = agentLoopTrace(4, 400, 300);
    const seen: Message[][] = [];
    const r = await replayPeer(events, dropsNewestResultAt(2, seen), { budget: 1_000_000, tokenizer: quarter, provider: 'anthropic' });
    expect(r.steps.map((s) => s.invalid ?? 'ok')).toEqual(['ok', 'ok', 'unanswered_call', 'ok']);
    const refused = r.steps[2]!;
    expect([refused.promptTokens, refused.prefixTokens, refused.input, refused.cacheRead, refused.cacheWrite, refused.cacheWrite1h, refused.output, refused.promptBytes, refused.reusedBytes]).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(r.totals).toMatchObject({ invalidRequests: 1, invalidReasons: { unanswered_call: 1 } });

    // The same cache model, shown only the requests that were accepted (this trace has no fixed prefix).
    const price = (skip: number | undefined) => {
      const pricer = new SegmentPricer(createCacheModel({ provider: 'anthropic' }), (t) => quarter.count(t), r.cacheTtl.ttl);
      return seen.map((messages, i) => (i === skip ? undefined : pricer.price(messages.map((m, k) => ({ text: messageText(m), breakpoint: k === messages.length - 1 })), { at: r.steps[i]!.at, model: r.model, cacheKey: 'x', outputTokens: r.steps[i]!.output })));
    };
    const without = price(2)[3]!;
    expect({ promptTokens: r.steps[3]!.promptTokens, input: r.steps[3]!.input, cacheRead: r.steps[3]!.cacheRead, cacheWrite: r.steps[3]!.cacheWrite }).toEqual({ promptTokens: without.promptTokens, input: without.input, cacheRead: without.cacheRead, cacheWrite: without.cacheWrite });
    // Step 3 reads back exactly what step 1 wrote; had the refused request been priced, it would read more.
    expect(r.steps[3]!.cacheRead).toBe(r.steps[1]!.promptTokens);
    expect(price(undefined)[3]!.cacheRead).toBeGreaterThan(without.cacheRead);
    // Reuse is measured against the last accepted request, too.
    expect(r.steps[3]!.reusedBytes).toBe(r.steps[1]!.promptBytes);
  });
});

describe('[peer-configs] LangChain trimMessages: the documented startOn "human" against a valid tail', () => {
  const conversation = agentLoopConversation(8);
  const tailTokens = (n: number) => conversationTokens(conversation.slice(-2 * n), tokenizer);

  it('[peer-configs] [replay-invalid] once the user prompt is out of reach, startOn "human" sends an empty prompt and the valid tail does not', async () => {
    expect([START_ON_HUMAN, [...START_ON_VALID_TAIL]]).toEqual(['human', ['human', 'ai']]);
    // Room for the newest three calls with their results, not for the whole loop back to the prompt.
    const budget = tailTokens(3) + 5;
    expect(budget).toBeLessThan(conversationTokens(conversation, tokenizer));
    const human = await langchainTrim.select(conversation, budget, tokenizer);
    expect(human).toEqual([]);
    expect(requestInvalidity({ messages: human, tokens: 0 })).toBe('empty_request');
    const tail = await langchainTrimValidTail.select(conversation, budget, tokenizer);
    expect(tail.map((m) => m.id)).toEqual(['a5', 't5', 'a6', 't6', 'a7', 't7']);
    expect(tail).toEqual(conversation.slice(-6));
    expect(requestInvalidity({ messages: tail, tokens: 0 })).toBeUndefined();
    expect(conversationTokens(tail, tokenizer)).toBeLessThanOrEqual(budget);
  });

  it('[peer-configs] [replay-invalid] at every budget the valid tail is a provider-valid newest suffix, empty only where not even the newest call with its result fits', async () => {
    const total = conversationTokens(conversation, tokenizer);
    for (let budget = 0; budget <= total + 20; budget += 40) {
      const tail = await langchainTrimValidTail.select(conversation, budget, tokenizer);
      expect(conversationTokens(tail, tokenizer)).toBeLessThanOrEqual(budget);
      expect(tail).toEqual(tail.length === 0 ? [] : conversation.slice(-tail.length));
      if (budget >= tailTokens(1)) expect({ budget, invalid: requestInvalidity({ messages: tail, tokens: 0 }) }).toEqual({ budget, invalid: undefined });
      else expect(tail).toEqual([]);
      const human = await langchainTrim.select(conversation, budget, tokenizer);
      // startOn "human" keeps all of it or nothing: the loop has a single user message, at the start.
      expect(human.length === 0 || human.length === conversation.length).toBe(true);
    }
  });

  it('[peer-configs] [replay-invalid] replayed on an agent-loop trace, startOn "human" refuses the steps past its reach as empty, the valid tail none', async () => {
    const events = agentLoopTrace(10, 60);
    const budget = 3_000;
    const human = await replayPeer(events, langchainTrim, { budget, tokenizer, provider: 'anthropic' });
    const tail = await replayPeer(events, langchainTrimValidTail, { budget, tokenizer, provider: 'anthropic' });
    expect(human.totals.invalidReasons.empty_request).toBeGreaterThan(0);
    expect(human.totals.invalidRequests).toBe(human.totals.invalidReasons.empty_request);
    expect(human.steps.filter((s) => s.invalid).every((s) => s.promptTokens === 0)).toBe(true);
    expect(tail.totals.invalidRequests).toBe(0);
    expect(tail.steps.every((s) => s.promptTokens > 0)).toBe(true);
    const full = await replayPeer(events, fullHistory, { budget, tokenizer, provider: 'anthropic' });
    expect(full.totals.invalidRequests).toBe(0);
  });
});

describe('[peer-configs] the AI SDK: the prepareStep recipe alone against pruneMessages with it', () => {
  it('[peer-configs] [replay-invalid] a last-10 window that starts at a tool message sends results without their call; pruning first does not', async () => {
    // 1 user message, 10 call/result pairs and a closing answer: 22 AI SDK messages, so the window keeps the first and the last 10.
    const conversation: Message[] = [...agentLoopConversation(10), { id: 'a10', role: 'assistant', content: 'All modules read.', toolCalls: [] }];
    const window = await vercelPrepareStep.select(conversation, 0, tokenizer);
    expect(window.map((m) => m.id)).toEqual(['u1', 't5', 'a6', 't6', 'a7', 't7', 'a8', 't8', 'a9', 't9', 'a10']);
    expect(requestInvalidity({ messages: window, tokens: 0 })).toBe('orphaned_result');
    const pruned = await vercelPruneMessages.select(conversation, 0, tokenizer);
    expect(requestInvalidity({ messages: pruned, tokens: 0 })).toBeUndefined();
    // At 20 messages or fewer the recipe sends everything.
    expect(await vercelPrepareStep.select(conversation.slice(0, 19), 0, tokenizer)).toEqual(conversation.slice(0, 19));
  });
});
