/**
 * Needed-reference recall on content (`[replay-recall]`) and forced re-reads (`[replay-rereads]`)
 * for one row of a replay: at each step, which of the content references the recorded action
 * needs (`neededContent.ts`) the request the row built holds. Pure.
 *
 * A reference is HELD when at least {@link HELD_SHARE} of its distinct content lines are lines of
 * the request (`RequestLines`: normalised, JSON-escaped text read unescaped too); an edit's first
 * and last old lines may be parts of lines, so each is also held when the request text contains it
 * verbatim. Every reference weighs 1, whatever its number of lines, so a 500-line read counts as
 * much as a one-line edit. A step's recall is held / needed (undefined when it needs nothing); a
 * row reports it pooled (held / needed over all steps) and per step (the mean of the steps').
 *
 * A FORCED RE-READ is a recorded re-read (content the agent had already read, `neededContent.ts`)
 * that the row's request does not hold: the row would have made the agent read it again. A row
 * holding everything the agent saw forces none.
 */
import type { TraceEvent } from '../TraceEvent';
import { neededContent, type NeededContent } from './neededContent';
import { RequestLines } from './requestLines';
import type { AgentKey } from './walkTrace';

/** Share of a reference's content lines the request must hold. */
const HELD_SHARE = 0.8;

export interface StepRecall {
  /** Content references the recorded action needs, and how many the request holds. */
  references: number;
  referencesHeld: number;
  /** Recorded re-reads whose content the request does not hold. */
  rereadsForced: number;
}

/** Whether `request` holds `ref` (rules in the module comment); `text` is the request text `lines` indexes. */
export function holdsContent(ref: NeededContent, lines: Pick<RequestLines, 'has'>, text: string): boolean {
  const needed = Math.ceil(HELD_SHARE * ref.lines.length);
  let held = 0;
  let missed = 0;
  for (const line of ref.lines) {
    if (lines.has(line) || ref.fragments?.some((f) => f.line === line && text.includes(f.text))) held++;
    else missed++;
    if (held >= needed) return true;
    if (missed > ref.lines.length - needed) return false;
  }
  return held >= needed;
}

const NOTHING: StepRecall = { references: 0, referencesHeld: 0, rereadsForced: 0 };

/** One row's recall over a trace: call `at` with each step's request text. */
export class ContentRecall {
  readonly #steps: readonly NeededContent[][];
  readonly #requests = new Map<AgentKey, RequestLines>();

  constructor(events: readonly TraceEvent[]) {
    this.#steps = neededContent(events).steps;
  }

  /** Recall at step `index` (numbered as `walkTrace` numbers steps) of `agent`, whose request is `text`. */
  at(index: number, agent: AgentKey, text: string): StepRecall {
    const refs = this.#steps[index] ?? [];
    if (refs.length === 0) return NOTHING;
    let lines = this.#requests.get(agent);
    if (!lines) {
      lines = new RequestLines();
      this.#requests.set(agent, lines);
    }
    lines.update(text);
    let held = 0;
    let forced = 0;
    for (const ref of refs) {
      const h = holdsContent(ref, lines, text);
      if (h) held++;
      else if (ref.reread) forced++;
    }
    return { references: refs.length, referencesHeld: held, rereadsForced: forced };
  }
}
