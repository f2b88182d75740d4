/**
 * What the recording agent's provider actually billed (`[replay-truth]`), from the trace's usage
 * events, and how far the cache model's pricing of a baseline is from it
 * (`[replay-model-accuracy]`). Every agent of the trace (main and subagents), one usage per step
 * (its last). Pure.
 */
import { cacheHitRate, cacheHitRateOfPrompt } from '../../metrics/cacheHitRate';
import { priceRun, type CostUsd, type RunCost } from '../../pricing/costUsd';
import type { CacheProvider } from '../../providers/cacheModel';
import type { TraceEvent } from '../TraceEvent';
import { recordedRereads } from './neededContent';
import type { ModelAccuracy, RecordedStep, RecordedSummary, RecordedTruth, StepAccuracy } from './recordedTypes';
import type { ReplayResult } from './ReplayTypes';

export type { ModelAccuracy, RecordedSummary, RecordedTruth };
import { recordedPrompt, traceSteps } from '../traceSteps';

export function recordedTruth(events: readonly TraceEvent[]): RecordedTruth {
  const steps = traceSteps(events);
  const perStep: RecordedStep[] = steps.flatMap((s) =>
    s.usage ? [{ step: s.step, ...(s.agentId !== undefined ? { agentId: s.agentId } : {}), input: s.usage.input, cacheRead: s.usage.cacheRead, cacheWrite: s.usage.cacheWrite, cacheWrite1h: s.usage.cacheWrite1h ?? 0, output: s.usage.output, prompt: recordedPrompt(s.usage), ...(s.at !== undefined ? { at: s.at } : {}) }] : [],
  );
  const sum = (pick: (r: RecordedStep) => number) => perStep.reduce((n, r) => n + pick(r), 0);
  const input = sum((r) => r.input);
  const cacheRead = sum((r) => r.cacheRead);
  const cacheWrite = sum((r) => r.cacheWrite);
  const model = steps.find((s) => s.usage?.model)?.usage?.model;
  const { usd, ...pricing } = model ? priceRun(model, perStep.map((r) => ({ ...r, promptTokens: r.prompt }))) : { usd: null, model: '', note: 'the recording names no model to price', callsOverStandardRate: 0 };
  return {
    steps: steps.length,
    callsWithUsage: perStep.length,
    promptTokens: input + cacheRead + cacheWrite,
    input,
    cacheRead,
    cacheWrite,
    cacheWrite1h: sum((r) => r.cacheWrite1h),
    output: sum((r) => r.output),
    hitRate: cacheHitRate({ input, cacheRead, cacheWrite }),
    ...(model ? { model } : {}),
    costUsd: usd,
    pricing,
    perStep,
  };
}

const relative = (model: number, recorded: number) => (recorded === 0 ? undefined : (model - recorded) / recorded);
const meanAbs = (xs: (number | undefined)[]) => {
  const d = xs.filter((x): x is number => x !== undefined);
  return d.length === 0 ? undefined : d.reduce((a, b) => a + Math.abs(b), 0) / d.length;
};

/** The cache model's error against the recorded usage, step by step (aligned on the trace's step numbers) and in total. */
export function modelAccuracy(recorded: RecordedTruth, replay: ReplayResult): ModelAccuracy {
  const key = (s: { step: number; agentId?: string }) => `${s.agentId ?? ''}\0${s.step}`;
  const byStep = new Map(replay.steps.map((s) => [key(s), s]));
  const perStep: StepAccuracy[] = [];
  for (const r of recorded.perStep) {
    const m = byStep.get(key(r));
    if (!m) continue;
    const a: StepAccuracy = {
      step: r.step,
      ...(r.agentId !== undefined ? { agentId: r.agentId } : {}),
      recordedPrompt: r.prompt,
      modelPrompt: m.promptTokens,
      recordedCacheRead: r.cacheRead,
      modelCacheRead: m.cacheRead,
      hitRateDelta: cacheHitRate(m) - cacheHitRate(r),
    };
    const pe = relative(m.promptTokens, r.prompt);
    const ce = relative(m.cacheRead, r.cacheRead);
    if (pe !== undefined) a.promptError = pe;
    if (ce !== undefined) a.cacheReadError = ce;
    perStep.push(a);
  }
  const sum = (pick: (a: StepAccuracy) => number) => perStep.reduce((n, a) => n + pick(a), 0);
  const recordedPromptSum = sum((a) => a.recordedPrompt);
  const modelPromptSum = sum((a) => a.modelPrompt);
  const recordedReadSum = sum((a) => a.recordedCacheRead);
  const modelReadSum = sum((a) => a.modelCacheRead);
  const out: ModelAccuracy = {
    matched: perStep.length,
    perStep,
    recordedHitRate: cacheHitRateOfPrompt(recordedReadSum, recordedPromptSum),
    modelHitRate: cacheHitRateOfPrompt(modelReadSum, modelPromptSum),
    recordedPrompt: recordedPromptSum,
    modelPrompt: modelPromptSum,
    recordedCacheRead: recordedReadSum,
    modelCacheRead: modelReadSum,
  };
  const pe = relative(modelPromptSum, recordedPromptSum);
  const ce = relative(modelReadSum, recordedReadSum);
  const mp = meanAbs(perStep.map((a) => a.promptError));
  const mc = meanAbs(perStep.map((a) => a.cacheReadError));
  if (pe !== undefined) out.promptError = pe;
  if (ce !== undefined) out.cacheReadError = ce;
  if (mp !== undefined) out.meanAbsPromptError = mp;
  if (mc !== undefined) out.meanAbsCacheReadError = mc;
  return out;
}

/**
 * The summary to attach to `replay`. For a baseline, the accuracy is measured on `reference`: the
 * same baseline priced by the recording's own provider's cache model when the run priced it by
 * another (a Codex session in a comparison priced as Anthropic), since only that model billed the
 * recording.
 */
export function recordedSummary(events: readonly TraceEvent[], replay: ReplayResult, reference: ReplayResult = replay): RecordedSummary | undefined {
  const truth = recordedTruth(events);
  if (truth.callsWithUsage === 0) return undefined;
  const { perStep: _steps, ...usage } = truth;
  const totals = { ...usage, rereads: recordedRereads(events) };
  const isBaseline = (r: ReplayResult) => r.strategy === 'full_history_baseline' || r.strategy === 'as_recorded';
  if (!isBaseline(replay) || reference.strategy !== replay.strategy) return totals;
  const { perStep: _accuracySteps, ...accuracy } = modelAccuracy(truth, reference);
  return { ...totals, accuracy: { ...accuracy, provider: reference.provider } };
}
