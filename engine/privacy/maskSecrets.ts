import { findSecrets } from './findSecrets';

// Secret masking for the content of watched sessions (`[mask-secrets]`).
//
// Strata follows Claude Code and Codex session files live, and those files hold whatever went
// through the agent: a `.env` it read, a `curl -H "Authorization: Bearer …"` it ran, a key pasted
// into a prompt. Whatever Strata shows of that content must go through `maskSecrets` (or
// `maskDeep` for a parsed JSON value) first, so a secret is masked in every view and never stored:
// each one is replaced by `[secret masked: <kind>]`. What counts as a secret is `findSecrets`,
// the same detector the memory intake refuses with, so the two can never disagree.
//
// Guarantees: text without a secret comes back as the same string; masking is idempotent; every
// rule runs in linear time (see `findSecrets`).

/** The marker that replaces a secret. */
const secretMarker = (kind: string): string => `[secret masked: ${kind}]`;

/** `text` with every secret replaced by `[secret masked: <kind>]`; the same string when it holds none. */
export function maskSecrets(text: string): string {
  const spans = findSecrets(text);
  if (spans.length === 0) return text;
  let out = '';
  let at = 0;
  for (const s of spans) {
    out += text.slice(at, s.start) + secretMarker(s.kind);
    at = s.end;
  }
  return out + text.slice(at);
}

/** Whether `maskSecrets` would change `text`. */
export function containsSecret(text: string): boolean {
  return findSecrets(text).length > 0;
}

/**
 * A copy of a JSON-like value (objects, arrays, strings, numbers, booleans, null) with every string
 * masked; object keys stay as they are, other leaves are copied as they are. The input is not changed.
 */
export function maskDeep<T>(value: T): T {
  return copyMasked(value, new WeakMap()) as T;
}

function copyMasked(value: unknown, seen: WeakMap<object, unknown>): unknown {
  if (typeof value === 'string') return maskSecrets(value);
  if (value === null || typeof value !== 'object') return value;
  const done = seen.get(value);
  if (done !== undefined) return done;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    seen.set(value, out);
    for (const item of value) out.push(copyMasked(item, seen));
    return out;
  }
  const out: Record<string, unknown> = {};
  seen.set(value, out);
  for (const key of Object.keys(value)) {
    const masked = copyMasked((value as Record<string, unknown>)[key], seen);
    // A "__proto__" key of parsed JSON is an own property: keep it one, never the prototype.
    Object.defineProperty(out, key, { value: masked, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
