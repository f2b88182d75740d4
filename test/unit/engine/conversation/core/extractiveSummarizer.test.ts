import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractiveSummarizer, extractiveSummary, SUMMARY_HEADER } from '../../../../../engine/conversation/extractiveSummarizer';
import type { HistoryMessage } from '../../../../../engine/conversation/Message';
import { wordTokenizer } from './conversationFixtures';

const words = (t: string): number => wordTokenizer.count(t);
const quarter = (t: string): number => Math.ceil(t.length / 4);

const session: HistoryMessage[] = [
  { id: '1', role: 'user', content: 'Please migrate the auth module to JWT. You must not change the public API of src/auth/index.ts.' },
  {
    id: '2',
    role: 'assistant',
    content: 'I decided to use the jose library instead of jsonwebtoken because it supports ESM. Looking at `createSession` first.',
    toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"src/auth/session.ts"}' }],
  },
  { id: '3', role: 'tool', toolCallId: 'c1', isError: false, content: 'export function createSession(user) {\n  const secretInternalLine = 42;\n  return sign(user);\n}' },
  {
    id: '4',
    role: 'assistant',
    content: 'Session tokens expire after 15 minutes in config/auth.toml.\nTODO: update tests in test/auth/jwt.test.ts next. Remaining: rotate keys.',
    toolCalls: [{ id: 'c2', name: 'run_tests', arguments: '{}' }],
  },
  { id: '5', role: 'tool', toolCallId: 'c2', isError: true, content: 'FAIL test/auth/jwt.test.ts > verifies\nAssertionError: expected 1 to be 2\n    at Object.<anonymous> (jwt.test.ts:12:5)' },
  { id: '6', role: 'user', content: 'thanks!' },
  { id: '7', role: 'assistant', content: 'Sure, happy to help.', toolCalls: [] },
];

describe('extractive summarizer', () => {
  it('[summary-keeps] keeps constraints, decisions, open tasks, requests, failures, facts and named paths and symbols', () => {
    const text = extractiveSummary({ messages: session, maxTokens: 300 }, words);
    expect(text.startsWith(SUMMARY_HEADER)).toBe(true);
    for (const kept of [
      'You must not change the public API of src/auth/index.ts.',
      'I decided to use the jose library instead of jsonwebtoken because it supports ESM.',
      'TODO: update tests in test/auth/jwt.test.ts next.',
      'Remaining: rotate keys.',
      'Please migrate the auth module to JWT.',
      'run_tests failed: FAIL test/auth/jwt.test.ts > verifies',
      'Session tokens expire after 15 minutes in config/auth.toml.',
      'src/auth/session.ts',
      'createSession',
    ]) {
      expect(text).toContain(kept);
    }
  });

  it('[summary-keeps] leaves out raw tool output, tool arguments and chatter', () => {
    const text = extractiveSummary({ messages: session, maxTokens: 300 }, words);
    for (const dropped of ['secretInternalLine', 'return sign(user)', 'Object.<anonymous>', '{"path"', 'thanks', 'happy to help']) expect(text).not.toContain(dropped);
  });

  it('[summary-keeps] [one-summary] folds the previous summary in: one header, old entries first, nothing repeated', () => {
    const first = extractiveSummary({ messages: session, maxTokens: 300 }, words);
    const next = extractiveSummary({ previousSummary: first, messages: [{ id: '8', role: 'user', content: 'Always run pnpm lint before committing.' }], maxTokens: 300 }, words);
    expect(next.split(SUMMARY_HEADER)).toHaveLength(2);
    expect(next).toContain('- You must not change the public API of src/auth/index.ts.\n- Always run pnpm lint before committing.');
    expect(next.match(/Remaining: rotate keys/g)).toHaveLength(1);
    expect(next).toContain('I decided to use the jose library');
    expect(extractiveSummary({ previousSummary: next, messages: [], maxTokens: 300 }, words)).toBe(next);
  });

  it('[summary-keeps] a foreign previous summary (a model wrote it) is folded sentence by sentence, not nested', () => {
    const text = extractiveSummary({ previousSummary: 'The user wants dark mode. Must use pnpm.\nNext: wire the toggle in src/ui/Settings.tsx', messages: [], maxTokens: 100 }, words);
    expect(text).toContain('- Must use pnpm.');
    expect(text).toContain('- Next: wire the toggle in src/ui/Settings.tsx');
    expect(text).toContain('- The user wants dark mode.');
    expect(text).toContain('Paths: src/ui/Settings.tsx');
  });

  it('[summary-keeps] under a tight budget constraints and decisions win over long requests', () => {
    const messages: HistoryMessage[] = [{ id: 'd', role: 'user', content: 'We decided on codename-zeta. Never push to main.' }];
    for (let i = 0; i < 30; i++) messages.push({ id: `u${i}`, role: 'user', content: `Please look at item ${i} and tell me everything about its many details and history.` });
    const text = extractiveSummary({ messages, maxTokens: 80 }, words);
    expect(text).toContain('codename-zeta');
    expect(text).toContain('Never push to main.');
    expect(words(text)).toBeLessThanOrEqual(80);
  });

  it('[summary-keeps] always fits maxTokens, for any budget and either tokenizer, and is deterministic', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 400 }), fc.boolean(), (max, byWords) => {
        const count = byWords ? words : quarter;
        const summarizer = extractiveSummarizer({ encoding: 'test', count });
        const input = { previousSummary: extractiveSummary({ messages: session.slice(0, 3), maxTokens: 60 }, count), messages: session, maxTokens: max };
        const text = summarizer.summarize(input) as string;
        expect(count(text)).toBeLessThanOrEqual(max);
        expect(summarizer.summarize(input)).toBe(text);
      }),
      { numRuns: 150, seed: 20260719 },
    );
  });
});
