/**
 * Which value of a Compare column is best (issue 22 item 14): each judged column says which way is
 * better, and the best cells of a group of rows (one trace's replays, or the all-traces rows) are
 * the ones to highlight. Pure.
 */

/** `lower`: fewer tokens, dollars or failures are better; `higher`: more cache hits, reuse or recall. */
export type Better = 'lower' | 'higher';

/** The judged columns of the totals table and which way each is better; the rest (budget, steps, TTL, window, refreshes) are facts, not verdicts. */
export const BETTER: Readonly<Record<string, Better>> = {
  promptTokens: 'lower',
  uncachedTokens: 'lower',
  promptUsd: 'lower',
  totalUsd: 'lower',
  hitRate: 'higher',
  prefixReuse: 'higher',
  pooledReferenceRecall: 'higher',
  neededReferenceRecall: 'higher',
  rereadsForced: 'lower',
  orphans: 'lower',
  invalid: 'lower',
};

/** Rates are compared at the precision the table shows them (whole percents), so a visible tie is a tie. */
const RATE_COLUMNS = new Set(['hitRate', 'prefixReuse', 'pooledReferenceRecall', 'neededReferenceRecall']);

/**
 * The indexes of the best values in `values` for a column that is better `better`: every row tied
 * at the best. Nothing when fewer than two rows have a value or every value is the same (no verdict
 * to give); null values never win.
 */
function bestIndexes(values: readonly (number | null)[], better: Better, column = ''): Set<number> {
  const round = (v: number) => (RATE_COLUMNS.has(column) ? Math.round(v * 100) : column.endsWith('Usd') ? Math.round(v * 1e4) : v);
  const known = values.flatMap((v, i) => (v === null || !Number.isFinite(v) ? [] : [{ i, v: round(v) }]));
  if (known.length < 2) return new Set();
  const best = better === 'lower' ? Math.min(...known.map((k) => k.v)) : Math.max(...known.map((k) => k.v));
  if (known.every((k) => k.v === best)) return new Set();
  return new Set(known.filter((k) => k.v === best).map((k) => k.i));
}

/** For each judged column, the best rows of `rows` (`pick` reads a column's value of a row). */
export function bestCells<R>(rows: readonly R[], pick: (row: R, column: string) => number | null): Map<string, Set<number>> {
  return new Map(Object.entries(BETTER).map(([column, better]) => [column, bestIndexes(rows.map((r) => pick(r, column)), better, column)]));
}
