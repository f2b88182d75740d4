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

/** A built encoder and the pre-tokenization pattern it splits text with. */
interface Loaded {
  tiktoken: Tiktoken;
  pieces: RegExp;
}
const loaded = new Map<TiktokenEncodingName, Loaded>();

function load(encoding: TiktokenEncodingName): Loaded {
  let entry = loaded.get(encoding);
  if (!entry) {
    const ranks = RANKS[encoding];
    entry = { tiktoken: new Tiktoken(ranks), pieces: new RegExp(ranks.pat_str, 'gu') };
    loaded.set(encoding, entry);
  }
  return entry;
}

// js-tiktoken merges a piece in time quadratic in its length (2,000 equal signs take 1.7 s,
// 100,000 spaces about an hour), and tool output does contain such runs. No token of either
// encoding is longer than 128 bytes, so a longer piece is counted in chunks of this many units:
// exact up to it, within about two tokens per chunk beyond it.
const MAX_PIECE = 128;

const encodeLength = (tiktoken: Tiktoken, text: string): number =>
  text === '' ? 0 : tiktoken.encode(text, [], []).length;

/** Tokens of one over-long piece, counted chunk by chunk; runs repeat chunks, so they are memoized. */
function countLongPiece(tiktoken: Tiktoken, piece: string, seen: Map<string, number>): number {
  let tokens = 0;
  for (let start = 0; start < piece.length; ) {
    let end = Math.min(start + MAX_PIECE, piece.length);
    const last = piece.charCodeAt(end - 1);
    if (end < piece.length && last >= 0xd800 && last <= 0xdbff) end--;
    const chunk = piece.slice(start, end);
    let count = seen.get(chunk);
    if (count === undefined) {
      count = encodeLength(tiktoken, chunk);
      seen.set(chunk, count);
    }
    tokens += count;
    start = end;
  }
  return tokens;
}

function countTokens(encoding: TiktokenEncodingName, text: string): number {
  const { tiktoken, pieces } = load(encoding);
  let tokens = 0;
  let from = 0;
  const seen = new Map<string, number>();
  // The same pattern the encoder splits with, so the text between long pieces is cut at piece
  // boundaries and encodes exactly as it would inside the whole text.
  for (const match of text.matchAll(pieces)) {
    if (match[0].length <= MAX_PIECE) continue;
    tokens += encodeLength(tiktoken, text.slice(from, match.index));
    tokens += countLongPiece(tiktoken, match[0], seen);
    from = match.index + match[0].length;
  }
  return tokens + encodeLength(tiktoken, from === 0 ? text : text.slice(from));
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
