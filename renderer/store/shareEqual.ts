/** Which element of the previous array an element of the next one is compared with (undefined: the same index). */
export type ShareKey = (value: unknown) => string | undefined;

const noKey: ShareKey = () => undefined;
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;

/**
 * Structural sharing for JSON-shaped values (what the host sends): `next`, with every part that
 * deep-equals the matching part of `prev` replaced by `prev`'s, and `prev` itself when the two are
 * equal (a part with nothing to share is `next`'s own). A reload that changed one entry of a list then changes only that entry's identity, so
 * memoized rows re-render for it alone. Array elements match by `keyOf` when it gives a key (an
 * entry that moved is still found), else by index; a match is only ever reused when deep-equal.
 */
export function shareEqual<T>(prev: unknown, next: T, keyOf: ShareKey = noKey): T {
  if (Object.is(prev, next)) return prev as T;
  if (Array.isArray(prev) && Array.isArray(next)) {
    const byKey = new Map<string, unknown>();
    for (const p of prev) {
      const k = keyOf(p);
      if (k !== undefined && !byKey.has(k)) byKey.set(k, p);
    }
    let same = prev.length === next.length;
    let untouched = true;
    const out = next.map((n: unknown, i) => {
      const k = keyOf(n);
      const v = shareEqual(k !== undefined && byKey.has(k) ? byKey.get(k) : prev[i], n, keyOf);
      if (v !== prev[i]) same = false;
      if (v !== n) untouched = false;
      return v;
    });
    return (same ? prev : untouched ? next : out) as T;
  }
  if (isRecord(prev) && isRecord(next)) {
    const keys = Object.keys(next);
    let same = keys.length === Object.keys(prev).length;
    let untouched = true;
    const out: Record<string, unknown> = {};
    for (const k of keys) {
      const v = shareEqual(prev[k], next[k], keyOf);
      out[k] = v;
      if (v !== prev[k] || !(k in prev)) same = false;
      if (v !== next[k]) untouched = false;
    }
    return (same ? prev : untouched ? next : out) as T;
  }
  return next;
}
