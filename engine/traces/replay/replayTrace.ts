/**
 * Counterfactual replay (`[replay-counterfactual]`): a recorded session replayed through the engine.
 * Every agent of the trace (the main agent, and each subagent as an engine agent of its own whose
 * parent is the main one, each in the role the recording supports: `agentRoles.ts`) is replayed: at each of its recorded steps the engine builds the context
 * it would have given that agent (strategy, budget) from what the agent observed so far as pool
 * items addressed to it (`traceItems.ts`); the request is the fixed prefix the recording sent
 * (`fixedPrefix.ts`, the same for every row) followed by that prompt (`replayRequest.ts`), priced
 * by one provider cache model at the step's recorded time; then the recorded action happens (it
 * comes from the trace) and its results arrive as items for the next step. Client-injected
 * context (attachments, environment context) arrives as task items, never as the objective.
 * Deterministic apart from the overhead timings. Pure.
 */
import { generationTokens } from '../../generations/Generation';
import { Engine } from '../../Engine';
import type { BuildRequest, BuildResult } from '../../EngineTypes';
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
import { replayRoles } from './agentRoles';
import { chooseTtl } from './cacheTtl';
import { ContentRecall } from './contentRecall';
import { engineSegments, renderedResults, SegmentPricer, type RequestSegment } from './replayRequest';
import { replayTotals } from './replayTotals';
import { refusedStep, refusedUsage, requestInvalidity } from './requestValidity';
import { engineLayerEnds, reuseBreak, type LayerEnds } from './reuseBreak';
import type { ReplayOptions, ReplayResult, StepMetrics, Timer } from './ReplayTypes';
import { assistantTextItem, compactionItem, contextItem, toolItem, userInputItem, type ItemContext } from './traceItems';
import { recordedPrompt, type TraceStep } from '../traceSteps';
import { walkTrace, type AgentKey } from './walkTrace';
import { fixedPrefix, prefixSegments, segmentsText } from './fixedPrefix';
import { AgentTranscript } from './transcript';

/** The replayed main agent (its subagents are `replay-agent/<key>`). */
const REPLAY_AGENT_ID = 'replay-agent';
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

/** What the replay keeps per recorded agent. */
interface AgentReplay {
  engineId: string;
  taskId: string;
  files: string[];
  failures: string[];
  latestInput: string;
  objectiveSeen: boolean;
  previousText?: string;
  previousEnds?: LayerEnds;
  /** Only its prefix is used: the recorded prefix, or the leading instructions. */
  prefix: AgentTranscript;
  historyStarted: boolean;
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
  const prefix = fixedPrefix(events, tokenizer);
  const firstInputs = new Map<AgentKey, string>();
  for (const e of events) if (e.type === 'user_input' && e.text.trim() !== '' && !firstInputs.has(e.agentId)) firstInputs.set(e.agentId, e.text);
  const agents = new Map<AgentKey, AgentReplay>();
  const roles = replayRoles(events);
  const agentOf = (key: AgentKey): AgentReplay => {
    let a = agents.get(key);
    if (a) return a;
    const engineId = key === undefined ? REPLAY_AGENT_ID : `${REPLAY_AGENT_ID}/${key}`;
    const taskId = key === undefined ? TASK_ID : `${TASK_ID}/${key}`;
    const identity: AgentIdentity = {
      agentId: engineId,
      parent: key === undefined ? null : REPLAY_AGENT_ID,
      role: roles.get(key)?.role ?? 'worker',
      taskId,
      task: (firstInputs.get(key) ?? '').slice(0, 1000),
      scope: options.scope ?? {},
      model,
      workspace: 'replay',
      budget,
    };
    engine.registerAgent(identity, strategy);
    a = { engineId, taskId, files: [], failures: [], latestInput: '', objectiveSeen: false, prefix: new AgentTranscript(key), historyStarted: false };
    agents.set(key, a);
    return a;
  };
  const cacheTtl = chooseTtl(events, options.ttl);
  // Every row is priced in the provider's tokens (`[replay-token-scale]`); the engine packs in its own.
  const pricer = new SegmentPricer(createCacheModel({ provider }), (t) => Math.round(engine.tokens.count(t) * prefix.tokenScale.value), cacheTtl.ttl);

