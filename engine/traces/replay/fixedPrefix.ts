/**
 * The fixed prefix every row of a comparison sends (`[replay-fixed-prefix]`): what the recorded
 * agent sent before any message, the same for every strategy, peer and baseline, so that no row
 * "saves" tokens the agent had to send. Pure.
 *
 * - Recorded: the system prompt blocks and tool schemas of the trace's `prefix` events (Claude
 *   Code's `api-request-shape`), else its leading system/developer instructions.
 * - Estimated: where the recording does not hold the tool schemas (every format but current
 *   Claude Code), a calibrated stand-in block: the first call's billed prompt minus what Strata
 *   counts of that call (the recorded instructions and the history so far), never below 0. It is
 *   a segment of known tokens and no text (it adds no bytes to prefix reuse), marked estimated
 *   in every output. A trace without recorded usage has nothing to calibrate on: no stand-in.
 * - Per agent: each subagent has its own prefix and its own stand-in, calibrated on its own first
 *   call. The engine's budget is what the engine packs; the prefix is sent on top of it, for
 *   every row alike (a peer's budget likewise excludes it).
 */
import type { Tokenizer } from '../../tokens/Tokenizer';
import type { TraceEvent } from '../TraceEvent';
import type { RequestSegment } from './replayRequest';
import { CLEARING_DROP } from './clearing';
import { recordedModel } from './replayDefaults';
import { recordedPrompt } from '../traceSteps';
import { hiddenTokens, keepsReasoning, messageText, transcriptVisitor, type AgentTranscript } from './transcript';
import { walkTrace, type AgentKey } from './walkTrace';
import type { FixedPrefixSummary } from './ReplayTypes';

/** A calibrated stand-in for one agent's unrecorded prefix. */
export interface StandIn {
  agent: AgentKey;
  tokens: number;
  /** The calibrating call: its step, billed prompt and what Strata counted of it. */
  step: number;
  billed: number;
  counted: number;
}

export interface FixedPrefix {
  standIns: Map<AgentKey, StandIn>;
  tokenScale: TokenScale;
  summary: FixedPrefixSummary;
}

/**
 * The prefix texts of `t` as request segments (tools, then system blocks), then the stand-in; a
 * breakpoint after the last. `tools: false` (a compaction call that sends no tool schemas) leaves
 * out the recorded tools; pass no stand-in then either, as it stands for them.
 */
export function prefixSegments(t: AgentTranscript, standIn: StandIn | undefined, o: { tools?: boolean } = {}): RequestSegment[] {
  const { tools, system } = t.prefixTexts();
  const out: RequestSegment[] = [];
  if (tools.length > 0 && o.tools !== false) out.push({ text: tools.join('\n'), breakpoint: false });
  for (const s of system) out.push({ text: s, breakpoint: false });
  if (standIn && standIn.tokens > 0) out.push({ text: `[fixed prefix not recorded: ${standIn.tokens} tokens estimated]`, tokens: standIn.tokens, breakpoint: false });
  const last = out.at(-1);
  if (last) last.breakpoint = true;
  return out;
}

/** The text of `segments` that is really text (a stand-in's naming text excluded), for bytes and reuse. */
export function segmentsText(segments: readonly RequestSegment[]): string {
  return segments.map((s) => (s.tokens === undefined ? s.text : '')).join('');
}

const fmt = (n: number) => n.toLocaleString('en-US');

/** How many provider tokens one Strata-counted token is, fitted on the recording's own usage. */
interface TokenScale {
  value: number;
  /** Call-to-call growths the fit could use, and the first of them it used. */
  pairs: number;
  fitted: number;
  note: string;
}

/** Growth pairs the scale is fitted on: the first quarter of them, at least this many. */
const MIN_FIT_PAIRS = 5;
/** Counted growth the fit needs: below it, per-message framing (role lines, call ids) would decide the scale. */
const MIN_FIT_GROWTH = 5000;
const SCALE_LIMITS = { min: 0.5, max: 2 } as const;

interface Observed {
  agent: AgentKey;
  step: number;
  billed: number;
  counted: number;
  hidden: number;
  compactions: number;
  compaction: boolean;
}

/**
 * The token scale (`[replay-token-scale]`): Strata counts with its own tokenizer (o200k), the
 * provider billed with its own, and they differ by content (Claude's tokenizer gives more tokens
 * for the same code). From consecutive calls of one agent with no compaction or clearing between,
 * the billed growth (less the hidden reasoning added) over Strata's counted growth, summed over
 * the first quarter of such pairs (at least 5, and more until they grew by 5,000 counted tokens),
 * is how many billed tokens one counted token is. 1 when the trace records no usage or grows too
 * little to tell; clamped to 0.5–2.
 */
