/**
 * The outline of a JSON document read from its text without parsing it: what format detection
 * needs to tell documents apart (the root's keys and the kinds of their values, short root
 * strings such as `schema_version`, the keys of the first element of each root array). One pass,
 * strings skipped; a truncated or invalid document gives what was seen before the problem, so a
 * file cut off mid-way is still recognised and its importer can name the broken line. Pure.
 */

/** The kind of a JSON value, from its first character. */
type JsonKind = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null';

/** One key of the root object. */
interface RootEntry {
  kind: JsonKind;
  /** The decoded value, for a string of at most {@link MAX_ROOT_STRING} characters. */
  text?: string;
  /** For an array whose first element is an object: that element's keys, in order. */
  firstKeys?: string[];
}

/** The root of a document and, for an object, its keys in document order. */
export interface DocumentShape {
  root: 'object' | 'array' | 'other';
  keys: Map<string, RootEntry>;
}

const MAX_ROOT_STRING = 300;

const isWs = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

function skipWs(text: string, i: number): number {
  while (i < text.length && isWs(text.charCodeAt(i))) i++;
  return i;
}

/** Index of the quote closing the string that opens at `start`, or the text's length when it never closes. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  for (; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
  return i;
}

function decode(raw: string): string | undefined {
  try {
    const v: unknown = JSON.parse(raw);
    return typeof v === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

function kindOf(c: string | undefined): JsonKind | undefined {
  if (c === '{') return 'object';
  if (c === '[') return 'array';
  if (c === '"') return 'string';
  if (c === 't' || c === 'f') return 'boolean';
  if (c === 'n') return 'null';
  if (c !== undefined && /[-0-9]/.test(c)) return 'number';
  return undefined;
}

/** The {@link DocumentShape} of JSON `text`. */
export function documentShape(text: string): DocumentShape {
  const keys = new Map<string, RootEntry>();
  const first = skipWs(text, 0);
  if (text[first] === '[') return { root: 'array', keys };
  if (text[first] !== '{') return { root: 'other', keys };
  let depth = 0;
  // The root array being read (its entry), and whether its first element is still open.
  let array: RootEntry | undefined;
  let element = 0;
  let inFirst = false;
  for (let i = first; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const end = stringEnd(text, i);
      const colon = skipWs(text, end + 1);
      if (text[colon] === ':') {
        const key = decode(text.slice(i, end + 1));
        if (depth === 1 && key !== undefined) {
          const at = skipWs(text, colon + 1);
          const kind = kindOf(text[at]);
          if (kind !== undefined) {
            const entry: RootEntry = { kind };
            if (kind === 'string') {
              const close = stringEnd(text, at);
              if (close - at <= MAX_ROOT_STRING + 1) {
                const value = decode(text.slice(at, close + 1));
                if (value !== undefined) entry.text = value;
              }
            }
            if (kind === 'array') {
              array = entry;
              element = 0;
            }
            keys.set(key, entry);
          }
        } else if (depth === 3 && inFirst && key !== undefined && array) {
          (array.firstKeys ??= []).push(key);
        }
        i = colon;
        continue;
      }
      i = end;
      continue;
    }
    if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth === 3 && c === 0x7b && array && element === 0 && array.firstKeys === undefined) {
        inFirst = true;
        array.firstKeys = [];
      }
    } else if (c === 0x7d || c === 0x5d) {
      if (depth === 3) inFirst = false;
      if (depth === 2) array = undefined;
      depth--;
      if (depth === 0) break;
    } else if (c === 0x2c && depth === 2) {
      element++;
    }
  }
  return { root: 'object', keys };
}
