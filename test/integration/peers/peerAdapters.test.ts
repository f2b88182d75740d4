/**
 * The peer adapters of the context benchmark (test/bench/compare/peers) on a small synthetic
 * coding-agent conversation: conversions round-trip, each peer trims as it documents (within the
 * budget where it promises that, newest messages kept), and what each does with tool-call/result
 * pairs is what its adapter says. Orphans are measured, never repaired.
 */
import { type BaseMessage, trimMessages } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../engine/conversation/Message';
import { orphanedResults, unansweredCalls } from '../../support/providerValidity';
import { memoTokenizer } from '../../../engine/tokens/memoTokenizer';
import type { Tokenizer } from '../../../engine/tokens/Tokenizer';
import { conversationTokens, fullHistory, langchainTrim, langchainTrimValidTail, mastraTokenLimiter, mastraTokenLimiterOwnEncoder, peerAdapters, vercelPruneMessages } from '../../bench/compare/peers';
import { fromLangChain, toLangChain } from '../../bench/compare/peers/langchainTrim';
import { fromCoreMessages, toCoreMessages } from '../../bench/compare/peers/mastraTokenLimiter';
import { originalsOf, RAW_ARGUMENTS_KEY } from '../../bench/compare/peers/messageCodec';
import { fromModelMessages, PRUNE_OPTIONS, toModelMessages, WINDOW_KEEP_LAST } from '../../bench/compare/peers/vercelPruneMessages';
import { SYSTEM_ID, syntheticConversation } from './syntheticConversation';

const tokenizer = memoTokenizer();
const ids = (ms: readonly Message[]) => ms.map((m) => m.id);

/** True when `sub` is `all` with some messages left out, order kept. */
function isOrderedSubset(sub: readonly string[], all: readonly string[]): boolean {
  let i = 0;
  for (const id of all) if (id === sub[i]) i++;
  return i === sub.length;
}

/** Tokens of the system prompt plus the last user turn (u3 onward) plus `slack`: enough for the newest turn, far less than everything. */
function lastTurnBudget(conversation: readonly Message[], slack: number): number {
  const fromU3 = conversation.slice(conversation.findIndex((m) => m.id === 'u3'));
  return conversationTokens([conversation[0]!, ...fromU3], tokenizer) + slack;
}

describe('peer adapters: conversion round trips', () => {
  const conversation = syntheticConversation();
  const originals = originalsOf(conversation);

  it('LangChain messages carry content, ids, call ids, arguments (byte for byte) and error status there and back', () => {
    const lc = conversation.map(toLangChain);
    expect(lc.map((m) => m.getType())).toEqual(conversation.map((m) => ({ system: 'system', user: 'human', assistant: 'ai', tool: 'tool' })[m.role]));
    // arguments that are not a JSON object still reach LangChain as an object (its tool_calls need one)
    const patch = lc.find((m) => m.id === 'a3') as unknown as { tool_calls: { args: Record<string, unknown> }[] };
    expect(Object.keys(patch.tool_calls[0]!.args)).toEqual([RAW_ARGUMENTS_KEY]);
    expect(lc.map((m) => fromLangChain(m, originals))).toEqual(conversation);
  });

  it('AI SDK 6 ModelMessages group each run of results into one tool message and convert back exactly', () => {
    const mm = toModelMessages(conversation, originals);
    expect(mm.map((m) => m.role).join(',')).toBe('system,user,assistant,tool,assistant,tool,assistant,tool,assistant,user,assistant,tool,assistant,tool,assistant,user,assistant,tool,assistant');
    expect(fromModelMessages(mm, originals)).toEqual(conversation);
  });

  it('AI SDK 4 CoreMessages (Mastra 0.x) convert back exactly', () => {
    const history = conversation.slice(1);
    expect(fromCoreMessages(toCoreMessages(history, originals), originals)).toEqual(history);
  });

  it('with a budget larger than the conversation, both LangChain peers, both Mastra variants and fullHistory return the conversation unchanged', async () => {
    for (const adapter of [fullHistory, langchainTrim, langchainTrimValidTail, mastraTokenLimiter, mastraTokenLimiterOwnEncoder]) {
      expect({ adapter: adapter.name, out: await adapter.select(conversation, 1_000_000, tokenizer) }).toEqual({ adapter: adapter.name, out: conversation });
    }
  }, 60_000);

  it('no adapter changes the conversation it is given', async () => {
    const conversationCopy = structuredClone(conversation);
    for (const adapter of peerAdapters) await adapter.select(conversation, 300, tokenizer);
    expect(conversation).toEqual(conversationCopy);
  }, 60_000);

  it('a peer handing back a message it was never given is an error, not a silent repair', () => {
    expect(() => fromLangChain(toLangChain({ id: 'stranger', role: 'user', content: 'hi' }), originals)).toThrow(/not in the conversation/);
  });
});

