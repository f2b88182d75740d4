import type { Message } from '../conversation/Message';
import type { CacheModel, PromptSegment } from '../providers/cacheModel';
import type { ProviderRequest, Usage } from '../providers/Provider';
import type { Tokenizer } from '../tokens/Tokenizer';

/** Distinct segment texts whose token counts are remembered before the memo starts over. */
const MEMO_LIMIT = 20_000;

/** A 53-bit string hash (two 32-bit FNV-style lanes) plus the length: a segment's content id. */
export function segmentId(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return `${(4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36)}.${text.length}`;
}

function messageText(m: Message): string {
  if (m.role === 'assistant') return `assistant\n${m.content}${m.toolCalls.map((c) => `\n${c.id} ${c.name} ${c.arguments}`).join('')}`;
  if (m.role === 'tool') return `tool ${m.toolCallId}${m.isError ? ' error' : ''}\n${m.content}`;
  return `${m.role}\n${m.content}`;
}

/**
 * Prices calls that no provider answered (a replay, the demo) with the provider cache model: the
 * request becomes the segments a provider caches on — each system block, each message — with the
 * request's breakpoints (the flagged system blocks; with `historyBreakpoint`, the last message
 * before the trailing transients), and the model says what the provider would have billed.
 */
export function priceWithCacheModel(model: CacheModel, tokenizer: Tokenizer): (agentId: string, request: ProviderRequest, at: number, outputTokens: number) => Usage {
  const memo = new Map<string, number>();
  const tokens = (text: string): number => {
    let n = memo.get(text);
    if (n === undefined) {
      if (memo.size >= MEMO_LIMIT) memo.clear();
      n = tokenizer.count(text);
      memo.set(text, n);
    }
    return n;
  };
  return (_agentId, request, at, outputTokens) => {
    const segments: PromptSegment[] = request.system.map((b) => ({ id: segmentId(b.text), tokens: tokens(b.text), ...(b.cacheBreakpoint ? { cacheControl: '5m' as const } : {}) }));
    let lastStable = -1;
    request.messages.forEach((m, i) => {
      if (!('kind' in m && m.kind === 'transient')) lastStable = i;
    });
    request.messages.forEach((m, i) => {
      const text = messageText(m);
      segments.push({ id: segmentId(text), tokens: tokens(text), ...(request.historyBreakpoint && i === lastStable ? { cacheControl: '5m' as const } : {}) });
    });
    const u = model.observe({ at, model: request.model, ...(request.cacheKey ? { cacheKey: request.cacheKey } : {}), segments, outputTokens });
    return { input: u.input, cacheRead: u.cacheRead, cacheWrite: u.cacheWrite, output: u.output };
  };
}
