import type { PoolIndex } from './PoolIndex';
import type { PreparedQuery, ScoreParts } from './score';
import { KIND_CODES } from './PoolIndex';
import { RECENCY_RATE, roleAffinity, scoreWeights as w } from './score';
import { dirOf } from './terms';

/**
 * Score every slot of the index against the query (`[score-fresh]`): the same formula and the
 * same floating-point order as `scoreItem`, computed from postings and columns instead of text,
 * so a 100k-item pool scores in milliseconds. Removed slots score NaN.
 */
export interface IndexScores {
  /** Score per slot (NaN for removed slots); valid until the index scores again. */
  scores: Float64Array;
  /**
   * The parts of a slot's score, equal to `scoreItem(item, q).parts` (for the inspector's "why").
   * Valid until the index scores again (it reads the index's working arrays).
   */
  parts(slot: number): ScoreParts;
}

export function scoreAll(index: PoolIndex, q: PreparedQuery): IndexScores {
  const n = index.arrivals;
  const r = q.request;
  const keywordHits = countHits(index.termPostings, q.keywordTerms, index.scratch('kw', n, (k) => new Uint32Array(k)));
  const failureHits = countHits(index.termPostings, q.failureTerms, index.scratch('fail', n, (k) => new Uint32Array(k)));

  const files = index.scratch('files', n, (k) => new Float64Array(k));
  if (r.files.length > 0) {
    const stamp = index.scratch('stamp', n, (k) => new Int32Array(k));
    r.files.forEach((f, k) => {
      for (const slot of index.filePostings.get(f) ?? []) {
        files[slot] = (files[slot] as number) + 1;
        stamp[slot] = k + 1;
      }
      const d = dirOf(f);
      if (!d) return;
      for (const slot of index.dirPostings.get(d) ?? []) {
        if (stamp[slot] !== k + 1) files[slot] = (files[slot] as number) + 0.4;
      }
    });
  }
  const symbols = index.scratch('symbols', n, (k) => new Float64Array(k));
  for (const s of r.symbols) for (const slot of index.symbolPostings.get(s) ?? []) symbols[slot] = (symbols[slot] as number) + 1;

  const roleRow = roleAffinity[r.role];
  const affinity = Float64Array.from(KIND_CODES, (k) => roleRow?.[k] ?? 0.5);
  const kq = q.keywordTerms.size;
  const fq = q.failureTerms.size;
  const nf = r.files.length;
  const ns = r.symbols.length;
  const task = index.codeIfKnown(r.taskId);
  const phase = index.codeIfKnown(r.phase);
  const { at, confidence, prior, durability, alive, kind, hasFiles, hasSymbols } = index;
  const taskCol = index.task.data;
  const phaseCol = index.phase.data;
  const parts = (slot: number): ScoreParts => {
    const ph = phaseCol[slot] as number;
    return {
      keywords: kq === 0 ? 0 : (keywordHits[slot] as number) / kq,
      files: nf > 0 && hasFiles.data[slot] === 1 ? (files[slot] as number) / nf : 0,
      symbols: ns > 0 && hasSymbols.data[slot] === 1 ? (symbols[slot] as number) / ns : 0,
      recency: Math.exp(-Math.max(0, r.now - (at.data[slot] as number)) * RECENCY_RATE),
      confidence: confidence.data[slot] as number,
      durability: durability.data[slot] as number,
      role: affinity[kind.data[slot] as number] as number,
      phase: ph === -1 ? 0.5 : ph === phase ? 1 : 0,
      failures: fq === 0 ? 0 : (failureHits[slot] as number) / fq,
      task: (taskCol[slot] as number) === task ? 1 : 0,
      prior: prior.data[slot] as number,
    };
  };
  const scores = index.scratch('scores', n, (k) => new Float64Array(k));
  for (let slot = 0; slot < n; slot++) {
    if (alive.data[slot] === 0) {
      scores[slot] = Number.NaN;
      continue;
    }
    // The same sum, in the same order, as scoreItem: inlined because it runs for every slot.
    const ph = phaseCol[slot] as number;
    let score = 0;
    score += w.keywords * (kq === 0 ? 0 : (keywordHits[slot] as number) / kq);
    score += w.files * (nf > 0 && hasFiles.data[slot] === 1 ? (files[slot] as number) / nf : 0);
    score += w.symbols * (ns > 0 && hasSymbols.data[slot] === 1 ? (symbols[slot] as number) / ns : 0);
    score += w.recency * Math.exp(-Math.max(0, r.now - (at.data[slot] as number)) * RECENCY_RATE);
    score += w.confidence * (confidence.data[slot] as number);
    score += w.durability * (durability.data[slot] as number);
    score += w.role * (affinity[kind.data[slot] as number] as number);
    score += w.phase * (ph === -1 ? 0.5 : ph === phase ? 1 : 0);
    score += w.failures * (fq === 0 ? 0 : (failureHits[slot] as number) / fq);
    score += w.task * ((taskCol[slot] as number) === task ? 1 : 0);
    score += w.prior * (prior.data[slot] as number);
    scores[slot] = score;
  }
  return { scores, parts };
}

function countHits(postings: Map<string, number[]>, query: ReadonlySet<string>, hits: Uint32Array): Uint32Array {
  for (const t of query) for (const slot of postings.get(t) ?? []) hits[slot] = (hits[slot] as number) + 1;
  return hits;
}
