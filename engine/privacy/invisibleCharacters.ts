/**
 * Characters that draw nothing: zero-width spaces and joiners, the word joiner and invisible
 * operators, the BOM, bidi marks (LRM, RLM, ALM), the soft hyphen, the combining grapheme joiner,
 * Hangul and Khmer fillers, Mongolian selectors, variation selectors (both blocks), interlinear
 * annotation controls, musical formatting, deprecated format characters and the tag block
 * U+E0000–U+E007F (which spells ASCII no one sees: "ASCII smuggling"). Text can hide
 * instructions in them, and a secret split by one (`sk-ant-\u200bapi03-…`) no longer matches
 * a pattern. Bidi embeddings and isolates are not here: `detectUnsafe` names them on their own.
 */
const INVISIBLE_CLASS =
  '\\u00ad\\u034f\\u061c\\u115f\\u1160\\u17b4\\u17b5\\u180b-\\u180f\\u200b-\\u200f\\u2060-\\u2064\\u206a-\\u206f\\u3164\\ufe00-\\ufe0f\\ufeff\\uffa0\\ufff9-\\ufffb' +
  '\\u{1d173}-\\u{1d17a}\\u{e0000}-\\u{e007f}\\u{e0100}-\\u{e01ef}';

/** One invisible character (a code point: the astral ones are two UTF-16 units). */
const INVISIBLE = new RegExp(`[${INVISIBLE_CLASS}]`, 'u');
const INVISIBLE_ALL = new RegExp(`[${INVISIBLE_CLASS}]`, 'gu');

/** What a detector reads: `text` without its invisible characters, and where each unit came from. */
export interface SeenThrough {
  text: string;
  /** `origin[i]` is the index in the original text of the view's unit `i`; undefined when nothing was removed. */
  origin: Int32Array | undefined;
}

/** `text` with every invisible character removed, so a pattern matches what a person sees. */
export function seeThrough(text: string): SeenThrough {
  if (!INVISIBLE.test(text)) return { text, origin: undefined };
  const parts: string[] = [];
  const origin: number[] = [];
  let at = 0;
  for (const m of text.matchAll(INVISIBLE_ALL)) {
    parts.push(text.slice(at, m.index));
    for (let i = at; i < m.index; i++) origin.push(i);
    at = m.index + m[0].length;
  }
  parts.push(text.slice(at));
  for (let i = at; i < text.length; i++) origin.push(i);
  return { text: parts.join(''), origin: Int32Array.from(origin) };
}

/** The span `[start, end)` of a view in its original text (invisible characters inside it included). */
export function originalSpan(seen: SeenThrough, start: number, end: number): { start: number; end: number } {
  const o = seen.origin;
  if (!o || end <= start) return { start, end };
  return { start: o[start] as number, end: (o[end - 1] as number) + 1 };
}

const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;
const SKIN_TONE = /[\u{1f3fb}-\u{1f3ff}]/u;

/** The code point that ends just before `index`. */
function before(text: string, index: number): string {
  const low = text.charCodeAt(index - 1);
  const from = low >= 0xdc00 && low <= 0xdfff && index >= 2 ? index - 2 : index - 1;
  return index > 0 ? String.fromCodePoint(text.codePointAt(from) ?? 0) : '';
}

/**
 * The first invisible character of `text` that is not part of an emoji (a variation selector
 * after a pictograph or keycap base, a zero-width joiner between pictographs), with its index;
 * undefined when there is none. Tags are never allowed, not even in flag sequences.
 */
export function firstHiddenCharacter(text: string): { index: number; char: string } | undefined {
  for (const m of text.matchAll(INVISIBLE_ALL)) {
    const ch = m[0];
    const prev = before(text, m.index);
    if ((ch === '\ufe0f' || ch === '\ufe0e') && (PICTOGRAPHIC.test(prev) || /^[#*0-9]$/.test(prev))) continue;
    if (ch === '\u200d') {
      const left = prev === '\ufe0f' || SKIN_TONE.test(prev) ? before(text, m.index - prev.length) : prev;
      const right = String.fromCodePoint(text.codePointAt(m.index + 1) ?? 0);
      if (PICTOGRAPHIC.test(left) && PICTOGRAPHIC.test(right)) continue;
    }
    return { index: m.index, char: ch };
  }
  return undefined;
}
