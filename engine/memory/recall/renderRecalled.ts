import type { MemoryRecord } from '../MemoryRecord';

/** The heading every recalled entry carries (spec "Recalled project memory"). */
export const RECALL_HEADING = 'Untrusted historical project observation; verify before use.';

/**
 * The UTC day (`YYYY-MM-DD`) of a time in milliseconds, or undefined when no date can show it
 * (not finite, or beyond the ±8.64e15 ms a `Date` holds). Never throws: a row written around the
 * intake must not fail the build that recalls it.
 */
export function observedDay(ms: number): string | undefined {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || Math.abs(ms) > 8.64e15) return undefined;
  const iso = new Date(ms).toISOString();
  // Years before 0 or after 9999 print as ±YYYYYY: not a day a reader can check.
  return /^\d{4}-\d{2}-\d{2}T/.test(iso) ? iso.slice(0, 10) : undefined;
}

/** An evidence path as the header shows it: JSON-quoted, line and paragraph separators escaped. */
const quotePath = (p: string): string => JSON.stringify(p).replace(/[\u0085\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * One recalled entry as prompt text (`[recall-render]`): the heading, id, observation date,
 * evidence paths (each quoted) and the body quoted, so the model treats it as a claim to check,
 * not a fact. Total: a date that cannot render reads `unknown date` (`recallScoped` skips such
 * entries before rendering them).
 */
export function renderRecalled(r: MemoryRecord): string {
  const date = observedDay(r.provenance.observedAt) ?? 'unknown date';
  const paths = r.evidence.paths.length > 0 ? r.evidence.paths.map(quotePath).join(', ') : 'none';
  // Every line terminator a renderer honours starts a new quoted line, so no text escapes the quote.
  const quoted = `${r.title}\n${r.body}`
    .split(/\r\n|\r|\n|\u000b|\u000c|\u2028|\u2029|\u0085/)
    .map((l) => `> ${l}`)
    .join('\n');
  return `${RECALL_HEADING}\n[${r.id} · observed ${date} · evidence: ${paths}]\n${quoted}\n`;
}
