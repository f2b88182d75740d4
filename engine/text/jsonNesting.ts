/** How deep JSON text nests, found without parsing it. Pure; shared by the trace importers and the workspace tools. */

/**
 * The deepest nesting of objects and arrays a trace may hold (`[trace-nesting]`). `JSON.parse`
 * reads far deeper values, but the importers, the masker and the replay walk values recursively,
 * and a value some 10,000 levels deep overflows the stack there; no recorded session nests anywhere
 * near this deep.
 */
export const MAX_JSON_NESTING = 1000;

/**
 * The offset of the bracket in `text.slice(start, end)` that opens level `limit + 1` of nesting,
 * or -1 when the JSON there nests at most `limit` deep. Brackets inside strings do not count. One
 * pass without recursion, so it is safe on any input.
 */
export function jsonNestingBeyond(text: string, start = 0, end = text.length, limit = MAX_JSON_NESTING): number {
  let depth = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const after = jsonStringEnd(text, i, end);
      if (after === -1) return -1;
      i = after - 1;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return i;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return -1;
}

/**
 * The index just after the JSON string whose opening quote is at `open`, or -1 when it does not
 * close before `end`: the next quote not escaped by an odd run of backslashes. `indexOf` skips a
 * string's text natively, and most of a request body is text.
 */
export function jsonStringEnd(text: string, open: number, end = text.length): number {
  let i = open;
  for (;;) {
    i = text.indexOf('"', i + 1);
    if (i === -1 || i >= end) return -1;
    let k = i - 1;
    while (k > open && text.charCodeAt(k) === 0x5c) k--;
    if ((i - 1 - k) % 2 === 0) return i + 1;
  }
}
