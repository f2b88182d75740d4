import { sha256Hex } from '../text/hash';
import { utf8Length } from '../text/utf8';
import type { BlockCore, BlockHashMemo } from './BlockHashMemo';
import { canonicalJson } from './canonicalJson';
import { keyTextOf } from './jsonText';
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

function coreOf(value: unknown, breakpoint: boolean, role?: string): BlockCore {
  const text = canonicalJson(value);
  const core: BlockCore = { bytes: utf8Length(text), hash: sha256Hex(text) };
  if (role !== undefined) core.role = role;
  if (breakpoint) core.breakpoint = true;
  return core;
}

/** `make`'s block of `raw`, through the memo when there is one. */
const through = (memo: BlockHashMemo | undefined, scope: string, raw: unknown, make: () => BlockCore): BlockCore => (memo ? memo.blockOf(scope, keyTextOf(raw), make) : make());

function block(key: string, kind: RequestBlock['kind'], core: BlockCore, index?: number): RequestBlock {
  const b: RequestBlock = { key, kind, bytes: core.bytes, hash: core.hash };
  if (index !== undefined) b.index = index;
  if (core.role !== undefined) b.role = core.role;
  if (core.breakpoint) b.breakpoint = true;
  return b;
}

function toolsCore(tools: unknown[]): BlockCore {
  let breakpoint = false;
  const value = tools.map((t) => {
    const s = withoutCacheControl(t);
    breakpoint ||= s.breakpoint;
    return s.value;
  });
  return coreOf(value, breakpoint);
}

function toolsBlock(memo: BlockHashMemo | undefined, tools: unknown): RequestBlock | undefined {
  if (!Array.isArray(tools) || tools.length === 0) return undefined;
  return block('tools', 'tools', through(memo, 'tools', tools, () => toolsCore(tools)));
}

/** The system block's core, or undefined when nothing but the billing header is there. */
function systemCore(system: unknown): BlockCore | undefined {
  const content = normalContent(system, 'text');
  const parts = Array.isArray(content.value) ? content.value.filter((p) => !(isRecord(p) && typeof p['text'] === 'string' && p['text'].startsWith(BILLING_HEADER))) : content.value;
  if (Array.isArray(parts) && parts.length === 0) return undefined;
  return coreOf(parts, content.breakpoint);
}

const NO_SYSTEM: BlockCore = { bytes: -1, hash: '' };

function anthropicSystem(memo: BlockHashMemo | undefined, system: unknown): RequestBlock | undefined {
  if (system === undefined || system === null) return undefined;
  const core = through(memo, 'system', system, () => systemCore(system) ?? NO_SYSTEM);
  return core === NO_SYSTEM ? undefined : block('system', 'system', core);
}

function messageCore(m: unknown, textType: string): BlockCore {
  if (!isRecord(m)) return coreOf(m, false);
  const content = 'content' in m ? normalContent(m['content'], textType) : { value: undefined, breakpoint: false };
  const stripped = withoutCacheControl(m);
  const value = content.value === undefined ? stripped.value : { ...(stripped.value as Json), content: content.value };
  const role = typeof m['role'] === 'string' ? m['role'] : typeof m['type'] === 'string' ? m['type'] : undefined;
  return coreOf(value, content.breakpoint || stripped.breakpoint, role);
}

function messageBlock(memo: BlockHashMemo | undefined, m: unknown, i: number, textType: string, prefix: 'message' | 'input'): RequestBlock {
  return block(`${prefix} ${i}`, prefix, through(memo, textType, m, () => messageCore(m, textType)), i);
}

/**
 * The blocks of a body already checked by `parseRequest` (messages / input of the right type);
 * `memo` spares canonicalizing and hashing values seen before (the body must not change after).
 */
export function blocksOf(api: GatewayApi, body: Json, memo?: BlockHashMemo): RequestBlock[] {
  const out: RequestBlock[] = [];
  const push = (b: RequestBlock | undefined) => {
    if (b) out.push(b);
  };
  if (api === 'anthropic-messages' || api === 'anthropic-count-tokens') {
    push(toolsBlock(memo, body['tools']));
    push(anthropicSystem(memo, body['system']));
    (body['messages'] as unknown[]).forEach((m, i) => out.push(messageBlock(memo, m, i, 'text', 'message')));
  } else if (api === 'openai-responses') {
    const instructions = body['instructions'];
    if (typeof instructions === 'string' && instructions !== '') push(block('system', 'system', through(memo, 'instructions', instructions, () => coreOf(instructions, false))));
    push(toolsBlock(memo, body['tools']));
    const input = body['input'];
    const items = typeof input === 'string' ? [{ type: 'message', role: 'user', content: input }] : ((input as unknown[] | undefined) ?? []);
    items.forEach((item, i) => out.push(messageBlock(memo, item, i, 'input_text', 'input')));
  } else {
    push(toolsBlock(memo, body['tools']));
    (body['messages'] as unknown[]).forEach((m, i) => out.push(messageBlock(memo, m, i, 'text', 'message')));
  }
  return out;
}
