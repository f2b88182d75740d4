/**
 * Every peer adapter over every step of ONE real recorded coding-agent session (the smallest file of
 * the shared openai-messages-json traces, read in place, never copied) at an 8k budget: what each
 * peer would send at each step, and how many tool results it sends without their call (orphans,
 * measured and never repaired), printed as a table. Skipped, with the reason printed, when the
 * shared traces folder is absent.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../engine/conversation/Message';
import { checkAnthropicOrder, checkOpenAIOrder, orphanedResults, unansweredCalls } from '../../support/providerValidity';
import { withId } from '../../../engine/conversation/readGroup';
import { memoTokenizer } from '../../../engine/tokens/memoTokenizer';
import { requestInvalidity } from '../../../engine/traces/replay/requestValidity';
import { importTraceFile } from '../../../engine/node/traces/importTraceFile';
import { traceGroups } from '../../support/traceGroups';
import { conversationTokens, type PeerAdapter, peerAdapters } from '../../bench/compare/peers';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const tracesDir = process.env.STRATA_TRACES_DIR ?? path.resolve(repoRoot, '../shared/traces');
const folder = path.join(tracesDir, 'openai-messages-json');
const BUDGET = 8_000;
const SYSTEM_PROMPT = 'You are a coding agent replaying a recorded session.';

/** The smallest trace of the folder (by bytes, then name), or why there is none. */
function smallestTrace(): { file: string } | { skip: string } {
  if (!existsSync(tracesDir)) return { skip: `the traces folder ${tracesDir} does not exist (set STRATA_TRACES_DIR to run it)` };
  if (!existsSync(folder)) return { skip: `${folder} does not exist` };
  const files = readdirSync(folder)
    .filter((f) => f.endsWith('.json'))
    .map((f) => ({ f, size: statSync(path.join(folder, f)).size }))
    .sort((a, b) => a.size - b.size || a.f.localeCompare(b.f));
  const first = files[0];
  return first ? { file: path.join(folder, first.f) } : { skip: `${folder} holds no .json trace` };
}
const trace = smallestTrace();


interface Figures {
  adapter: PeerAdapter;
  steps: number;
  errors: number;
  firstError: string;
  stepsWithOrphans: number;
  orphans: number;
  maxOrphans: number;
  unanswered: number;
  overBudget: number;
  newestDropped: number;
  noHistory: number;
  nothingSent: number;
  openaiInvalid: number;
  anthropicInvalid: number;
  /** Steps `requestInvalidity` refuses (the replay's rules: no user-first requirement). */
  invalid: number;
  keptTokens: number;
  ms: number;
}

const isOrderedSubset = (sub: readonly string[], all: readonly string[]): boolean => {
  let i = 0;
  for (const id of all) if (id === sub[i]) i++;
  return i === sub.length;
};