function fitScale(observed: readonly Observed[]): TokenScale {
  const previous = new Map<AgentKey, Observed>();
  const pairs: { billed: number; counted: number }[] = [];
  for (const o of observed) {
    const p = previous.get(o.agent);
    previous.set(o.agent, o);
    if (!p || o.compaction || p.compactions !== o.compactions || o.billed < p.billed * CLEARING_DROP) continue;
    const counted = o.counted - p.counted;
    const billed = o.billed - p.billed - (o.hidden - p.hidden);
    if (counted > 0 && billed > 0) pairs.push({ billed, counted });
  }
  // The first quarter of the pairs (at least 5), extended until their counted growth is enough to tell a scale from message framing.
  let fitted = Math.min(pairs.length, Math.max(MIN_FIT_PAIRS, Math.ceil(pairs.length / 4)));
  while (fitted < pairs.length && pairs.slice(0, fitted).reduce((n, p) => n + p.counted, 0) < MIN_FIT_GROWTH) fitted++;
  const use = pairs.slice(0, fitted);
  const growth = use.reduce((n, p) => n + p.counted, 0);
  if (growth < MIN_FIT_GROWTH) return { value: 1, pairs: pairs.length, fitted: 0, note: `token scale 1 (the recording grew by ${fmt(growth)} counted tokens between calls, too little to fit on)` };
  const raw = use.reduce((n, p) => n + p.billed, 0) / use.reduce((n, p) => n + p.counted, 0);
  const value = Math.min(SCALE_LIMITS.max, Math.max(SCALE_LIMITS.min, raw));
  return { value, pairs: pairs.length, fitted, note: `token scale ${value.toFixed(3)}${value !== raw ? ` (clamped from ${raw.toFixed(3)})` : ''} fitted on the first ${fitted} of ${pairs.length} call-to-call growths` };
}

/** Calibrates the token scale and the stand-ins of `events` (see the module comment). */
export function fixedPrefix(events: readonly TraceEvent[], tokenizer: Tokenizer): FixedPrefix {
  const transcripts = new Map<AgentKey, AgentTranscript>();
  const count = (segments: readonly RequestSegment[]) => segments.reduce((n, s) => n + (s.tokens ?? tokenizer.count(s.text)), 0);
  const observed: Observed[] = [];
  const first = new Map<AgentKey, Observed & { recordedTools: boolean }>();
  let mainPrefixTokens: number | undefined;
  const hidden = keepsReasoning(recordedModel(events));
  walkTrace(
    events,
    transcriptVisitor(
      events,
      'as_recorded',
      {
        ...(hidden ? { hidden: (s) => hiddenTokens(s, (x) => tokenizer.count(x)) } : {}),
        step: (t, s) => {
          if (t.agent === undefined && mainPrefixTokens === undefined) mainPrefixTokens = count(prefixSegments(t, undefined));
          if (!s.usage) return;
          const o: Observed = {
            agent: t.agent,
            step: s.step,
            billed: recordedPrompt(s.usage),
            counted: count(prefixSegments(t, undefined)) + t.history.reduce((n, h) => n + tokenizer.count(messageText(h.message)), 0),
            hidden: t.history.reduce((n, h) => n + (h.hidden ?? 0), 0),
            compactions: t.compactions,
            compaction: s.usage.call === 'compaction',
          };
          observed.push(o);
          if (!first.has(t.agent) && !o.compaction) first.set(t.agent, { ...o, recordedTools: (t.recorded?.tools.length ?? 0) > 0 });
        },
      },
      transcripts,
    ),
  );
  const scale = fitScale(observed);
  const standIns = new Map<AgentKey, StandIn>();
  for (const o of first.values()) {
    if (o.recordedTools) continue;
    const counted = Math.round(o.counted * scale.value) + o.hidden;
    standIns.set(o.agent, { agent: o.agent, tokens: Math.max(0, o.billed - counted), step: o.step, billed: o.billed, counted });
  }
  const main = transcripts.get(undefined);
  const mainStandIn = standIns.get(undefined);
  const source: FixedPrefixSummary['source'] = main?.recorded ? 'recorded' : main && main.instructions.length > 0 ? 'instructions' : 'none';
  const estimated = [...standIns.values()].some((s) => s.tokens > 0);
  const recordedTokens = mainPrefixTokens ?? 0;
  const what = source === 'recorded' ? `system prompt and tool schemas as recorded (${fmt(recordedTokens)} tokens)` : source === 'instructions' ? `recorded instructions (${fmt(recordedTokens)} tokens)` : 'nothing recorded';
  const prefixNote = mainStandIn
    ? `${what}; estimated stand-in ${fmt(mainStandIn.tokens)} tokens (first call billed ${fmt(mainStandIn.billed)} − counted ${fmt(mainStandIn.counted)})`
    : source === 'recorded' || observed.length > 0
      ? what
      : `${what}; no recorded usage to calibrate a stand-in on`;
  return { standIns, tokenScale: scale, summary: { source, recordedTokens, estimatedTokens: mainStandIn?.tokens ?? 0, estimated, tokenScale: scale.value, note: `${prefixNote}; ${scale.note}` } };
}
