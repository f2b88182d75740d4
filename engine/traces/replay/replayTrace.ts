/**
 * Counterfactual replay (`[replay-counterfactual]`): a recorded session replayed through the engine.
 * At each recorded step of the main agent the engine builds the context it would have given the
 * agent (strategy, budget) from everything observed so far as pool items (`traceItems.ts`); the
 * request is that prompt (`replayRequest.ts`), priced by the provider cache model at the step's
 * recorded time; then the recorded action happens (it comes from the trace) and its results
 * arrive as items for the next step. Deterministic apart from the overhead timings. Pure.
 */
import { Engine, type BuildRequest, type BuildResult } from '../../Engine';
import type { AgentIdentity } from '../../generations/AgentIdentity';
import type { ItemInput } from '../../items/createItem';
import { manualClock } from '../../ports/Clock';
import { createCacheModel } from '../../providers/cacheModel';
import { ContextLimitError } from '../../refresh/ContextLimitError';
import { strategies } from '../../strategies/strategies';
import { reuseRatio } from '../../metrics/prefixReuse';
import { commonPrefixBytes, utf8Length } from '../../text/utf8';
import type { Tokenizer } from '../../tokens/Tokenizer';
import type { TraceEvent } from '../TraceEvent';
import { DEFAULT_REPLAY_MODEL, modelSourceOf, defaultTimer, outputTokens, recordedModel } from './replayDefaults';
import { actionReferences, heldReferences } from './actionReferences';
import { chooseTtl } from './cacheTtl';
import { engineSegments, renderedResults, SegmentPricer } from './replayRequest';
import { replayTotals } from './replayTotals';
import { engineLayerEnds, reuseBreak, type LayerEnds } from './reuseBreak';
import type { ReplayOptions, ReplayResult, StepMetrics, Timer } from './ReplayTypes';
import { assistantTextItem, compactionItem, toolItem, userInputItem, type ItemContext } from './traceItems';
import { recordedPrompt, type TraceStep } from './traceSteps';
import { walkTrace } from './walkTrace';

/** The replayed agent: one worker doing the recorded coding task. */
export const REPLAY_AGENT_ID = 'replay-agent';
const TASK_ID = 'replay-task';
const PHASE = 'implement';
/** Context-limit refreshes one step may take, as the runtime allows (`maxLimitRetries`). */
const MAX_LIMIT_REFRESHES = 2;

/** A tokenizer that adds the time it spends to `spent.ms`. */
function timedTokenizer(inner: Tokenizer, timer: Timer, spent: { ms: number }): Tokenizer {
  return {
    encoding: inner.encoding,
    count: (text) => {
      const t0 = timer();
      const n = inner.count(text);
      spent.ms += timer() - t0;
      return n;
    },
  };
}

