/**
 * What manage mode reads out of a request, whatever its API: the list the provider caches after
 * the fixed part (Anthropic `messages`, Responses `input`, Chat `messages`), and each tool result
 * with the call it answers. The per-API adapters fill it; the thread manager only reads it.
 */

export type Json = Record<string, unknown>;

export const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One tool result of a request, keyed by its call id (the pairing the provider checks). */
export interface ToolResultRef {
  /** The call id (`tool_use_id`, `call_id`, `tool_call_id`). */
  key: string;
  /** Index in the conversation list of the message or item holding it. */
  at: number;
  /** The tool's name from its call, `?` when the call is not in the request. */
  tool: string;
  /** A one-line summary of the call's input (`npm test`, `src/a.ts`). */
  input: string;
  /** The result's text, every text part joined by a newline. */
  text: string;
  /** Parts that are not text (images, documents), which a placeholder hides too. */
  otherParts: number;
  isError: boolean;
}

/** A request as manage mode understands it. */
export interface Conversation {
  /** The conversation list, untouched. */
  list: readonly unknown[];
  /** JSON of list entry `i` as the prefix cache sees it (Anthropic `cache_control` markers left out): what is counted, and by default what tells entries apart. */
  entryText(i: number): string;
  /** JSON of what precedes the list (tools, system, instructions), likewise. */
  fixedText(): string;
  results: ToolResultRef[];
  /** Results at or after this list index belong to the current turn (what the model has not seen yet). */
  currentTurnFrom: number;
}

/** The API adapter's half of a rewrite: the body with the given results' content replaced. */
export interface ApiAdapter {
  read(body: unknown): Conversation;
  /** A new body (the input is not changed) where each result named in `texts` holds that text instead. */
  replace(body: Json, conversation: Conversation, texts: ReadonlyMap<string, string>): Json;
}

/** The text parts of a content value (a string, or an array of parts with `text`), and how many parts are not text. */
export function textOfContent(content: unknown): { text: string; otherParts: number } {
  if (content === undefined || content === null) return { text: '', otherParts: 0 };
  if (typeof content === 'string') return { text: content, otherParts: 0 };
  if (!Array.isArray(content)) return { text: JSON.stringify(content), otherParts: 0 };
  const texts: string[] = [];
  let otherParts = 0;
  for (const part of content) {
    if (isRecord(part) && typeof part['text'] === 'string') texts.push(part['text']);
    else otherParts += 1;
  }
  return { text: texts.join('\n'), otherParts };
}

/** The replacement content in the original's form: a string stays a string, an array becomes one text part of `partType`. */
export function contentLike(original: unknown, text: string, partType: string): unknown {
  if (!Array.isArray(original)) return text;
  const marker = original.find((p): p is Json => isRecord(p) && p['cache_control'] !== undefined);
  return [marker ? { type: partType, text, cache_control: marker['cache_control'] } : { type: partType, text }];
}

const MAX_SUMMARY = 80;

/** At most `max` code points of `s`, with `…` when cut (never half a surrogate pair). */
export function clipCodePoints(s: string, max: number): string {
  const points = Array.from(s);
  return points.length <= max ? s : `${points.slice(0, max - 1).join('')}…`;
}

const SUMMARY_FIELDS = ['command', 'cmd', 'file_path', 'path', 'pattern', 'url', 'query', 'description'];

/** A one-line summary of a tool call's input: its command, path or pattern when it has one, else its JSON. */
export function summarizeInput(input: unknown): string {
  let value: unknown = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch {
      value = input;
    }
  }
  let summary: string;
  if (isRecord(value)) {
    const field = SUMMARY_FIELDS.find((f) => typeof value[f] === 'string' || Array.isArray(value[f]));
    const picked = field === undefined ? undefined : value[field];
    summary = picked === undefined ? JSON.stringify(value) : Array.isArray(picked) ? picked.map(String).join(' ') : String(picked);
  } else summary = typeof value === 'string' ? value : JSON.stringify(value ?? null);
  return clipCodePoints(summary.replace(/\s+/g, ' ').trim(), MAX_SUMMARY);
}
