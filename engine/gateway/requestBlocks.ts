import { sha256Hex } from '../text/hash';
import { utf8Length } from '../text/utf8';
import { canonicalJson } from './canonicalJson';
import type { GatewayApi, RequestBlock } from './types';

/**
 * A request body cut into the blocks a provider caches by, in the order it reads the prompt
 * (`[gateway-blocks]`): Anthropic tools, system, then each message; OpenAI Responses
 * instructions (as `system`), tools, then each input item; Chat Completions tools, then each
 * message. A block's `hash` and `bytes` are of its canonical JSON (`canonicalJson`) after two
 * normalisations that do not change what the model reads, so a client moving its breakpoint is
 * not reported as changing the prompt:
 * - every `cache_control` is left out (where it was is the block's `breakpoint`); Claude Code
 *   moves its breakpoint to the newest message on every call;
 * - a string `content` is the one text block it stands for (Claude Code writes a message as a
 *   one-block array while it carries the breakpoint and as a string after).
 * Claude Code's attribution block in `system` (`x-anthropic-billing-header: …`) is request
 * metadata, not prompt, and changes with every process: it is left out of the system block.
 * A request's bytes are the sum of its blocks' bytes; prefix reuse and unchanged bytes are
 * measured over the blocks in this order (`[gateway-prefix-reuse]`).
 */

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const BILLING_HEADER = 'x-anthropic-billing-header:';

/** `value` without its own `cache_control`, and whether it had one. */
function withoutCacheControl(value: unknown): { value: unknown; breakpoint: boolean } {
  if (!isRecord(value) || !('cache_control' in value)) return { value, breakpoint: false };
  const { cache_control: _dropped, ...rest } = value;
  return { value: rest, breakpoint: true };
}

/** A content list with strings as text blocks and no breakpoints (nested tool-result content too). */
function normalContent(content: unknown, textType: string): { value: unknown; breakpoint: boolean } {
  if (typeof content === 'string') return { value: [{ type: textType, text: content }], breakpoint: false };
  if (!Array.isArray(content)) return { value: content, breakpoint: false };
  let breakpoint = false;
  const value = content.map((part) => {
    const stripped = withoutCacheControl(part);
    breakpoint ||= stripped.breakpoint;
    if (isRecord(stripped.value) && Array.isArray(stripped.value['content'])) {
      const inner = normalContent(stripped.value['content'], textType);
      breakpoint ||= inner.breakpoint;
      return { ...stripped.value, content: inner.value };
    }
    return stripped.value;
  });
  return { value, breakpoint };
}

type Hash = (text: string) => string;

function block(hash: Hash, key: string, kind: RequestBlock['kind'], value: unknown, extra: { index?: number; role?: string; breakpoint?: boolean }): RequestBlock {
  const text = canonicalJson(value);
  const b: RequestBlock = { key, kind, bytes: utf8Length(text), hash: hash(text) };
  if (extra.index !== undefined) b.index = extra.index;
  if (extra.role !== undefined) b.role = extra.role;
  if (extra.breakpoint) b.breakpoint = true;
  return b;
}

function toolsBlock(hash: Hash, tools: unknown): RequestBlock | undefined {
  if (!Array.isArray(tools) || tools.length === 0) return undefined;
  let breakpoint = false;
  const value = tools.map((t) => {
    const s = withoutCacheControl(t);
    breakpoint ||= s.breakpoint;
    return s.value;
  });
  return block(hash, 'tools', 'tools', value, { breakpoint });
}

function anthropicSystem(hash: Hash, system: unknown): RequestBlock | undefined {
  if (system === undefined || system === null) return undefined;
  const content = normalContent(system, 'text');
  const parts = Array.isArray(content.value) ? content.value.filter((p) => !(isRecord(p) && typeof p['text'] === 'string' && p['text'].startsWith(BILLING_HEADER))) : content.value;
  if (Array.isArray(parts) && parts.length === 0) return undefined;
  return block(hash, 'system', 'system', parts, { breakpoint: content.breakpoint });
}

function messageBlock(hash: Hash, m: unknown, i: number, textType: string, prefix: 'message' | 'input'): RequestBlock {
  if (!isRecord(m)) return block(hash, `${prefix} ${i}`, prefix, m, { index: i });
  const content = 'content' in m ? normalContent(m['content'], textType) : { value: undefined, breakpoint: false };
  const stripped = withoutCacheControl(m);
  const value = content.value === undefined ? stripped.value : { ...(stripped.value as Json), content: content.value };
  const role = typeof m['role'] === 'string' ? m['role'] : typeof m['type'] === 'string' ? m['type'] : undefined;
  return block(hash, `${prefix} ${i}`, prefix, value, { index: i, ...(role !== undefined ? { role } : {}), breakpoint: content.breakpoint || stripped.breakpoint });
}

/** The blocks of a body already checked by `parseRequest` (messages / input of the right type), hashed with `hash` (SHA-256 hex). */
export function blocksOf(api: GatewayApi, body: Json, hash: Hash = sha256Hex): RequestBlock[] {
  const out: RequestBlock[] = [];
  const push = (b: RequestBlock | undefined) => {
    if (b) out.push(b);
  };
  if (api === 'anthropic-messages' || api === 'anthropic-count-tokens') {
    push(toolsBlock(hash, body['tools']));
    push(anthropicSystem(hash, body['system']));
    (body['messages'] as unknown[]).forEach((m, i) => out.push(messageBlock(hash, m, i, 'text', 'message')));
  } else if (api === 'openai-responses') {
    const instructions = body['instructions'];
    if (typeof instructions === 'string' && instructions !== '') push(block(hash, 'system', 'system', instructions, {}));
    push(toolsBlock(hash, body['tools']));
    const input = body['input'];
    const items = typeof input === 'string' ? [{ type: 'message', role: 'user', content: input }] : ((input as unknown[] | undefined) ?? []);
    items.forEach((item, i) => out.push(messageBlock(hash, item, i, 'input_text', 'input')));
  } else {
    push(toolsBlock(hash, body['tools']));
    (body['messages'] as unknown[]).forEach((m, i) => out.push(messageBlock(hash, m, i, 'text', 'message')));
  }
  return out;
}
