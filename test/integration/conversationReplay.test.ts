/**
 * Replays real coding-agent sessions (read in place from the shared traces folder, never copied)
 * through a ContextManager under both strategies, truncate and compress, at two budgets, and checks
 * the conversation invariants after every single step. Prints per trace what the conversion had to
 * repair and what each strategy did.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Audit } from '../../engine/conversation/ContextAudit';
import { ContextManager } from '../../engine/conversation/ContextManager';
import { extractiveSummarizer } from '../../engine/conversation/extractiveSummarizer';
import { checkAnthropicOrder, checkOpenAIOrder, orphanedResults, unansweredCalls } from '../support/providerValidity';
import type { GroupInput } from '../../engine/conversation/readGroup';
import { manualClock } from '../../engine/ports/Clock';
import { sequentialIds } from '../../engine/ports/IdSource';
import { memoTokenizer } from '../../engine/tokens/memoTokenizer';
import { importTraceFile } from '../../engine/node/traces/importTraceFile';
import type { TraceFormat } from '../../engine/traces/TraceEvent';
import { traceGroups } from '../support/traceGroups';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const tracesDir = process.env.STRATA_TRACES_DIR ?? path.resolve(repoRoot, '../shared/traces');
const available = existsSync(tracesDir);

/** Folders replayed, and the format each file must be detected as (mini-swe-agent trajectories are OpenAI-style message lists under their own label). */
const FOLDERS: { dir: string; format: TraceFormat }[] = [
  { dir: 'openai-messages-json', format: 'openai-messages-json' },
  { dir: 'claude-code-jsonl', format: 'claude-code-jsonl' },
  { dir: 'codex-rollout-jsonl', format: 'codex-rollout-jsonl' },
  { dir: 'mini-swe-agent-traj-json', format: 'mini-swe-agent-traj-json' },
];
const BUDGETS = [8_000, 32_000] as const;
const COMPRESS = { preserveRecentTurns: 4, summaryMaxTokens: 1_000 } as const;
const SYSTEM_PROMPT = 'You are a coding agent replaying a recorded session.';

interface Trace {
  dir: string;
  file: string;
  format: TraceFormat;
}

const traces: Trace[] = available
  ? FOLDERS.flatMap(({ dir, format }) => {
      const folder = path.join(tracesDir, dir);
      if (!existsSync(folder)) return [];
      return readdirSync(folder)
        .filter((f) => /\.(jsonl?|traj\.json)$/.test(f))
        .sort()
        .map((file) => ({ dir, file, format }));
    })
  : [];

const tokenizer = memoTokenizer();

type Strategy = 'truncate' | 'compress';

interface RunFigures {
  strategy: Strategy;
  budget: number;
  turns: number;
  applied: number;
  overBudgetSteps: number;
  peakBefore: number;
  peakKept: number;
  finalTokens: number;
  finalGroups: number;
  ms: number;
}

/** Every invariant of one step, as readable problems (empty when all hold). */
function problemsAfterStep(m: ContextManager, strategy: Strategy, budget: number, audit: Audit | undefined): string[] {
  const built = m.buildMessages();
  const problems = [
    ...checkOpenAIOrder(built).map((v) => `[provider-valid] openai ${v.code} at ${v.index}: ${v.detail}`),
    ...checkAnthropicOrder(built).map((v) => `[provider-valid] anthropic ${v.code} at ${v.index}: ${v.detail}`),
    ...orphanedResults(built).map((r) => `[no-orphans] orphaned result ${r.id} for ${r.toolCallId}`),
    ...unansweredCalls(built).map((c) => `[no-orphans] unanswered call ${c.id}`),
  ];
  const summaries = built.filter((x) => x.role === 'system' && x.kind === 'summary').length;
  if (summaries > 1) problems.push(`[one-summary] ${summaries} summaries`);
  if (audit?.outcome === 'failed') problems.push(`${strategy} failed: ${audit.reason}`);
  if (m.tokens() > budget && audit?.overBudget !== true) problems.push(`${m.tokens()} tokens > budget ${budget} but the manager did not report overBudget`);
  if (audit?.overBudget === true) {
    // Over budget only when nothing more may go: the newest turn ([truncate-newest]) or the preserved recent turns (compress).
    const turns = new Set(m.groups().map((g) => g.turnId)).size;
    const allowed = strategy === 'truncate' ? 1 : COMPRESS.preserveRecentTurns;
    if (turns > allowed) problems.push(`${strategy} over budget while keeping ${turns} turns (at most ${allowed} must stay)`);
  }
  return problems;
}

/**
 * Appends every group as its own turn (a runtime takes one lease per model call, so a turn is one
 * user message or one model call with its results), applying the strategy after each append;
 * checks after every step.
 */
