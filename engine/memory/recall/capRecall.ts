import { estimateTokens } from '../../tokens/estimateTokens';
import { utf8Length } from '../../text/utf8';

/** Bounds of the whole recalled block (spec: 300 estimated tokens and 1200 bytes). */
export const RECALL_MAX_TOKENS = 300;
export const RECALL_MAX_BYTES = 1200;
/** At most this many entries per prompt. */
export const RECALL_LIMIT = 4;

/**
 * Keep rendered entries in order while the combined block stays within 300 estimated tokens and
 * 1200 bytes (`[recall-cap]`); an entry that does not fit whole is skipped (never cut), and a later,
 * smaller one may still fit.
 */
export function capRecall<T extends { text: string }>(entries: readonly T[]): T[] {
  const kept: T[] = [];
  let tokens = 0;
  let bytes = 0;
  for (const e of entries) {
    const t = estimateTokens(e.text);
    const b = utf8Length(e.text);
    if (tokens + t > RECALL_MAX_TOKENS || bytes + b > RECALL_MAX_BYTES) continue;
    kept.push(e);
    tokens += t;
    bytes += b;
  }
  return kept;
}
