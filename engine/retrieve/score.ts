import type { AgentRole } from '../contract';
import type { ContextItem, Durability, ItemKind } from '../items/ContextItem';
import type { RetrieveRequest } from './RetrieveRequest';
import { dirOf, overlap, terms } from './terms';

/** Each factor of a score, 0..1, kept so the inspector can say why an item ranked where it did. */
export interface ScoreParts {
  keywords: number;
  files: number;
  symbols: number;
  recency: number;
  confidence: number;
  durability: number;
  role: number;
  phase: number;
  failures: number;
  task: number;
  /** The producer's own relevance estimate (provenance.relevance). */
  prior: number;
}

/** Weights of the factors; they sum to 1 so a score stays in 0..1. */
export const scoreWeights: Readonly<ScoreParts> = {
  keywords: 0.18,
  files: 0.16,
  symbols: 0.12,
  recency: 0.1,
  confidence: 0.08,
  durability: 0.06,
  role: 0.08,
  phase: 0.06,
  failures: 0.06,
  task: 0.06,
  prior: 0.04,
};

/** Half-life of recency: an item an hour old scores half of a fresh one. */
export const RECENCY_HALF_LIFE_MS = 60 * 60 * 1000;
/** 0.5^(age / half-life) = e^(-age * ln 2 / half-life); `exp` is several times faster than `pow`. */
export const RECENCY_RATE = Math.LN2 / RECENCY_HALF_LIFE_MS;

export const durabilityScore: Record<Durability, number> = { transient: 0.1, phase: 0.4, task: 0.7, project: 1 };

/** How much each role wants each kind (missing: 0.5). Probes want code; reviewers want evidence. */
export const roleAffinity: Partial<Record<AgentRole, Partial<Record<ItemKind, number>>>> = {
  primary: { report: 1, decision: 0.9, finding: 0.8, code: 0.3, tool_output: 0.1, transcript: 0.1 },
  worker: { code: 1, failure: 0.9, finding: 0.8, report: 0.5 },
  debug: { failure: 1, code: 0.9, finding: 0.8, tool_output: 0.6 },
  integration: { code: 0.9, failure: 0.9, report: 0.7 },
  probe: { code: 1, tool_output: 0.8, report: 0.2 },
  reviewer: { code: 0.9, finding: 1, failure: 0.8, decision: 0.9 },
  architect: { architecture: 1, decision: 1, report: 0.8, code: 0.5 },
  test: { failure: 1, code: 0.8, finding: 0.7 },
};

/** Terms of an item, cached per (immutable) item. */
const termCache = new WeakMap<ContextItem, Set<string>>();
function itemTerms(item: ContextItem): Set<string> {
  let t = termCache.get(item);
  if (!t) {
    t = terms(`${item.title}\n${item.content}`);
    termCache.set(item, t);
  }
  return t;
}

const setOverlap = (want: readonly string[], have: readonly string[]): number => {
  if (want.length === 0 || have.length === 0) return 0;
  const h = new Set(have);
  let hit = 0;
  for (const w of want) if (h.has(w)) hit++;
  return hit / want.length;
};

/** Files match exactly, or partly when they share a folder. */
function fileOverlap(want: readonly string[], have: readonly string[]): number {
  if (want.length === 0 || have.length === 0) return 0;
  const exact = new Set(have);
  const dirs = new Set(have.map(dirOf).filter(Boolean));
  let sum = 0;
  for (const w of want) sum += exact.has(w) ? 1 : dirs.has(dirOf(w)) ? 0.4 : 0;
  return sum / want.length;
}

/** The query side, prepared once per build. */
export interface PreparedQuery {
  request: RetrieveRequest;
  keywordTerms: Set<string>;
  failureTerms: Set<string>;
}

export function prepareQuery(request: RetrieveRequest): PreparedQuery {
  const keywordTerms = terms([request.task, ...request.keywords].join(' '));
  return { request, keywordTerms, failureTerms: terms(request.failures.join(' ')) };
}

/** Score one item against the query, afresh (`[score-fresh]`); deterministic. */
export function scoreItem(item: ContextItem, q: PreparedQuery): { score: number; parts: ScoreParts } {
  const r = q.request;
  const p = item.provenance;
  const t = itemTerms(item);
  const age = Math.max(0, r.now - p.at);
  const parts: ScoreParts = {
    keywords: overlap(q.keywordTerms, t),
    files: fileOverlap(r.files, p.files),
    symbols: setOverlap(r.symbols, p.symbols),
    recency: Math.exp(-age * RECENCY_RATE),
    confidence: p.confidence,
    durability: durabilityScore[p.durability],
    role: roleAffinity[r.role]?.[item.kind] ?? 0.5,
    phase: item.phase === undefined ? 0.5 : item.phase === r.phase ? 1 : 0,
    failures: overlap(q.failureTerms, t),
    task: p.taskId === r.taskId ? 1 : 0,
    prior: p.relevance,
  };
  let score = 0;
  for (const k of Object.keys(scoreWeights) as (keyof ScoreParts)[]) score += scoreWeights[k] * parts[k];
  return { score, parts };
}