async function replay(groups: readonly GroupInput[], strategy: Strategy, budget: number, name: string): Promise<RunFigures> {
  const started = performance.now();
  const clock = manualClock(Date.UTC(2026, 0, 1));
  const m = new ContextManager(SYSTEM_PROMPT, { tokenizer, ids: sequentialIds(), clock });
  const summarizer = extractiveSummarizer(tokenizer);
  const figures: RunFigures = { strategy, budget, turns: 0, applied: 0, overBudgetSteps: 0, peakBefore: 0, peakKept: 0, finalTokens: 0, finalGroups: 0, ms: 0 };
  for (const [step, group] of groups.entries()) {
    const lease = m.beginTurn();
    figures.turns++;
    clock.advance(1_000);
    m.appendTurn(lease, group);
    figures.peakBefore = Math.max(figures.peakBefore, m.tokens());
    let audit: Audit | undefined;
    if (strategy === 'truncate') audit = m.truncateToBudget(budget);
    else if (m.tokens() > budget) audit = await m.replacePrefixWithSummary(summarizer, { maxTokens: budget, ...COMPRESS });
    if (audit?.outcome === 'applied') figures.applied++;
    if (audit?.overBudget === true) figures.overBudgetSteps++;
    figures.peakKept = Math.max(figures.peakKept, m.tokens());
    const problems = problemsAfterStep(m, strategy, budget, audit);
    if (problems.length > 0) expect({ trace: name, strategy, budget, step, problems }).toEqual({ trace: name, strategy, budget, step, problems: [] });
  }
  figures.finalTokens = m.tokens();
  figures.finalGroups = m.groups().length;
  figures.ms = Math.round(performance.now() - started);
  return figures;
}

const nonZero = (counts: Record<string, number>): string =>
  Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${k}=${n}`)
    .join(' ') || 'none';
const sum = (counts: Record<string, number>): number => Object.values(counts).reduce((a, b) => a + b, 0);

describe('conversation replay of real traces', () => {
  if (!available) console.warn(`conversationReplay: SKIPPED, the traces folder ${tracesDir} does not exist (set STRATA_TRACES_DIR to replay real traces)`);

  it.skipIf(!available)('[provider-valid] the traces folder holds at least one trace of each of the four formats', () => {
    const formats = new Set(traces.map((t) => t.format));
    expect([...formats].sort()).toEqual(['claude-code-jsonl', 'codex-rollout-jsonl', 'mini-swe-agent-traj-json', 'openai-messages-json']);
  });

  for (const trace of traces) {
    const name = `${trace.dir}/${trace.file}`;
    it(`[provider-valid] [no-orphans] [group-atomic] [truncate-newest] [resume-bridge] [compress-atomic] [one-summary] replays ${name} under truncate and compress at ${BUDGETS.join(' and ')} tokens`, async () => {
      const started = performance.now();
      const imported = importTraceFile(path.join(tracesDir, trace.dir, trace.file));
      expect(imported.format).toBe(trace.format);
      const steps = new Set(imported.events.flatMap((e) => (e.step === undefined ? [] : [e.step]))).size;
      const { groups, repairs } = traceGroups(imported.events);
      const importMs = Math.round(performance.now() - started);
      expect(groups.length).toBeGreaterThan(0);

      const runs: RunFigures[] = [];
      for (const strategy of ['truncate', 'compress'] as const) for (const budget of BUDGETS) runs.push(await replay(groups, strategy, budget, name));

      const header = [
        `trace ${name} (${imported.format}): ${imported.events.length} events, ${steps} LLM calls, ${groups.length} groups, import ${importMs} ms, total ${Math.round(performance.now() - started)} ms`,
        `  repairs: ${nonZero({ ...repairs })}; skipped ${sum(imported.skipped)} records, unknown ${sum(imported.unknown)}${sum(imported.unknown) > 0 ? ` (${nonZero(imported.unknown)})` : ''}`,
        `  strategy  budget  turns  applied  overBudget-steps  peak-before  peak-kept  final-tokens  final-groups  ms`,
      ];
      const rows = runs.map((r) =>
        [
          r.strategy.padEnd(8),
          String(r.budget).padStart(6),
          String(r.turns).padStart(6),
          String(r.applied).padStart(8),
          String(r.overBudgetSteps).padStart(17),
          String(r.peakBefore).padStart(12),
          String(r.peakKept).padStart(10),
          String(r.finalTokens).padStart(13),
          String(r.finalGroups).padStart(13),
          String(r.ms).padStart(4),
        ].join(' '),
      );
      console.log([...header, ...rows.map((r) => `  ${r}`)].join('\n'));
    }, 60_000);
  }
});