  const steps: StepMetrics[] = [];
  const recall = new ContentRecall(events);
  const ctx = (a: AgentReplay, at: number): ItemContext => ({ agentId: a.engineId, taskId: a.taskId, at });
  const add = (a: AgentReplay, input: ItemInput) => {
    a.historyStarted = true;
    // What one recorded agent observed reaches only that agent's context, as in the recording.
    const item = engine.addItem({ ...input, audience: a.engineId });
    for (const f of item.provenance.files) {
      const i = a.files.indexOf(f);
      if (i >= 0) a.files.splice(i, 1);
      a.files.push(f);
    }
    if (a.files.length > 40) a.files.splice(0, a.files.length - 40);
    if (item.kind === 'failure') a.failures.push(item.title);
  };
  const request = (a: AgentReplay): BuildRequest => ({ phase: PHASE, files: a.files.slice(-20), keywords: a.latestInput ? [a.latestInput.slice(0, 2000)] : [], failures: a.failures.slice(-5) });

  const runStep = (s: TraceStep, index: number, at: number, key: AgentKey) => {
    const a = agentOf(key);
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
    const builds: BuildResult[] = [timed(() => engine.build(a.engineId, request(a)))];
    const recordedOverWindow = options.window !== undefined && s.usage !== undefined && recordedPrompt(s.usage) > options.window;
    let limitRefreshes = 0;
    const refuse = (tokens: number, why: string) => {
      const refreshed = timed(() => engine.maybeRefresh(a.engineId, new ContextLimitError(why, provider, tokens, options.window)));
      if (refreshed) builds.push(refreshed.result);
      limitRefreshes++;
    };
    if (recordedOverWindow && s.usage) refuse(recordedPrompt(s.usage), `recorded prompt of ${recordedPrompt(s.usage)} tokens is over the ${options.window}-token window`);
    const head = prefixSegments(a.prefix, prefix.standIns.get(key));
    let segments = [...head, ...engineSegments((builds.at(-1) as BuildResult).prompt)];
    const sizeOf = () => segments.reduce((n, seg) => n + pricer.segment(seg).tokens, 0);
    for (let tokens = sizeOf(); options.window !== undefined && tokens > options.window && limitRefreshes < MAX_LIMIT_REFRESHES; tokens = sizeOf()) {
      refuse(tokens, `prompt of ${tokens} tokens is over the ${options.window}-token window`);
      segments = [...head, ...engineSegments((builds.at(-1) as BuildResult).prompt)];
    }
    const built = builds.at(-1) as BuildResult;
    const rendered = renderedResults(built.text);
    // The provider reads the engine's tail as the one user message; its tool results are rendered text (`[replay-invalid]`).
    const invalid = requestInvalidity({ messages: [{ id: 'tail', role: 'user', content: (segments.at(-1) as RequestSegment).text }], tokens: sizeOf(), renderedOrphans: rendered.orphans }, options.window);
    const usage = invalid ? refusedUsage() : pricer.price(segments, { at, model, cacheKey: `replay:${a.engineId}`, outputTokens: outputTokens(s, tokenizer) });
    const headText = segmentsText(head);
    const headBytes = utf8Length(headText);
    const text = headText + built.text;
    const promptBytes = utf8Length(text);
    const previous = a.previousText;
    if (!invalid) a.previousText = text;
    const reusedBytes = previous === undefined ? 0 : commonPrefixBytes(previous, text);
    const inner = engineLayerEnds(built.prompt, promptBytes - headBytes);
    const ends: LayerEnds = { l0: inner.l0 + headBytes, static: inner.static + headBytes, l2: inner.l2 + headBytes, total: promptBytes };
    const breakKind = a.previousEnds === undefined ? undefined : reuseBreak(reusedBytes, a.previousEnds, ends);
    if (!invalid) a.previousEnds = ends;
    const needed = recall.at(index, key, text);
    const started = builds.filter((b) => b.started);
    const m: StepMetrics = {
      index,
      step: s.step,
      ...(key !== undefined ? { agentId: key } : {}),
      ...(s.usage?.call ? { call: s.usage.call } : {}),
      at,
      promptTokens: usage.promptTokens,
      prefixTokens: sizeOfHead(head),
      engineTokens: generationTokens(built.generation),
      layers: { ...built.generation.layerTokens },
      promptBytes,
      reusedBytes,
      prefixReuse: reuseRatio(reusedBytes, promptBytes),
      input: usage.input,
      cacheRead: usage.cacheRead,
      cacheWrite: usage.cacheWrite,
      cacheWrite1h: usage.cacheWriteByTtl['1h'],
      output: usage.output,
      ...needed,
      toolResults: rendered.results,
      orphanedToolResults: rendered.orphans,
      generation: built.generation.number,
      refreshes: started.filter((b) => b.generation.boundary.kind === 'refresh').length,
      limitRefreshes,
      // The engine packs in its own tokens; the priced prompt is in the provider's (`[replay-token-scale]`).
      overBudget: generationTokens(built.generation) > budget,
      recordedOverWindow,
      overheadMs,
      tokenizeMs,
    };
    if (needed.references > 0) m.neededReferenceRecall = needed.referencesHeld / needed.references;
    if (breakKind !== undefined) m.reuseBreak = breakKind;
    const last = started.at(-1);
    if (last) {
      m.boundary = last.generation.boundary.kind;
      m.boundaryReason = last.generation.boundary.reason;
    }
    steps.push(invalid ? refusedStep(m, invalid) : m);
  };
  const sizeOfHead = (head: readonly RequestSegment[]) => head.reduce((n, seg) => n + pricer.segment(seg).tokens, 0);

