/**
 * The normalised lines a request text holds (`contentLines.ts`), kept for one agent of one row
 * across its requests (`[replay-recall]`). Pure and in memory.
 *
 * Every line of the text is indexed by its normalised form; a line that carries JSON (call
 * arguments as a provider receives them: `{"old_string":"a\n\tb"}`) is also indexed by the lines
 * of each string value in it (8+ characters), unescaped, so an edit the agent sent earlier is held
 * in every row that shows its call; a patch line (`+x` added, `-x` removed) is also indexed as the
 * line `x` it shows. Lines shorter than {@link MIN_LINE_CHARS} are left out (they never match).
 *
 * Updating is incremental: the lines that end inside the prefix the new text shares with the
 * previous one stay indexed, the rest are removed and the new text from there is indexed (a
 * request that appends, or replaces only its tail, costs the new part); an unchanged text costs
 * one comparison.
 */
import { MIN_LINE_CHARS, normaliseLine } from './contentLines';

const ESCAPED = /\\[nt"\\]/;
/** A line a patch adds or removes (not a `+++`/`---` header). */
const PATCH_LINE = /^[+-](?![+-]{2})/;
const UNESCAPE = /\\(["\\/bfnrt])/g;
const JSON_STRING = /"((?:[^"\\]|\\.){8,})"/g;
const CONTROL: Record<string, string> = { n: '\n', t: '\t', b: '\b', f: '\f', r: '\r' };

/** Length of the common prefix of `a` and `b`, in UTF-16 units (compared a chunk at a time, then narrowed). */
function commonPrefixLength(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  let i = 0;
  for (const step of [4096, 256, 16, 1]) while (i + step <= max && a.slice(i, i + step) === b.slice(i, i + step)) i += step;
  return i;
}

/**
 * A copy of `s` that does not point into the text it was cut from (a substring may keep its whole
 * request text alive for as long as the index keeps the line).
 */
const detached = (s: string) => (' ' + s).slice(1);

/** Adds the key of a piece of a line, and for a patch line (`+x`, `-x`) the key of what it adds or removes. */
function addKeys(piece: string, keys: string[]): void {
  const line = normaliseLine(piece);
  for (const k of PATCH_LINE.test(line) ? [line, normaliseLine(line.slice(1))] : [line]) if (k.length >= MIN_LINE_CHARS && !keys.includes(k)) keys.push(detached(k));
}

/** The text of a JSON string literal's body (`a\\nb` -> `a` newline `b`). */
function unescaped(body: string): string {
  try {
    return JSON.parse(`"${body}"`) as string;
  } catch {
    return body.replace(UNESCAPE, (_, c: string) => CONTROL[c] ?? c);
  }
}

/**
 * The index keys of one raw line: its normalised form; for a line that carries JSON (an object, or
 * escaped text) the lines of each string value in it, unescaped; and for patch lines (`+x`, `-x`,
 * as an earlier patch shows them) the line they add or remove.
 */
function keysOf(raw: string): string[] | undefined {
  const keys: string[] = [];
  addKeys(raw, keys);
  if (raw.includes('{"') || ESCAPED.test(raw)) for (const m of raw.matchAll(JSON_STRING)) for (const piece of unescaped(m[1] as string).split('\n')) addKeys(piece, keys);
  return keys.length > 0 ? keys : undefined;
}

export class RequestLines {
  #text = '';
  /** Per indexed line, the offset of its terminating newline (the text's length for the last line). */
  readonly #ends: number[] = [];
  readonly #keys: (string[] | undefined)[] = [];
  readonly #count = new Map<string, number>();

  /** Index `text` instead of the previous text (see the module comment). */
  update(text: string): this {
    if (text === this.#text && this.#ends.length > 0) return this;
    const shared = commonPrefixLength(this.#text, text);
    let n = this.#ends.length;
    while (n > 0 && (this.#ends[n - 1] as number) >= shared) {
      n--;
      for (const k of this.#keys[n] ?? []) {
        const c = (this.#count.get(k) as number) - 1;
        if (c === 0) this.#count.delete(k);
        else this.#count.set(k, c);
      }
    }
    this.#ends.length = n;
    this.#keys.length = n;
    for (let start = n === 0 ? 0 : (this.#ends[n - 1] as number) + 1; start <= text.length; ) {
      const nl = text.indexOf('\n', start);
      const end = nl === -1 ? text.length : nl;
      const keys = keysOf(text.slice(start, end));
      for (const k of keys ?? []) this.#count.set(k, (this.#count.get(k) ?? 0) + 1);
      this.#ends.push(end);
      this.#keys.push(keys);
      start = end + 1;
    }
    this.#text = text;
    return this;
  }

  /** Whether the indexed text holds a line whose normalised form is `line`. */
  has(line: string): boolean {
    return this.#count.has(line);
  }
}
