import { isRecord, type Json } from './conversation';

/**
 * Cache breakpoints for a rewritten Anthropic request (`[gateway-manage-breakpoints]`): Anthropic
 * takes at most four `cache_control` markers across tools, system and messages. The client's own
 * stay where they are; when there is room the gateway adds one, so the next call reads the
 * rewritten prefix from the cache even when the client marks nothing.
 */

const MAX_BREAKPOINTS = 4;
/** Blocks Anthropic does not let carry a marker. */
const UNMARKABLE = new Set(['thinking', 'redacted_thinking']);

const marked = (v: unknown): v is Json => isRecord(v) && isRecord(v['cache_control']);

function markersIn(blocks: unknown): Json[] {
  if (!Array.isArray(blocks)) return [];
  const found: Json[] = [];
  for (const block of blocks) {
    if (marked(block)) found.push(block['cache_control'] as Json);
    if (isRecord(block) && Array.isArray(block['content'])) found.push(...markersIn(block['content']));
  }
  return found;
}

const messageMarkers = (message: unknown): Json[] => (isRecord(message) ? markersIn(message['content']) : []);

/** Every `cache_control` marker of a body: tools, system blocks, message blocks and tool_result parts. */
export function countBreakpoints(body: Json): number {
  const messages = Array.isArray(body['messages']) ? body['messages'] : [];
  return markersIn(body['tools']).length + markersIn(body['system']).length + messages.reduce((n: number, m) => n + messageMarkers(m).length, 0);
}

/** The last block of a message that may carry a marker, or -1 (string content, only thinking, empty text). */
function markableBlock(message: unknown): number {
  if (!isRecord(message) || !Array.isArray(message['content'])) return -1;
  const content = message['content'];
  for (let b = content.length - 1; b >= 0; b--) {
    const block = content[b];
    if (isRecord(block) && !UNMARKABLE.has(block['type'] as string) && !(block['type'] === 'text' && block['text'] === '')) return b;
  }
  return -1;
}

/**
 * `body` with at most one added marker: at the end of the last message when it has none (every
 * block the gateway emits keeps its bytes until the next boundary, so this call writes the prefix
 * the next one reads), else at the end of the message that ended the previous request of this
 * generation (`stableEnd - 1`), so a read point stays where the previous call wrote. None when the client already
 * uses four. The added marker lasts an hour when a later client marker does (Anthropic wants the
 * longer lifetimes first).
 */
export function placeBreakpoint(body: Json, stableEnd: number): { body: Json; placed: string[] } {
  const messages = body['messages'];
  if (!Array.isArray(messages) || countBreakpoints(body) >= MAX_BREAKPOINTS) return { body, placed: [] };
  const last = messages.length - 1;
  const candidates = [last, stableEnd - 1].filter((i) => i >= 0 && i <= last);
  const target = candidates.find((i) => messageMarkers(messages[i]).length === 0 && markableBlock(messages[i]) >= 0);
  if (target === undefined) return { body, placed: [] };
  const later = messages.slice(target + 1).flatMap(messageMarkers);
  const cacheControl = later.some((m) => m['ttl'] === '1h') ? { type: 'ephemeral', ttl: '1h' } : { type: 'ephemeral' };
  const message = messages[target] as Json;
  const at = markableBlock(message);
  const content = (message['content'] as unknown[]).map((block, b) => (b === at ? { ...(block as Json), cache_control: cacheControl } : block));
  const next = messages.slice();
  next[target] = { ...message, content };
  return { body: { ...body, messages: next }, placed: [`message ${target}`] };
}
