/** Deterministic ports, fake summarizers, group builders and the invariant check shared by the ContextManager tests. */
import { expect } from 'vitest';
import { ContextManager, type ContextPorts } from '../../../../../engine/conversation/ContextManager';
import type { Message } from '../../../../../engine/conversation/Message';
import { checkAnthropicOrder, checkOpenAIOrder, orphanedResults, unansweredCalls } from '../../../../support/providerValidity';
import type { GroupInput } from '../../../../../engine/conversation/readGroup';
import type { SummarizeInput, Summarizer } from '../../../../../engine/conversation/Summarizer';
import { manualClock } from '../../../../../engine/ports/Clock';
import { sequentialIds } from '../../../../../engine/ports/IdSource';
import type { Tokenizer } from '../../../../../engine/tokens/Tokenizer';

/** One token per whitespace-separated word: exact arithmetic in boundary tests. */
export const wordTokenizer: Tokenizer = { encoding: 'words', count: (t) => t.split(/\s+/).filter(Boolean).length };

export const SYSTEM_PROMPT = 'You are a careful coding agent.';

export function testPorts(): ContextPorts {
  return { tokenizer: wordTokenizer, ids: sequentialIds(), clock: manualClock(1_000) };
}

export const newManager = (system = SYSTEM_PROMPT): ContextManager => new ContextManager(system, testPorts());

/** `n` filler words (`w0 w1 …`), so sizes are exact under {@link wordTokenizer}. */
export const words = (n: number, stem = 'w'): string => Array.from({ length: n }, (_, i) => `${stem}${i}`).join(' ');

export const user = (content: string): GroupInput => [{ role: 'user', content }];

/** An assistant message with its calls, each answered by a result right after it. */
export function assistant(content: string, calls: { id: string; name?: string; args?: string; result?: string; isError?: boolean }[] = []): GroupInput {
  return [
    { role: 'assistant', content, toolCalls: calls.map((c) => ({ id: c.id, name: c.name ?? 'read_file', arguments: c.args ?? '{}' })) },
    ...calls.map((c) => ({ role: 'tool' as const, toolCallId: c.id, content: c.result ?? 'ok', isError: c.isError ?? false })),
  ];
}

/** Begin a turn and append each group under it. */
export function turn(m: ContextManager, ...groups: GroupInput[]): void {
  const lease = m.beginTurn();
  for (const g of groups) m.appendTurn(lease, g);
}

/** A summarizer that answers `text` (or a function of the input), recording each call. */
export function fakeSummarizer(answer: string | ((input: SummarizeInput) => string) = 'summary'): Summarizer & { calls: SummarizeInput[] } {
  const calls: SummarizeInput[] = [];
  return {
    calls,
    summarize: (input) => {
      calls.push(input);
      return typeof answer === 'string' ? answer : answer(input);
    },
  };
}

/** A summarizer whose answer the test releases: for races against appends and other compressions. */
export function deferredSummarizer(): Summarizer & { resolve(text: string): void; reject(error: Error): void; called: Promise<void> } {
  let release: { resolve(text: string): void; reject(error: Error): void } = { resolve: () => undefined, reject: () => undefined };
  let signal = () => undefined as void;
  const called = new Promise<void>((r) => {
    signal = r;
  });
  return {
    called,
    resolve: (text) => release.resolve(text),
    reject: (error) => release.reject(error),
    summarize: () =>
      new Promise<string>((resolve, reject) => {
        release = { resolve, reject };
        signal();
      }),
  };
}

/** The snapshot as the bytes a persistence layer would write. */
export const bytes = (m: ContextManager): string => JSON.stringify(m.snapshot());

/**
 * Every invariant the issue names, on the built request and the snapshot: both providers' order
 * rules, no orphan and no unanswered call, exactly one canonical system prompt first, at most one
 * summary right after it, no transient persisted. Does not consume transients. Collects the
 * problems and asserts once, so long runs can check after every step cheaply.
 */
export function expectValid(m: ContextManager): Message[] {
  const messages = m.buildMessages({ transients: false });
  const problems: unknown[] = [...checkOpenAIOrder(messages).map((v) => ['openai', v])];
  if (messages.some((x) => x.role !== 'system')) problems.push(...checkAnthropicOrder(messages).map((v) => ['anthropic', v]));
  problems.push(...orphanedResults(messages).map((r) => ['orphan', r.id]), ...unansweredCalls(messages).map((c) => ['unanswered', c.id]));
  const canonical = messages.filter((x) => x.role === 'system' && x.kind === 'canonical');
  if (canonical.length !== 1 || messages[0] !== canonical[0]) problems.push(['canonical system prompt is not exactly one, first', canonical.length]);
  const summaries = messages.filter((x) => x.role === 'system' && x.kind === 'summary');
  if (summaries.length > 1 || (summaries[0] && messages[1] !== summaries[0])) problems.push(['summary is not at most one, right after the system prompt', summaries.length]);
  const snap = bytes(m);
  if (snap.includes('"transient"')) problems.push('a transient is in the snapshot');
  if (snap.split('"kind":"canonical"').length !== 2) problems.push('the snapshot does not hold exactly one canonical system prompt');
  if (snap.split('"kind":"summary"').length > 2) problems.push('the snapshot holds more than one summary');
  expect(problems).toEqual([]);
  return messages;
}