/** Replays `events` under one strategy and budget (see the module comment; rules in engine/SPEC.md "Counterfactual replay"). */
export function replayTrace(events: readonly TraceEvent[], options: ReplayOptions): ReplayResult {
  const { strategy, budget, provider, tokenizer } = options;
  if (!Object.hasOwn(strategies, strategy)) throw new RangeError(`replayTrace: unknown strategy "${String(strategy)}"`);
  if (!(Number.isInteger(budget) && budget > 0)) throw new RangeError(`replayTrace: budget must be a positive whole number of tokens, got ${String(budget)}`);
  const timer = options.timer ?? defaultTimer;
  const model = options.model ?? recordedModel(events) ?? DEFAULT_REPLAY_MODEL[provider];
  const spent = { ms: 0 };
  const clock = manualClock(0);
  const engine = new Engine({ tokenizer: timedTokenizer(tokenizer, timer, spent), clock, ...(options.autoRefresh ? { autoRefresh: true } : {}) });
  const firstInput = events.find((e) => e.type === 'user_input' && e.agentId === undefined && e.text.trim() !== '');
  const identity: AgentIdentity = {
    agentId: REPLAY_AGENT_ID,
    parent: null,
    role: 'worker',
    taskId: TASK_ID,
    task: firstInput?.type === 'user_input' ? firstInput.text.slice(0, 1000) : '',
    scope: options.scope ?? {},
    model,
    workspace: 'replay',
    budget,
  };
  engine.registerAgent(identity, strategy);
  const cacheTtl = chooseTtl(events, options.ttl);
  const pricer = new SegmentPricer(createCacheModel({ provider }), (t) => engine.tokens.count(t), cacheTtl.ttl);

  const steps: StepMetrics[] = [];
  const files: string[] = [];
  const failures: string[] = [];
  let latestInput = '';
  let objectiveSeen = false;
  let previousText: string | undefined;
  let previousEnds: LayerEnds | undefined;
  const ctx = (at: number): ItemContext => ({ agentId: REPLAY_AGENT_ID, taskId: TASK_ID, at });
  const add = (input: ItemInput) => {
    const item = engine.addItem(input);
    for (const f of item.provenance.files) {
      const i = files.indexOf(f);
      if (i >= 0) files.splice(i, 1);
      files.push(f);
    }
    if (files.length > 40) files.splice(0, files.length - 40);
    if (item.kind === 'failure') failures.push(item.title);
  };
  const request = (): BuildRequest => ({ phase: PHASE, files: files.slice(-20), keywords: latestInput ? [latestInput.slice(0, 2000)] : [], failures: failures.slice(-5) });

  const runStep = (s: TraceStep, index: number, at: number) => {
    clock.set(at);
    // Overhead is the time spent inside the engine's own calls (builds and refreshes) only.
    let overheadMs = 0;
    let tokenizeMs = 0;
    const timed = <T>(call: () => T): T => {
      const tokenizeBefore = spent.ms;
      const t0 = timer();
      const out = call();
      overheadMs += timer() - t0;
      tokenizeMs += spent.ms - tokenizeBefore;
      return out;
    };
    const builds: BuildResult[] = [timed(() => engine.build(REPLAY_AGENT_ID, request()))];
    const recordedOverWindow = options.window !== undefined && s.usage !== undefined && recordedPrompt(s.usage) > options.window;
    let limitRefreshes = 0;
    const refuse = (tokens: number, why: string) => {
      const refreshed = timed(() => engine.maybeRefresh(REPLAY_AGENT_ID, new ContextLimitError(why, provider, tokens, options.window)));
      if (refreshed) builds.push(refreshed.result);
      limitRefreshes++;
    };
    if (recordedOverWindow && s.usage) refuse(recordedPrompt(s.usage), `recorded prompt of ${recordedPrompt(s.usage)} tokens is over the ${options.window}-token window`);
    let segments = engineSegments((builds.at(-1) as BuildResult).prompt);
    const sizeOf = () => segments.reduce((n, seg) => n + pricer.segment(seg).tokens, 0);
    for (let tokens = sizeOf(); options.window !== undefined && tokens > options.window && limitRefreshes < MAX_LIMIT_REFRESHES; tokens = sizeOf()) {
      refuse(tokens, `prompt of ${tokens} tokens is over the ${options.window}-token window`);
      segments = engineSegments((builds.at(-1) as BuildResult).prompt);
    }
    const built = builds.at(-1) as BuildResult;
    const usage = pricer.price(segments, { at, model, cacheKey: `replay:${REPLAY_AGENT_ID}`, outputTokens: outputTokens(s, tokenizer) });
    const text = built.text;
    const promptBytes = utf8Length(text);
    const previous = previousText;
    previousText = text;
    const reusedBytes = previous === undefined ? 0 : commonPrefixBytes(previous, text);
    const ends = engineLayerEnds(built.prompt, promptBytes);
    const breakKind = previousEnds === undefined ? undefined : reuseBreak(reusedBytes, previousEnds, ends);
    previousEnds = ends;
    const refs = actionReferences(s.texts, s.calls);
    const held = heldReferences(text, refs);
    const rendered = renderedResults(text);
    const started = builds.filter((b) => b.started);
    const m: StepMetrics = {
      index,
      step: s.step,
      at,
      promptTokens: usage.promptTokens,
      engineTokens: built.generation.tokens,
      layers: { ...built.generation.layerTokens },
      promptBytes,
      reusedBytes,
      prefixReuse: reuseRatio(reusedBytes, promptBytes),
      input: usage.input,
      cacheRead: usage.cacheRead,
      cacheWrite: usage.cacheWrite,
      cacheWrite1h: usage.cacheWriteByTtl['1h'],
      output: usage.output,
      references: refs.length,
      referencesHeld: held,
      toolResults: rendered.results,
      orphanedToolResults: rendered.orphans,
      generation: built.generation.number,
      refreshes: started.filter((b) => b.generation.boundary.kind === 'refresh').length,
      limitRefreshes,
      overBudget: usage.promptTokens > budget,
      recordedOverWindow,
      overheadMs,
      tokenizeMs,
    };
    if (refs.length > 0) m.neededReferenceRecall = held / refs.length;
    if (breakKind !== undefined) m.reuseBreak = breakKind;
    const last = started.at(-1);
    if (last) {
      m.boundary = last.generation.boundary.kind;
      m.boundaryReason = last.generation.boundary.reason;
    }
    steps.push(m);
  };

  const repairs = walkTrace(events, {
    step: runStep,
    userInput: (text, i, at) => {
      add(userInputItem(text, i, !objectiveSeen, budget, ctx(at)));
      objectiveSeen = true;
      latestInput = text;
    },
    assistantText: (text, step, k, at) => add(assistantTextItem(text, step, k, ctx(at))),
    toolResult: (call, result, at) => add(toolItem(call, result, ctx(at))),
    compaction: (summary, i, at) => add(compactionItem(summary, i, ctx(at))),
  });
  const result: ReplayResult = { strategy, budget, provider, model, modelSource: modelSourceOf(events, options.model), cacheTtl, steps, totals: replayTotals(steps, model), repairs };
  if (options.capture) result.capture = { generations: engine.generations(REPLAY_AGENT_ID), prompt: engine.lastPromptParts(REPLAY_AGENT_ID) ?? null };
  return result;
}
