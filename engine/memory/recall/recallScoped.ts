import type { MemoryRecord } from '../MemoryRecord';
import { overlap, terms } from '../../retrieve/terms';
import { capRecall, RECALL_LIMIT } from './capRecall';
import { checkFreshness, type Freshness } from './checkFreshness';
import { renderRecalled } from './renderRecalled';
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
  skipped: { record: MemoryRecord; reason: Freshness | 'not verified' | 'over the recall cap' | 'over the limit' }[];
}

/**
 * Choose what to recall for one prompt (`[recall-scoped]`): verified entries only, most relevant
 * first (task words and files), each current in the recipient's own view, at most 4, and the
 * rendered block capped at 300 estimated tokens and 1200 bytes.
 */
export function recallScoped(records: readonly MemoryRecord[], q: RecallQuery): RecallResult {
  const skipped: RecallResult['skipped'] = [];
  const want = terms(`${q.task} ${q.files.join(' ')}`);
  const files = new Set(q.files);
  const ranked = records
    .filter((r) => {
      if (r.state === 'verified' && r.verified) return true;
      skipped.push({ record: r, reason: 'not verified' });
      return false;
    })
    .map((r) => ({ r, score: overlap(want, recordTerms(r)) + (r.evidence.paths.some((p) => files.has(p)) ? 1 : 0) }))
    .sort((a, b) => b.score - a.score || b.r.updatedAt - a.r.updatedAt || (a.r.id < b.r.id ? -1 : 1));

  const fresh: { record: MemoryRecord; text: string }[] = [];
  for (const { r } of ranked) {
    const f = checkFreshness(r, q.view, q.now);
    if (f !== 'current') skipped.push({ record: r, reason: f });
    else if (fresh.length >= RECALL_LIMIT) skipped.push({ record: r, reason: 'over the limit' });
    else fresh.push({ record: r, text: renderRecalled(r) });
  }
  const recalled = capRecall(fresh);
  for (const e of fresh) if (!recalled.includes(e)) skipped.push({ record: e.record, reason: 'over the recall cap' });
  return { recalled, skipped };
}
