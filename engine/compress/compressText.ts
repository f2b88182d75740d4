import { fitPrefix, type CountTokens } from './clipHeadTail';
import { extractSignals, SIGNAL_KINDS, signalKindsOf, type SignalKind } from './extractSignals';

/** A compressed text: `tokens` is `countTokens(text)`; `lossy` is false only for an unchanged text. */
export interface Compressed {
  text: string;
  tokens: number;
  lossy: boolean;
}

/** The line that stands for each run of omitted lines, with the run's size. */
const omissionMarker = (lines: number, tokens: number) => `[… ${lines} lines / ~${tokens} tokens omitted by compression …]`;

/** Rounds in which each signal kind gets one more of its newest lines, so one noisy kind (200 FAIL lines) cannot starve the rest. */
const QUOTA = 3;
/** At most this many entries on the synthetic `paths:` and `symbols:` lines. */
const MAX_NAMES = 40;
const HEAD_SHARE = 0.6;

type Step = { line: number } | { list: 'paths' | 'symbols' };

/**
 * Compress `text` to at most `targetTokens` by section extraction (spec "Compression"): not a
 * summary, a selection. Kept, in priority order and while they fit: the heading (first non-blank
 * line), failure, decision, constraint, verification and risk lines (in rounds, newest first, so
 * every kind is represented before one gets more), a `paths:` and a `symbols:` line (appended
 * last) naming the exact paths and symbols, then head and tail lines (about 60/40). Each omitted
 * run becomes one {@link omissionMarker} line, unless the run costs no more than its marker, in
 * which case it is kept.
 *
 * Invariants: `tokens <= targetTokens` (when `targetTokens >= countTokens('')`); deterministic;
 * never invents text: every other line is a verbatim input line, and when not even a marker fits
 * the result is the longest fitting prefix of the input. Unchanged, `lossy: false`, if it fits.
 */
export function compressText(text: string, targetTokens: number, countTokens: CountTokens): Compressed {
  const total = countTokens(text);
  if (total <= targetTokens) return { text, tokens: total, lossy: false };

  const lines = text.split('\n');
  const n = lines.length;
  const cost = lines.map((l) => countTokens(`${l}\n`));
  const keep = lines.map(() => false);
  const markerCost = countTokens(`${omissionMarker(n, total)}\n`);
  const steps: Step[] = [];
  let used = markerCost;

  const omitted = (i: number) => i >= 0 && i < n && !keep[i];
  const take = (i: number): boolean => {
    if (keep[i]) return true;
    const left = omitted(i - 1);
    const right = omitted(i + 1);
    const delta = (cost[i] ?? 0) + (left && right ? markerCost : !left && !right ? -markerCost : 0);
    if (used + delta > targetTokens) return false;
    keep[i] = true;
    used += delta;
    steps.push({ line: i });
    return true;
  };

  const heading = lines.findIndex((l) => l.trim() !== '');
  if (heading >= 0) take(heading);

  const byKind = new Map<SignalKind, number[]>(SIGNAL_KINDS.map((k) => [k, []]));
  const seen = new Set<string>();
  lines.forEach((line, i) => {
    const unit = line.trim();
    if (!unit || seen.has(unit)) return;
    seen.add(unit);
    const kind = signalKindsOf(unit)[0];
    if (kind) byKind.get(kind)?.push(i);
  });
  // Breadth first: round r offers each kind its r-th newest line (the end of a log holds its
  // outcome), so every kind is represented before any kind gets more.
  for (let r = 1; r <= QUOTA; r++) {
    for (const kind of SIGNAL_KINDS) {
      const list = byKind.get(kind) ?? [];
      const i = list[list.length - r];
      if (i !== undefined) take(i);
    }
  }
  for (const kind of SIGNAL_KINDS) for (const i of byKind.get(kind) ?? []) take(i);

  /** A run of omitted lines cheaper than its marker is kept instead: more text for fewer tokens. */
  const fillCheapGaps = () => {
    for (let i = 0; i < n; ) {
      let j = i;
      while (j < n && !keep[j]) j++;
      const gap = cost.slice(i, j).reduce((a, b) => a + b, 0);
      if (j > i && gap <= markerCost) {
        for (let k = i; k < j; k++) {
          keep[k] = true;
          steps.push({ line: k });
        }
        used += gap - markerCost;
      }
      i = Math.max(j, i + 1);
    }
  };
  fillCheapGaps();

  const signals = extractSignals(text);
  const listed = { paths: [] as string[], symbols: [] as string[] };
  const listLine = (list: 'paths' | 'symbols') => `${list}: ${listed[list].join(', ')}`;
  for (const list of ['paths', 'symbols'] as const) {
    for (const name of signals[list].slice(0, MAX_NAMES)) {
      const before = listed[list].length > 0 ? countTokens(`${listLine(list)}\n`) : 0;
      listed[list].push(name);
      const delta = countTokens(`${listLine(list)}\n`) - before;
      if (used + delta > targetTokens) {
        listed[list].pop();
        continue;
      }
      used += delta;
      steps.push({ list });
    }
  }

  let head = 0;
  let tail = n - 1;
  let headTokens = 0;
  let tailTokens = 0;
  let headOpen = true;
  let tailOpen = true;
  while ((headOpen || tailOpen) && head <= tail) {
    const headTurn = headOpen && (!tailOpen || headTokens * (1 - HEAD_SHARE) <= tailTokens * HEAD_SHARE);
    const i = headTurn ? head : tail;
    if (!take(i)) {
      if (headTurn) headOpen = false;
      else tailOpen = false;
    } else if (headTurn) {
      headTokens += cost[head++] ?? 0;
    } else {
      tailTokens += cost[tail--] ?? 0;
    }
  }

  fillCheapGaps();

  const render = (): string => {
    const out: string[] = [];
    for (let i = 0; i < n; ) {
      if (keep[i]) {
        out.push(lines[i++] ?? '');
        continue;
      }
      let j = i;
      while (j < n && !keep[j]) j++;
      out.push(omissionMarker(j - i, countTokens(lines.slice(i, j).join('\n'))));
      i = j;
    }
    for (const list of ['paths', 'symbols'] as const) if (listed[list].length > 0) out.push(listLine(list));
    return out.join('\n');
  };

  // The additive estimate above is an upper bound for common tokenizers; this check makes it exact.
  let out = render();
  let tokens = countTokens(out);
  while (tokens > targetTokens && steps.length > 0) {
    const step = steps.pop();
    if (step && 'line' in step) keep[step.line] = false;
    else if (step) listed[step.list].pop();
    out = render();
    tokens = countTokens(out);
  }
  if (tokens <= targetTokens && keep.some(Boolean)) return { text: out, tokens, lossy: true };

  const prefix = text.slice(0, fitPrefix(text, targetTokens, countTokens));
  const prefixTokens = countTokens(prefix);
  return prefixTokens <= targetTokens ? { text: prefix, tokens: prefixTokens, lossy: true } : { text: '', tokens: countTokens(''), lossy: true };
}
