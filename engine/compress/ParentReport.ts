/**
 * What a worker hands its parent instead of its transcript (spec "Compression": "Worker
 * transcripts are compressed into parent reports before Primary sees them"), and the caps of the
 * report schema (spec "Prompt cache layers": summaries at most 1200 characters, list fields capped
 * by item count and length). Characters are UTF-16 code units, as `String.length` counts them.
 */

/** How the worker's task ended. */
export type ReportStatus = 'done' | 'failed' | 'blocked' | 'partial';

export interface ParentReport {
  taskId: string;
  agentId: string;
  status: ReportStatus;
  /** At most {@link SUMMARY_MAX_CHARS}; names exact paths when the work touched any. */
  summary: string;
  files: string[];
  symbols: string[];
  decisions: string[];
  failures: string[];
  verification: string[];
  risks: string[];
  openQuestions: string[];
}

/** The list fields of a report, in the order they are rendered. */
export type ReportListField = 'files' | 'symbols' | 'decisions' | 'failures' | 'verification' | 'risks' | 'openQuestions';

/** The list fields in render order; iterate this rather than listing fields again. */
export const REPORT_LIST_FIELDS: readonly ReportListField[] = ['files', 'symbols', 'decisions', 'failures', 'verification', 'risks', 'openQuestions'];

/** The summary cap from the spec. */
export const SUMMARY_MAX_CHARS = 1200;

/** The length cap of one list entry, marker included. */
export const ENTRY_MAX_CHARS = 300;

/** The count cap of each list field, the "… N more" entry included. */
export const REPORT_LIST_CAPS: Readonly<Record<ReportListField, number>> = {
  files: 30,
  symbols: 30,
  decisions: 12,
  failures: 12,
  verification: 12,
  risks: 12,
  openQuestions: 12,
};

/** The mark of every truncation, in text and in lists. */
export const TRUNCATION_MARK = '…';

/**
 * `text` cut to at most `max` characters, the cut marked by a final '…' and never splitting a
 * surrogate pair. Unchanged when it fits.
 */
export function truncateChars(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - TRUNCATION_MARK.length);
  const last = text.charCodeAt(end - 1);
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end) + TRUNCATION_MARK;
}

function capList(entries: readonly string[], cap: number): string[] {
  const seen = new Set<string>();
  const clean: string[] = [];
  for (const entry of entries) {
    const one = truncateChars(entry.replace(/\s*\r?\n\s*/g, ' ').trim(), ENTRY_MAX_CHARS);
    if (one && !seen.has(one)) {
      seen.add(one);
      clean.push(one);
    }
  }
  if (clean.length <= cap) return clean;
  const kept = clean.slice(0, Math.max(0, cap - 1));
  return cap > 0 ? [...kept, `${TRUNCATION_MARK} ${clean.length - kept.length} more`] : [];
}

/**
 * The report with every cap enforced: summary at most {@link SUMMARY_MAX_CHARS}; each list at most
 * its {@link REPORT_LIST_CAPS} count (overflow marked by a final "… N more" entry), each entry
 * single-line, trimmed, deduplicated and at most {@link ENTRY_MAX_CHARS}. Pure and idempotent:
 * capping a capped report changes nothing, so a report can be re-capped at every boundary.
 */
export function capReport(r: ParentReport): ParentReport {
  const capped: ParentReport = {
    taskId: r.taskId,
    agentId: r.agentId,
    status: r.status,
    summary: truncateChars(r.summary.trim(), SUMMARY_MAX_CHARS),
    files: [],
    symbols: [],
    decisions: [],
    failures: [],
    verification: [],
    risks: [],
    openQuestions: [],
  };
  for (const field of REPORT_LIST_FIELDS) capped[field] = capList(r[field], REPORT_LIST_CAPS[field]);
  return capped;
}
