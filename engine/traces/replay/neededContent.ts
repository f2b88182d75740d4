/**
 * What each recorded step's action needs (`[replay-recall]`) and which of its reads are re-reads
 * (`[replay-rereads]`), computed once per trace from the recording (every agent, steps numbered as
 * `walkTrace` numbers them). Pure; memoised per events array, since every row of a trace asks.
 *
 * A step's CONTENT REFERENCES, each a set of content lines (`contentLines`):
 * - a READ (a call `classifyToolCall` classes `read`, whose recorded result is not an error): the
 *   content lines its result returned. The result arrives after the step's request, so a read is
 *   held only when an earlier observation (an earlier read, search, edit or anything else in the
 *   request) already holds those lines;
 * - an EDIT (class `edit`): its old side, the lines it replaces (`editOldSide.ts`). Writing a
 *   whole file, or an empty old side, needs nothing;
 * - a FAILURE it cites (`citedFailures.ts`): per earlier failing result of the same agent (the
 *   newest {@link FAILURES_KEPT}), the failure lines the action cites;
 * - a path or symbol named with no content to compare (an `ls`, a search, a new file, a name in the
 *   text) is not a reference: neither needed nor held.
 * A reference with no content line (a result of only `}` lines, frame lines or nothing) is none;
 * references with the same lines in one step count once.
 *
 * A read is a RE-READ when the same agent read the same target before (`readTargets.ts`: the
 * file, a range covering this one), has not edited that file since (a read after its own edit
 * reads changed content), and had already seen what it returned: at least {@link SEEN_SHARE} of its
 * content lines were in what the agent was shown or wrote before the step (user input, injected
 * context, tool results, compaction summaries, its own text and call arguments), so a log that
 * grew is read afresh. A re-read whose result has no content line (an empty file, a client's
 * "unchanged" stub) counts on the target alone. Reads whose result is an error are not reads.
 */
import type { TraceEvent } from '../TraceEvent';
import { actionWords, citedLines, failureLines, isFailingResult, type FailureLine } from './citedFailures';
import { classifyToolCall } from './classifyToolCall';
import { contentLines } from './contentLines';
import { editOldSide } from './editOldSide';
import { covers, editedFiles, readTarget, redirectedFiles, writesInstead, type LineRange } from './readTargets';
import type { TraceStep } from '../traceSteps';
import { walkTrace, type AgentKey } from './walkTrace';
import { parsedArguments } from '../jsonText';

/** Earlier failing results of an agent an action may cite. */
const FAILURES_KEPT = 20;
/** Share of a re-read's content lines the agent must have seen before. */
const SEEN_SHARE = 0.8;

export interface NeededContent {
  kind: 'read' | 'edit' | 'failure';
  /** Distinct content lines, normalised (`contentLines`). */
  lines: string[];
  /**
   * An edit's first and last old lines as written (trimmed), which may be parts of lines: such a
   * line is also held when the request text contains it verbatim.
   */
  fragments?: { line: string; text: string }[];
  /** A read that re-reads what the same agent read before. */
  reread?: true;
}

export interface TraceNeeds {
  /** Per step index, the step's content references. */
  steps: NeededContent[][];
  /** Re-reads of every agent (with content lines or not). */
  rereads: number;
}

const parsed = parsedArguments;

interface Observed {
  s: TraceStep;
  agent: AgentKey;
  /** How many failing results the agent had seen when the step's request was sent. */
  failuresSeen: number;
  /** The observation counter then (`Seen`). */
  seq: number;
}

/** When each content line first reached an agent (an observation counter), to tell what it had seen before a step. */
class Seen {
  readonly #first = new Map<AgentKey, Map<string, number>>();
  seq = 0;

  add(agent: AgentKey, text: string): void {
    let m = this.#first.get(agent);
    if (!m) {
      m = new Map();
      this.#first.set(agent, m);
    }
    this.seq++;
    for (const line of contentLines(text)) if (!m.has(line)) m.set(line, this.seq);
  }

  /** Whether `agent` had seen at least `share` of `lines` by observation `seq`. */
  before(agent: AgentKey, lines: readonly string[], seq: number, share: number): boolean {
    const m = this.#first.get(agent);
    const seen = lines.filter((l) => (m?.get(l) ?? Infinity) <= seq).length;
    return seen >= Math.ceil(share * lines.length);
  }
}