describe('peer adapters at a budget that forces trimming', () => {
  const conversation = syntheticConversation();
  const total = conversationTokens(conversation, tokenizer);

  it('fullHistory returns everything whatever the budget', async () => {
    expect(await fullHistory.select(conversation, 10, tokenizer)).toEqual(conversation);
  });

  it('langchainTrim: within budget by our tokenizer, system first, the newest turn kept from its user message on, every kept message unchanged', async () => {
    const budget = lastTurnBudget(conversation, 20);
    expect(budget).toBeLessThan(total / 3);
    const out = await langchainTrim.select(conversation, budget, tokenizer);
    expect(conversationTokens(out, tokenizer)).toBeLessThanOrEqual(budget);
    expect(ids(out)).toEqual([SYSTEM_ID, 'u3', 'a8', 't9', 't10', 'a9']);
    const byId = new Map(conversation.map((m) => [m.id, m]));
    for (const m of out) expect(m).toEqual(byId.get(m.id));
  });

  it('langchainTrim: at every budget the history starts at a user message and no result is orphaned; short of the newest user turn nothing at all is sent, not even the system prompt', async () => {
    for (let budget = 0; budget <= total + 10; budget += 25) {
      const out = await langchainTrim.select(conversation, budget, tokenizer);
      expect(conversationTokens(out, tokenizer)).toBeLessThanOrEqual(budget);
      expect(orphanedResults(out)).toEqual([]);
      expect(unansweredCalls(out)).toEqual([]);
      if (out.length > 1) expect(out[1]!.role).toBe('user');
    }
    // One token short of the newest user turn: startOn walks back past the system message too, and
    // trimMessages returns [undefined], which the adapter reads as nothing sent.
    const justShort = lastTurnBudget(conversation, -1);
    expect(await langchainTrim.select(conversation, justShort, tokenizer)).toEqual([]);
    const counter = (ms: BaseMessage[]) => ms.reduce((n, m) => n + conversationTokens([fromLangChain(m, originalsOf(conversation))], tokenizer), 0);
    const raw = await trimMessages(conversation.map(toLangChain), { strategy: 'last', startOn: 'human', includeSystem: true, maxTokens: justShort, tokenCounter: counter });
    expect(raw).toEqual([undefined]);
    expect(await langchainTrim.select(conversation, 1, tokenizer)).toEqual([]);
  });

  it('mastraTokenLimiter: counts with OUR tokenizer (its public countTokens overridden), stays within budget, keeps the newest contiguous messages', async () => {
    const budget = lastTurnBudget(conversation, 40);
    const out = await mastraTokenLimiter.select(conversation, budget, tokenizer);
    expect(conversationTokens(out, tokenizer)).toBeLessThanOrEqual(budget);
    expect(out[0]!.id).toBe(SYSTEM_ID);
    const history = ids(out).slice(1);
    expect(history.length).toBeGreaterThan(0);
    expect(history).toEqual(ids(conversation).slice(-history.length));
    expect(history.length).toBeLessThan(conversation.length - 1);

    // A tokenizer eight times as expensive as o200k: with Mastra's own encoder the output would overrun it.
    const heavy: Tokenizer = { encoding: 'heavy', count: (text) => 8 * tokenizer.count(text) };
    const heavyBudget = lastTurnBudget(conversation, 0) * 2;
    const heavyOut = await mastraTokenLimiter.select(conversation, heavyBudget, heavy);
    expect(conversationTokens(heavyOut, heavy)).toBeLessThanOrEqual(heavyBudget);
    expect(conversationTokens(await mastraTokenLimiterOwnEncoder.select(conversation, heavyBudget, heavy), heavy)).toBeGreaterThan(heavyBudget);
  }, 60_000);

  it('mastraTokenLimiter: ignores tool pairs, so some budgets send results whose calls were cut (kept as the peer returned them)', async () => {
    const orphaning: number[] = [];
    for (let budget = 50; budget <= total + 100; budget += 10) {
      const out = await mastraTokenLimiter.select(conversation, budget, tokenizer);
      expect(conversationTokens(out, tokenizer)).toBeLessThanOrEqual(budget);
      const history = ids(out).slice(1);
      expect(history).toEqual(history.length === 0 ? [] : ids(conversation).slice(-history.length));
      const orphans = orphanedResults(out);
      if (orphans.length > 0) {
        orphaning.push(budget);
        // the orphans are the results at the old end of the kept suffix, whose assistant message was cut
        expect(out[1]!.role).toBe('tool');
      }
    }
    expect(orphaning.length).toBeGreaterThan(0);
  });

  it('mastraTokenLimiterOwnEncoder: the processor as shipped keeps a newest suffix under its own count, and throws on special-token text', async () => {
    const budget = lastTurnBudget(conversation, 40);
    const out = await mastraTokenLimiterOwnEncoder.select(conversation, budget, tokenizer);
    const history = ids(out).slice(1);
    expect(out[0]!.id).toBe(SYSTEM_ID);
    expect(history.length).toBeGreaterThan(0);
    expect(history.length).toBeLessThan(conversation.length - 1);
    expect(history).toEqual(ids(conversation).slice(-history.length));
    const special: Message[] = [...conversation, { id: 'u4', role: 'user', content: 'what is <|endoftext|>?' }];
    await expect(mastraTokenLimiterOwnEncoder.select(special, budget, tokenizer)).rejects.toThrow(/special token/);
    // ours counts the marker as plain text
    await expect(mastraTokenLimiter.select(special, budget, tokenizer)).resolves.toBeDefined();
  }, 60_000);

  it('vercelPruneMessages: strips calls and results before the last 2 messages (pairs together), ignores the budget', async () => {
    expect(PRUNE_OPTIONS).toEqual({ reasoning: 'before-last-message', toolCalls: 'before-last-2-messages', emptyMessages: 'remove' });
    const out = await vercelPruneMessages.select(conversation, 10, tokenizer);
    expect(conversationTokens(out, tokenizer)).toBeGreaterThan(10);
    // 19 AI SDK messages before pruning, 12 after: not above 20, so the window does not apply
    expect(ids(out)).toEqual([SYSTEM_ID, 'u1', 'a1', 'a3', 'a4', 'u2', 'a5', 'a7', 'u3', 'a8', 't9', 't10', 'a9']);
    expect(isOrderedSubset(ids(out), ids(conversation))).toBe(true);
    // calls stripped from messages that had text; the calls named in the last 2 messages kept with their results
    const byId = new Map(out.map((m) => [m.id, m]));
    expect(byId.get('a1')).toEqual({ id: 'a1', role: 'assistant', content: 'I will read the parser and the lexer first.', toolCalls: [] });
    expect(byId.get('a8')).toEqual(conversation.find((m) => m.id === 'a8'));
    expect(orphanedResults(out)).toEqual([]);
    expect(unansweredCalls(out)).toEqual([]);
  });

  it('vercelPruneMessages: above 20 messages, sends messages[0] and the last 10 (the docs\' prepareStep recipe), newest kept', async () => {
    const chat: Message[] = Array.from({ length: 8 }, (_, i): Message[] => [
      { id: `cu${i}`, role: 'user', content: `follow-up question ${i}` },
      { id: `ca${i}`, role: 'assistant', content: `answer ${i}`, toolCalls: [] },
    ]).flat();
    const longer = [...conversation, ...chat];
    const out = await vercelPruneMessages.select(longer, 10, tokenizer);
    expect(out[0]!.id).toBe(SYSTEM_ID);
    expect(out).toHaveLength(1 + WINDOW_KEEP_LAST);
    expect(ids(out).slice(1)).toEqual(ids(chat).slice(-WINDOW_KEEP_LAST));
    expect(out.slice(1)).toEqual(chat.slice(-WINDOW_KEEP_LAST));
  });

  it('every adapter returns only messages it was given, in order, with their ids; within budget where promised', async () => {
    const systemTokens = conversationTokens([conversation[0]!], tokenizer);
    for (const adapter of peerAdapters) {
      for (const budget of [0, 200, 600, 1_500, total]) {
        const out = await adapter.select(conversation, budget, tokenizer);
        expect({ adapter: adapter.name, budget, subset: isOrderedSubset(ids(out), ids(conversation)) }).toEqual({ adapter: adapter.name, budget, subset: true });
        if (adapter.promisesBudget && budget >= systemTokens) expect(conversationTokens(out, tokenizer)).toBeLessThanOrEqual(budget);
      }
    }
  }, 60_000); // the shipped Mastra limiter builds an o200k encoder (about a second) per budget
});