  const repairs = walkTrace(events, {
    step: runStep,
    prefix: (e, key) => {
      agentOf(key).prefix.recorded = { system: e.system, tools: e.tools };
    },
    instructions: (text, _role, _i, key) => {
      const a = agentOf(key);
      if (!a.historyStarted) a.prefix.instructions.push(text);
    },
    userInput: (text, i, at, key) => {
      const a = agentOf(key);
      add(a, userInputItem(text, i, !a.objectiveSeen, budget, ctx(a, at)));
      a.objectiveSeen = true;
      a.latestInput = text;
    },
    context: (e, i, at, key) => {
      const a = agentOf(key);
      add(a, contextItem(e.text, e.kind, i, ctx(a, at)));
    },
    assistantText: (text, step, k, at, key) => {
      const a = agentOf(key);
      add(a, assistantTextItem(text, step, k, ctx(a, at)));
    },
    toolResult: (call, result, at, key) => {
      const a = agentOf(key);
      add(a, toolItem(call, result, ctx(a, at)));
    },
    compaction: (e, i, at, key) => {
      const a = agentOf(key);
      if (e.summary !== undefined && e.summary.trim() !== '') add(a, compactionItem(e.summary, i, ctx(a, at)));
    },
  });
  const replayed = [...agents.keys()].map((key) => ({ agentId: key ?? null, ...(roles.get(key) ?? { role: 'worker' as const, why: 'no role recorded' }) }));
  const result: ReplayResult = { strategy, budget, provider, model, modelSource: modelSourceOf(events, options.model), cacheTtl, steps, totals: replayTotals(steps, model), repairs, prefix: prefix.summary, agents: replayed };
  if (options.capture) result.capture = { generations: engine.generations(REPLAY_AGENT_ID), prompt: engine.lastPromptParts(REPLAY_AGENT_ID) ?? null };
  return result;
}