/** Every string of a call's arguments (what the agent wrote, old and new content alike). */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (typeof value === 'object' && value !== null) for (const v of Object.values(value)) strings(v, out);
  return out;
}

function compute(events: readonly TraceEvent[]): TraceNeeds {
  const observed: Observed[] = [];
  const results = new Map<string, { content: string; isError: boolean }>();
  const failures = new Map<AgentKey, FailureLine[][]>();
  const seen = new Seen();
  walkTrace(events, {
    step: (s, index, _at, agent) => {
      observed[index] = { s, agent, failuresSeen: failures.get(agent)?.length ?? 0, seq: seen.seq };
      for (const c of s.calls) for (const text of strings(parsed(c.arguments))) seen.add(agent, text);
    },
    userInput: (text, _i, _at, agent) => seen.add(agent, text),
    context: (e, _i, _at, agent) => seen.add(agent, e.text),
    assistantText: (text, _step, _k, _at, agent) => seen.add(agent, text),
    compaction: (e, _i, _at, agent) => seen.add(agent, e.summary ?? ''),
    toolResult: (call, result, _at, agent) => {
      results.set(call.callId, result);
      seen.add(agent, result.content);
      if (!isFailingResult(classifyToolCall(call.name, call.arguments).kind, result.content, result.isError)) return;
      const lines = failureLines(result.content);
      if (lines.length === 0) return;
      const list = failures.get(agent) ?? [];
      list.push(lines);
      failures.set(agent, list);
    },
  });
  const reads = new Map<AgentKey, Map<string, LineRange[]>>();
  let rereads = 0;
  const steps = observed.map(({ s, agent, failuresSeen, seq }) => {
    const out: NeededContent[] = [];
    const done = reads.get(agent) ?? new Map<string, LineRange[]>();
    reads.set(agent, done);
    for (const c of s.calls) {
      const result = results.get(c.callId);
      const info = classifyToolCall(c.name, c.arguments);
      if (info.kind === 'read' && writesInstead(info)) {
        for (const f of redirectedFiles(info.command as string)) done.delete(f);
      } else if (info.kind === 'read') {
        if (!result || result.isError) continue;
        const target = readTarget(c, info);
        const before = target ? done.get(target.key) : undefined;
        const lines = contentLines(result.content);
        const reread = target !== undefined && before !== undefined && before.some((r) => covers(r, target.range)) && seen.before(agent, lines, seq, SEEN_SHARE);
        if (target) done.set(target.key, [...(before ?? []), target.range]);
        if (reread) rereads++;
        if (lines.length > 0) out.push({ kind: 'read', lines, ...(reread ? { reread: true as const } : {}) });
      } else if (info.kind === 'edit') {
        const old = editOldSide(c.arguments);
        if (old) out.push({ kind: 'edit', ...old });
        if (!result?.isError) for (const f of editedFiles(c)) done.delete(f);
      }
    }
    const earlier = (failures.get(agent) ?? []).slice(0, failuresSeen).slice(-FAILURES_KEPT);
    if (earlier.length > 0) {
      const words = actionWords(s.texts, s.calls);
      for (const f of earlier) {
        const lines = citedLines(f, words);
        if (lines.length > 0) out.push({ kind: 'failure', lines });
      }
    }
    const keys = new Set<string>();
    return out.filter((r) => {
      const k = `${r.kind}\0${r.lines.join('\n')}`;
      if (keys.has(k)) return false;
      keys.add(k);
      return true;
    });
  });
  return { steps, rereads };
}

const memo = new WeakMap<readonly TraceEvent[], TraceNeeds>();

/** The content references of every step of `events`, and its re-reads (see the module comment). */
export function neededContent(events: readonly TraceEvent[]): TraceNeeds {
  let needs = memo.get(events);
  if (!needs) {
    needs = compute(events);
    memo.set(events, needs);
  }
  return needs;
}

/** How often the recording's agents read again what they had read (`[replay-rereads]`). */
export const recordedRereads = (events: readonly TraceEvent[]): number => neededContent(events).rereads;
