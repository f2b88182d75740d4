/**
 * Token counting with OpenAI's BPE encodings through js-tiktoken (pure JavaScript, ranks bundled,
 * no network). Importing the rank tables is cheap; building a `Tiktoken` from them parses every
 * rank and takes about a second, so it happens on the first count and is shared by every tokenizer
 * of that encoding for the life of the process.
 */
import { Tiktoken } from 'js-tiktoken/lite';
import type { TiktokenBPE } from 'js-tiktoken/lite';
import cl100kBase from 'js-tiktoken/ranks/cl100k_base';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import type { Tokenizer } from './Tokenizer';

/** The encodings Strata counts with: o200k for current models, cl100k for the GPT-3.5/4 family. */
export type TiktokenEncodingName = 'o200k_base' | 'cl100k_base';

const RANKS: Record<TiktokenEncodingName, TiktokenBPE> = { o200k_base: o200kBase, cl100k_base: cl100kBase };

/** A built encoder, the pre-tokenization pattern it splits text with, and its per-piece counts. */
interface Loaded {
  tiktoken: Tiktoken;
  pieces: RegExp;
  counts: Map<string, number>;
}
const loaded = new Map<TiktokenEncodingName, Loaded>();

function load(encoding: TiktokenEncodingName): Loaded {
  let entry = loaded.get(encoding);
  if (!entry) {
    const ranks = RANKS[encoding];
    entry = { tiktoken: new Tiktoken(ranks), pieces: new RegExp(ranks.pat_str, 'gu'), counts: new Map() };
    loaded.set(encoding, entry);
  }
  return entry;
}

// js-tiktoken merges a piece in time quadratic in its length (2,000 equal signs take 1.7 s,
// 100,000 spaces about an hour), and tool output does contain such runs. No token of either
// encoding is longer than 128 bytes, so a longer piece is counted in chunks of this many units:
// exact up to it, within about two tokens per chunk beyond it.
const MAX_PIECE = 128;

/** Distinct pieces remembered per encoding before the memo starts over (a few MB at most). */
const MAX_MEMO_PIECES = 200_000;

/**
 * A copy of `s` that does not keep the text it was cut from alive: V8 represents a substring of
 * 13+ units as a view of its parent, and a memo key must not pin a whole prompt. Concatenating
 * and slicing flattens into a fresh string of `s`'s own length.
 */
const detached = (s: string): string => ` ${s}`.slice(1);

/**
 * Tokens of one pre-token or chunk, memoized per encoding: the encoder splits text into the same
 * few thousand words over and over, and merging each again dominated the counting time.
 */
function pieceTokens(entry: Loaded, piece: string): number {
  let n = entry.counts.get(piece);
  if (n === undefined) {
    if (entry.counts.size >= MAX_MEMO_PIECES) entry.counts.clear();
    n = entry.tiktoken.encode(piece, [], []).length;
    entry.counts.set(detached(piece), n);
  }
  return n;
}

/** Tokens of one over-long piece, counted chunk by chunk. */
function countLongPiece(entry: Loaded, piece: string): number {
  let tokens = 0;
  for (let start = 0; start < piece.length; ) {
    let end = Math.min(start + MAX_PIECE, piece.length);
    const last = piece.charCodeAt(end - 1);
    if (end < piece.length && last >= 0xd800 && last <= 0xdbff) end--;
    tokens += pieceTokens(entry, piece.slice(start, end));
    start = end;
  }
  return tokens;
}

/**
 * The encoder splits text with this same pattern and merges each piece on its own (special-token
 * text being plain text here), so the count is the sum of the pieces' counts: exactly what
 * `encode(text, [], []).length` returns, with each distinct piece merged once.
 */
function countTokens(encoding: TiktokenEncodingName, text: string): number {
  const entry = load(encoding);
  let tokens = 0;
  for (const [piece] of text.matchAll(entry.pieces)) tokens += piece.length <= MAX_PIECE ? pieceTokens(entry, piece) : countLongPiece(entry, piece);
  return tokens;
}

/**
 * A `Tokenizer` over a tiktoken encoding (default `o200k_base`). Creating one is free; the rank
 * table is built on the first `count` and cached per encoding at module level. Special-token text
 * is neither allowed nor disallowed, so `<|endoftext|>` in a transcript is counted as the
 * characters it is written with instead of throwing, which is how the provider sees pasted text.
 * Counts equal js-tiktoken's exactly unless a single pre-token is longer than 128 UTF-16 units (a
 * long run of spaces, `=` or letters): that piece is counted in 128-unit chunks, within about two
 * tokens per chunk, so counting stays linear instead of taking minutes.
 */
export function createTiktokenTokenizer(encoding: TiktokenEncodingName = 'o200k_base'): Tokenizer {
  return {
    encoding,
    count: (text) => countTokens(encoding, text),
  };
}

/**
 * The encoding that best estimates `model`'s token counts. OpenAI's GPT-3.5, original GPT-4
 * (gpt-4, gpt-4-turbo, gpt-4-32k, not gpt-4o or gpt-4.1) and the ada/3 embedding models use
 * `cl100k_base`; everything else gets `o200k_base`: gpt-4o, gpt-4.1, gpt-4.5, gpt-5, the o-series,
 * and unknown models. Anthropic (claude*) and DeepSeek do not publish their tokenizers, so for
 * them o200k is a stand-in estimate; budgets keep headroom for the difference. A provider prefix
 * (`openai/gpt-4`) and letter case are ignored.
 */
export function encodingForModel(model: string): TiktokenEncodingName {
  const name = model.trim().toLowerCase().split('/').pop() ?? '';
  if (/^gpt-3\.5|^gpt-35/.test(name)) return 'cl100k_base';
  if (/^gpt-4(?:$|-)/.test(name)) return 'cl100k_base';
  if (/^text-embedding-(?:ada|3)/.test(name)) return 'cl100k_base';
  return 'o200k_base';
}