describe('peer adapters over a real trace', () => {
  if ('skip' in trace) console.warn(`peerTraceOrphans: SKIPPED, ${trace.skip}`);

  it.skipIf('skip' in trace)(`every adapter at every step of the smallest openai-messages-json trace at ${BUDGET} tokens: orphaned results per peer`, async () => {
    if (!('file' in trace)) return;
    const tokenizer = memoTokenizer();
    const { groups, repairs } = traceGroups(importTraceFile(trace.file).events);
    expect(groups.length).toBeGreaterThan(0);

    // The conversation after each step: one group (a user message, or an assistant message with all its results) per step.
    let n = 0;
    const conversation: Message[] = [{ id: 'sys', role: 'system', kind: 'canonical', content: SYSTEM_PROMPT }];
    const steps: Message[][] = groups.map((g) => {
      for (const m of g) conversation.push(withId(m, `m${++n}`));
      return [...conversation];
    });
    const systemTokens = conversationTokens([conversation[0]!], tokenizer);

    const rows: Figures[] = [];
    for (const adapter of peerAdapters) {
      const f: Figures = { adapter, steps: 0, errors: 0, firstError: '', stepsWithOrphans: 0, orphans: 0, maxOrphans: 0, unanswered: 0, overBudget: 0, newestDropped: 0, noHistory: 0, nothingSent: 0, openaiInvalid: 0, anthropicInvalid: 0, invalid: 0, keptTokens: 0, ms: 0 };
      const started = performance.now();
      for (const [step, input] of steps.entries()) {
        f.steps++;
        let out: Message[];
        try {
          out = await adapter.select(input, BUDGET, tokenizer);
        } catch (e) {
          f.errors++;
          if (f.firstError === '') f.firstError = `step ${step}: ${e instanceof Error ? e.message : String(e)}`;
          continue;
        }
        // Peers only remove (or strip tool calls from) messages they were given, never reorder or invent.
        expect({ adapter: adapter.name, step, subset: isOrderedSubset(out.map((m) => m.id), input.map((m) => m.id)) }).toEqual({ adapter: adapter.name, step, subset: true });
        const tokens = conversationTokens(out, tokenizer);
        if (adapter.promisesBudget && BUDGET >= systemTokens) expect({ adapter: adapter.name, step, within: tokens <= BUDGET }).toEqual({ adapter: adapter.name, step, within: true });
        const orphans = orphanedResults(out).length;
        if (orphans > 0) f.stepsWithOrphans++;
        f.orphans += orphans;
        f.maxOrphans = Math.max(f.maxOrphans, orphans);
        f.unanswered += unansweredCalls(out).length;
        if (tokens > BUDGET) f.overBudget++;
        if (out[out.length - 1]?.id !== input[input.length - 1]?.id) f.newestDropped++;
        if (!out.some((m) => m.role !== 'system')) f.noHistory++;
        if (out.length === 0) f.nothingSent++;
        if (checkOpenAIOrder(out).length > 0) f.openaiInvalid++;
        if (checkAnthropicOrder(out).length > 0) f.anthropicInvalid++;
        if (requestInvalidity({ messages: out, tokens }) !== undefined) f.invalid++;
        f.keptTokens += tokens;
      }
      f.ms = Math.round(performance.now() - started);
      rows.push(f);
    }

    // The baseline is the trace itself, which the conversion made valid: no orphans, nothing invalid.
    const full = rows.find((r) => r.adapter.name === 'fullHistory')!;
    expect({ orphans: full.orphans, unanswered: full.unanswered, openaiInvalid: full.openaiInvalid, invalid: full.invalid, errors: full.errors }).toEqual({ orphans: 0, unanswered: 0, openaiInvalid: 0, invalid: 0, errors: 0 });
    // startOn "human" is empty wherever it keeps nothing, and the valid tail is never orphaned.
    const human = rows.find((r) => r.adapter.name === 'langchainTrim')!;
    const tail = rows.find((r) => r.adapter.name === 'langchainTrimValidTail')!;
    expect(human.invalid).toBe(human.noHistory);
    expect([tail.orphans, tail.unanswered, tail.invalid]).toEqual([0, 0, tail.noHistory]);

    const header = [
      `peers over ${path.basename(trace.file)}: ${groups.length} steps, ${conversation.length} messages, ${conversationTokens(conversation, tokenizer)} tokens at the end; budget ${BUDGET}; conversion repairs ${JSON.stringify(repairs)}`,
      `  ${'adapter'.padEnd(29)} ${['steps', 'errors', 'orphan-steps', 'orphans', 'max', 'unanswered', 'over-budget', 'newest-dropped', 'no-history', 'nothing-sent', 'openai-invalid', 'anthropic-invalid', 'invalid', 'mean-tokens', 'ms'].join('  ')}`,
    ];
    const lines = rows.map((r) => {
      const ok = r.steps - r.errors;
      const cells = [
        [r.steps, 5],
        [r.errors, 6],
        [r.stepsWithOrphans, 12],
        [r.orphans, 7],
        [r.maxOrphans, 3],
        [r.unanswered, 10],
        [r.overBudget, 11],
        [r.newestDropped, 14],
        [r.noHistory, 10],
        [r.nothingSent, 12],
        [r.openaiInvalid, 14],
        [r.anthropicInvalid, 17],
        [r.invalid, 7],
        [ok === 0 ? 0 : Math.round(r.keptTokens / ok), 11],
        [r.ms, 2],
      ] as const;
      return `  ${r.adapter.name.padEnd(29)} ${cells.map(([v, w]) => String(v).padStart(w)).join('  ')}`;
    });
    const notes = rows.flatMap((r) => [
      `  ${r.adapter.name}: budget: ${r.adapter.budgetBehaviour}`,
      `  ${' '.repeat(r.adapter.name.length)}  tool pairs: ${r.adapter.toolPairs}`,
      ...(r.firstError === '' ? [] : [`  ${' '.repeat(r.adapter.name.length)}  first error: ${r.firstError}`]),
    ]);
    console.log([...header, ...lines, ...notes].join('\n'));
  }, 600_000);
});
