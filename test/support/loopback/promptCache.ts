/**
 * The loopback servers' prompt-cache simulation.
 *
 * Tokens: 1 token = 4 characters of the serialised prompt, rounded up (`approxTokens`). Nothing
 * here is a real tokenizer; the numbers only have to be consistent from one request to the next.
 *
 * OpenAI (automatic prefix caching): the cached tokens of a request are the longest common
 * prefix (in characters, floored to tokens) of its serialised prompt with the prompt of ANY
 * earlier successful request, counted only from 1024 tokens and rounded DOWN to 128-token steps.
 *
 * Anthropic (explicit breakpoints): a successful request writes, for each `cache_control`
 * breakpoint, the prefix ending there (if at least `minTokens` long). The next request reads the
 * longest written prefix that starts its own prompt and ends at or before its LAST breakpoint
 * (a lookback without Anthropic's 20-block window), and writes the rest of that breakpointed
 * prefix. Tokens after the last breakpoint are uncached input. `cache_control` markers are
 * stripped before serialising, so moving a breakpoint never changes the prefix text.
 */

const CHARS_PER_TOKEN = 4;

/** Tokens of a text (or of a character count): ceil(chars / 4). */
export function approxTokens(text: string | number): number {
  const chars = typeof text === 'number' ? text : text.length;
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i += 1;
  return i;
}

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An OpenAI chat-completions body as prompt text: the tools, then each message, one JSON per line. */
export function serializeOpenAIPrompt(body: unknown): string {
  if (!isRecord(body)) return '';
  const parts: string[] = [];
  if (Array.isArray(body['tools']) && body['tools'].length > 0) parts.push(`tools:${JSON.stringify(body['tools'])}`);
  if (Array.isArray(body['messages'])) for (const m of body['messages'] as unknown[]) parts.push(JSON.stringify(m));
  return parts.join('\n');
}

export interface OpenAICacheUsage {
  promptTokens: number;
  cachedTokens: number;
}

export class OpenAIPromptCache {
  private readonly prompts: string[] = [];

  constructor(
    readonly minTokens = 1024,
    readonly stepTokens = 128,
  ) {}

  measure(prompt: string): OpenAICacheUsage {
    const promptTokens = approxTokens(prompt);
    let best = 0;
    for (const earlier of this.prompts) best = Math.max(best, commonPrefixLength(earlier, prompt));
    const common = Math.floor(best / CHARS_PER_TOKEN);
    const cached = common >= this.minTokens ? Math.floor(common / this.stepTokens) * this.stepTokens : 0;
    return { promptTokens, cachedTokens: Math.min(cached, promptTokens) };
  }

  remember(prompt: string): void {
    this.prompts.push(prompt);
  }

  reset(): void {
    this.prompts.length = 0;
  }
}

/** An Anthropic prompt as text, and the character offsets where a `cache_control` block ends. */
export interface SerializedAnthropicPrompt {
  text: string;
  breakpoints: number[];
}

const withoutCacheControl = (block: unknown): unknown => {
  if (!isRecord(block)) return block;
  const { cache_control: _ignored, ...rest } = block;
  return rest;
};

/** Tools, then system blocks, then each message's blocks (Anthropic's cache order), one JSON per line. */
export function serializeAnthropicPrompt(body: unknown): SerializedAnthropicPrompt {
  let text = '';
  const breakpoints: number[] = [];
  const add = (piece: string, breakpoint: boolean) => {
    text += piece;
    if (breakpoint) breakpoints.push(text.length);
  };
  const addBlock = (block: unknown) => add(`${JSON.stringify(withoutCacheControl(block))}\n`, isRecord(block) && !!block['cache_control']);
  if (!isRecord(body)) return { text, breakpoints };
  if (Array.isArray(body['tools'])) for (const t of body['tools'] as unknown[]) addBlock(t);
  const system = body['system'];
  if (typeof system === 'string') addBlock({ type: 'text', text: system });
  else if (Array.isArray(system)) for (const b of system as unknown[]) addBlock(b);
  if (Array.isArray(body['messages'])) {
    for (const m of body['messages'] as unknown[]) {
      if (!isRecord(m)) continue;
      add(`<${String(m['role'])}>\n`, false);
      const content = m['content'];
      if (typeof content === 'string') addBlock({ type: 'text', text: content });
      else if (Array.isArray(content)) for (const b of content as unknown[]) addBlock(b);
    }
  }
  return { text, breakpoints };
}

export interface AnthropicCacheUsage {
  input: number;
  cacheRead: number;
  cacheWrite: number;
}

export class AnthropicPromptCache {
  private readonly written = new Set<string>();

  constructor(readonly minTokens = 1024) {}

  measure(prompt: SerializedAnthropicPrompt): AnthropicCacheUsage {
    const total = approxTokens(prompt.text);
    const last = prompt.breakpoints.length > 0 ? Math.max(...prompt.breakpoints) : 0;
    const lastTokens = approxTokens(last);
    if (last === 0 || lastTokens < this.minTokens) return { input: total, cacheRead: 0, cacheWrite: 0 };
    let read = 0;
    for (const prefix of this.written) {
      if (prefix.length > read && prefix.length <= last && prompt.text.startsWith(prefix)) read = prefix.length;
    }
    const cacheRead = approxTokens(read);
    return { input: total - lastTokens, cacheRead, cacheWrite: lastTokens - cacheRead };
  }

  remember(prompt: SerializedAnthropicPrompt): void {
    for (const bp of prompt.breakpoints) if (approxTokens(bp) >= this.minTokens) this.written.add(prompt.text.slice(0, bp));
  }

  reset(): void {
    this.written.clear();
  }
}
