import type { MemoryRecord } from '../MemoryRecord';
import { overlap, terms } from '../../retrieve/terms';
import { capRecall, RECALL_LIMIT } from './capRecall';
import { checkFreshness, type Freshness } from './checkFreshness';
import { observedDay, renderRecalled } from './renderRecalled';
import type { WorktreeView } from './WorktreeView';

/** Search terms of a record, computed once per record value (records are immutable per revision). */
const termsOf = new WeakMap<MemoryRecord, Set<string>>();
function recordTerms(r: MemoryRecord): Set<string> {
  let t = termsOf.get(r);
  if (!t) {
    t = terms(`${r.title} ${r.body} ${r.evidence.paths.join(' ')}`);
    termsOf.set(r, t);
  }
  return t;
}

interface Ranked {
  r: MemoryRecord;
  score: number;
}

export interface RecallQuery {
  task: string;
  files: readonly string[];
  view: WorktreeView;
  now: number;
}

export interface RecallResult {
  /** What enters the prompt, in order, each with its rendered text. */
  recalled: { record: MemoryRecord; text: string }[];
  /** Entries left out, with why (for the inspector and for marking stale ones). */
  skipped: { record: MemoryRecord; reason: Freshness | 'not verified' | 'date out of range' | 'over the recall cap' | 'over the limit' }[];
}

/**
 * Choose what to recall for one prompt (`[recall-scoped]`): verified entries only, most relevant
 * first (task words and files), each current in the recipient's own view, at most 4, and the
 * rendered block capped at 300 estimated tokens and 1200 bytes. An entry whose observation or
 * command time no date can show is skipped (`date out of range`), never rendered.
 */
export function recallScoped(records: readonly MemoryRecord[], q: RecallQuery): RecallResult {
  const skipped: RecallResult['skipped'] = [];
  // Entries share paths: ask the view about each path and commit once per recall.
  const hashes = new Map<string, string | undefined>();
  const ancestry = new Map<string, boolean | undefined>();
  const view: WorktreeView = {
    hashOf: (p) => (hashes.has(p) ? hashes.get(p) : (hashes.set(p, q.view.hashOf(p)), hashes.get(p))),
    descendsFrom: (c) => (ancestry.has(c) ? ancestry.get(c) : (ancestry.set(c, q.view.descendsFrom(c)), ancestry.get(c))),
  };
  // Freshness first: only entries current in this view are worth ranking (usually few).
  const current: MemoryRecord[] = [];
  for (const r of records) {
    if (r.state !== 'verified' || !r.verified) {
      skipped.push({ record: r, reason: 'not verified' });
      continue;
    }
    // A time no date can show (a row written around the intake) is left out, never a failed build.
    if (observedDay(r.provenance.observedAt) === undefined || r.evidence.commands.some((c) => observedDay(c.ranAt) === undefined)) {
      skipped.push({ record: r, reason: 'date out of range' });
      continue;
    }
    const f = checkFreshness(r, view, q.now);
    if (f === 'current') current.push(r);
    else skipped.push({ record: r, reason: f });
  }
  const want = terms(`${q.task} ${q.files.join(' ')}`);
  const files = new Set(q.files);
  // The best RECALL_LIMIT by relevance, then recency, then id (a partial selection: no full sort).
  const before = (a: Ranked, b: Ranked) => a.score > b.score || (a.score === b.score && (a.r.updatedAt > b.r.updatedAt || (a.r.updatedAt === b.r.updatedAt && a.r.id < b.r.id)));
  const top: Ranked[] = [];
  for (const r of current) {
    const entry = { r, score: overlap(want, recordTerms(r)) + (r.evidence.paths.some((p) => files.has(p)) ? 1 : 0) };
    let at = top.length;
    while (at > 0 && before(entry, top[at - 1] as Ranked)) at--;
    if (at < RECALL_LIMIT) {
      top.splice(at, 0, entry);
      if (top.length > RECALL_LIMIT) skipped.push({ record: (top.pop() as Ranked).r, reason: 'over the limit' });
    } else skipped.push({ record: r, reason: 'over the limit' });
  }
  const fresh = top.map(({ r }) => ({ record: r, text: renderRecalled(r) }));
  const recalled = capRecall(fresh);
  for (const e of fresh) if (!recalled.includes(e)) skipped.push({ record: e.record, reason: 'over the recall cap' });
  return { recalled, skipped };
}
