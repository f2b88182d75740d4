import { jsonStringEnd } from '../text/jsonNesting';

/**
 * The JSON text of a parsed request's objects, remembered per object (`[gateway-blocks]`). The
 * gateway reads one body several times on a managed call (its blocks, manage mode's reading of
 * its entries, the blocks of the rewritten request, which shares every entry it did not change);
 * these spare all but the first look. Sound because the gateway never mutates a parsed body: a
 * rewrite copies what it changes. Held weakly, so a body's texts go with the body.
 */
const texts = new WeakMap<object, string>();
const raws = new WeakMap<object, string>();

/** `JSON.stringify(value)`, computed once per object. */
export function jsonTextOf(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  let text = texts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    texts.set(value, text);
  }
  return text;
}

/**
 * A text the value is a pure function of: the slice of the request body it was parsed from when
 * `primeRawTexts` recorded one (no serializing at all), else its `jsonTextOf`. Two different texts
 * may stand for equal values, so it is a key for memos, never a canonical form.
 */
export function keyTextOf(value: unknown): string {
  return (value !== null && typeof value === 'object' && raws.get(value)) || jsonTextOf(value);
}

type Json = Record<string, unknown>;
const LISTS = new Set(['messages', 'input']);
const WHOLE = new Set(['tools', 'system']);

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

function skipSpace(text: string, i: number): number {
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** The index after the string that opens at `i` (the text is known to be valid JSON). */
function skipString(text: string, i: number): number {
  const after = jsonStringEnd(text, i);
  if (after === -1) throw new Error('unterminated string');
  return after;
}

/** The index after the JSON value that starts at `i` (the text is known to be valid JSON). */
function skipValue(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === 0x22) return skipString(text, i);
  if (c === 0x5b || c === 0x7b) {
    let depth = 0;
    for (;;) {
      const d = text.charCodeAt(i);
      if (Number.isNaN(d)) throw new Error('unclosed value');
      if (d === 0x22) {
        i = skipString(text, i);
        continue;
      }
      if (d === 0x5b || d === 0x7b) depth++;
      else if (d === 0x5d || d === 0x7d) depth--;
      i++;
      if (depth === 0) return i;
    }
  }
  while (i < text.length) {
    const d = text.charCodeAt(i);
    if (d === 0x2c || d === 0x5d || d === 0x7d || isSpace(d)) break;
    i++;
  }
  return i;
}

/**
 * Records, for `body` parsed from `text`, the slice of `text` each entry of its `messages` or
 * `input` list and its `tools` and `system` values came from, so that `keyTextOf` finds them without
 * serializing (most of a managed call's time otherwise). One pass that jumps over strings; a text
 * it does not follow records nothing, and the slices then fall back to `JSON.stringify`.
 */
export function primeRawTexts(body: Json, text: string): void {
  try {
    let i = skipSpace(text, 0);
    if (text.charCodeAt(i) !== 0x7b) return;
    i = skipSpace(text, i + 1);
    const found = new Map<string, { start: number; end: number; elements?: [number, number][] }>();
    while (text.charCodeAt(i) !== 0x7d) {
      const keyStart = i;
      i = skipString(text, i);
      const rawKey = text.slice(keyStart, i);
      const key = rawKey.includes('\\') ? (JSON.parse(rawKey) as string) : rawKey.slice(1, -1);
      i = skipSpace(text, i);
      if (text.charCodeAt(i) !== 0x3a) return;
      i = skipSpace(text, i + 1);
      const start = i;
      if (LISTS.has(key) && text.charCodeAt(i) === 0x5b) {
        const elements: [number, number][] = [];
        i = skipSpace(text, i + 1);
        while (text.charCodeAt(i) !== 0x5d) {
          // Only ever given the text JSON.parse read; should it end early, nothing is recorded.
          if (i >= text.length) return;
          const from = i;
          i = skipValue(text, i);
          elements.push([from, i]);
          i = skipSpace(text, i);
          if (text.charCodeAt(i) === 0x2c) i = skipSpace(text, i + 1);
        }
        i++;
        found.set(key, { start, end: i, elements });
      } else {
        i = skipValue(text, i);
        found.set(key, { start, end: i });
      }
      i = skipSpace(text, i);
      if (text.charCodeAt(i) === 0x2c) i = skipSpace(text, i + 1);
    }
    for (const [key, span] of found) {
      const value = body[key];
      if (WHOLE.has(key) && value !== null && typeof value === 'object') raws.set(value, text.slice(span.start, span.end));
      if (span.elements && Array.isArray(value) && value.length === span.elements.length) {
        value.forEach((entry, n) => {
          if (entry !== null && typeof entry === 'object') raws.set(entry, text.slice(span.elements![n]![0], span.elements![n]![1]));
        });
      }
    }
  } catch {
    // Not the text the body was parsed from, or not one this reads: nothing recorded.
  }
}
