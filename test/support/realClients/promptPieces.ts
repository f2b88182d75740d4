/**
 * What the real-client harness's server counts as a request's prompt: the request body cut into
 * pieces of text, in the order the provider caches them. Each piece is tokenized on its own
 * (`countedPrompt.ts`), so a prefix of pieces has the same tokens whatever follows it.
 *
 * Anthropic Messages (`anthropicPieces`), in cache order:
 * 1. each tool: its JSON (`name`, `description`, `input_schema`, … without `cache_control`);
 * 2. each system block's text (a string system prompt is one block), except Claude Code's
 *    attribution block (`x-anthropic-billing-header: …`), which the API reads as request metadata:
 *    its hash changes from one `claude -p` process to the next, and counting it would make every
 *    new process miss the cache on its very first block;
 * 3. each message's content blocks (a string content is one text block), whatever the role:
 *    `text` → its text; `tool_use` → its name, then its input as JSON; `tool_result` → the text of
 *    its content (a string, or each text block; any other block as JSON); `thinking` → its
 *    thinking text; `redacted_thinking` → nothing (opaque); any other block → its JSON.
 *
 * A `cache_control` on a tool, system block or content block is a breakpoint after that block's
 * pieces, with its TTL (`ttl: '1h'`, else 5 minutes). No role markers or framing tokens are counted.
 *
 * OpenAI Responses (`responsesPieces`), in order: `instructions`; each tool as JSON; then each
 * input item (a string input is one user text): `message` → the text of each content part
 * (`input_text`, `output_text`, `refusal`; another part as JSON); `agent_message` (Codex's
 * message from another agent) → the text of each part, an `encrypted_content` part as given (the
 * script sends plain text where the real API would have encrypted it); `function_call` → name, then
 * arguments; `function_call_output` / `custom_tool_call_output` → the output text (a string, or the
 * text of each content item); `custom_tool_call` → name, then input; `reasoning` → the text of
 * each summary and content part (the encrypted content is opaque and not counted); any other item
 * → its JSON without `id`.
 */

interface PromptPiece {
  /** What the piece is (`tool`, `system`, `text`, `tool_use.name`, …); part of its identity for caching. */
  kind: string;
  text: string;
}

type CacheTtl = '5m' | '1h';

/** A cache breakpoint after the first `after` pieces. */
export interface Breakpoint {
  after: number;
  ttl: CacheTtl;
}

export interface PromptPieces {
  pieces: PromptPiece[];
  /** Anthropic only; in piece order. */
  breakpoints: Breakpoint[];
}

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function withoutKeys(value: Json, ...keys: string[]): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) if (!keys.includes(k)) out[k] = v;
  return out;
}

const BILLING_HEADER = 'x-anthropic-billing-header:';

const ttlOf = (control: unknown): CacheTtl => (isRecord(control) && control['ttl'] === '1h' ? '1h' : '5m');

/** The pieces of an Anthropic Messages request body (see the module comment). */
export function anthropicPieces(body: unknown): PromptPieces {
  const pieces: PromptPiece[] = [];
  const breakpoints: Breakpoint[] = [];
  const add = (kind: string, text: string) => {
    if (text.length > 0) pieces.push({ kind, text });
  };
  const mark = (block: unknown) => {
    if (isRecord(block) && isRecord(block['cache_control'])) breakpoints.push({ after: pieces.length, ttl: ttlOf(block['cache_control']) });
  };
  if (!isRecord(body)) return { pieces, breakpoints };

  if (Array.isArray(body['tools'])) {
    for (const tool of body['tools'] as unknown[]) {
      add('tool', JSON.stringify(isRecord(tool) ? withoutKeys(tool, 'cache_control') : tool));
      mark(tool);
    }
  }
  const system = body['system'];
  if (typeof system === 'string') add('system', system);
  else if (Array.isArray(system)) {
    for (const block of system as unknown[]) {
      if (isRecord(block) && typeof block['text'] === 'string' && block['text'].startsWith(BILLING_HEADER)) continue;
      if (isRecord(block) && typeof block['text'] === 'string') add('system', block['text']);
      else add('system', JSON.stringify(block));
      mark(block);
    }
  }
  if (Array.isArray(body['messages'])) {
    for (const message of body['messages'] as unknown[]) {
      if (!isRecord(message)) continue;
      const content = message['content'];
      if (typeof content === 'string') add('text', content);
      else if (Array.isArray(content)) for (const block of content as unknown[]) addAnthropicBlock(block, add, mark);
    }
  }
  return { pieces, breakpoints };
}

function addAnthropicBlock(block: unknown, add: (kind: string, text: string) => void, mark: (block: unknown) => void): void {
  if (!isRecord(block)) return;
  switch (block['type']) {
    case 'text':
      add('text', String(block['text'] ?? ''));
      break;
    case 'tool_use':
      add('tool_use.name', String(block['name'] ?? ''));
      add('tool_use.input', JSON.stringify(block['input'] ?? {}));
      break;
    case 'tool_result': {
      const content = block['content'];
      if (typeof content === 'string') add('tool_result', content);
      else if (Array.isArray(content)) {
        for (const part of content as unknown[]) {
          if (isRecord(part) && part['type'] === 'text' && typeof part['text'] === 'string') add('tool_result', part['text']);
          else add('tool_result.block', JSON.stringify(isRecord(part) ? withoutKeys(part, 'cache_control') : part));
        }
      }
      break;
    }
    case 'thinking':
      add('thinking', String(block['thinking'] ?? ''));
      break;
    case 'redacted_thinking':
      break;
    default:
      add(`block:${String(block['type'])}`, JSON.stringify(withoutKeys(block, 'cache_control')));
  }
  mark(block);
}

function partsText(parts: unknown, kind: string, add: (kind: string, text: string) => void): void {
  if (typeof parts === 'string') {
    add(kind, parts);
    return;
  }
  if (!Array.isArray(parts)) return;
  for (const part of parts as unknown[]) {
    if (isRecord(part) && typeof part['text'] === 'string') add(kind, part['text']);
    else if (isRecord(part) && typeof part['encrypted_content'] === 'string') add(kind, part['encrypted_content']);
    else if (isRecord(part) && typeof part['refusal'] === 'string') add(kind, part['refusal']);
    else add(`${kind}.part`, JSON.stringify(part));
  }
}

/** The pieces of an OpenAI Responses request body (see the module comment); never any breakpoint. */
export function responsesPieces(body: unknown): PromptPieces {
  const pieces: PromptPiece[] = [];
  const add = (kind: string, text: string) => {
    if (text.length > 0) pieces.push({ kind, text });
  };
  if (!isRecord(body)) return { pieces, breakpoints: [] };
  if (typeof body['instructions'] === 'string') add('instructions', body['instructions']);
  if (Array.isArray(body['tools'])) for (const tool of body['tools'] as unknown[]) add('tool', JSON.stringify(tool));
  const input = body['input'];
  if (typeof input === 'string') add('message', input);
  else if (Array.isArray(input)) {
    for (const item of input as unknown[]) {
      if (!isRecord(item)) continue;
      // An input item without a type but with a role is a message (the API's short form).
      switch (item['type'] ?? (typeof item['role'] === 'string' ? 'message' : undefined)) {
        case 'message':
          partsText(item['content'], `message.${String(item['role'])}`, add);
          break;
        case 'agent_message':
          partsText(item['content'], 'agent_message', add);
          break;
        case 'function_call':
          add('function_call.name', String(item['name'] ?? ''));
          add('function_call.arguments', typeof item['arguments'] === 'string' ? item['arguments'] : JSON.stringify(item['arguments'] ?? {}));
          break;
        case 'custom_tool_call':
          add('custom_tool_call.name', String(item['name'] ?? ''));
          add('custom_tool_call.input', String(item['input'] ?? ''));
          break;
        case 'function_call_output':
        case 'custom_tool_call_output':
          partsText(item['output'], String(item['type']), add);
          break;
        case 'reasoning':
          partsText(item['summary'], 'reasoning.summary', add);
          partsText(item['content'], 'reasoning.content', add);
          break;
        default:
          add(`item:${String(item['type'])}`, JSON.stringify(withoutKeys(item, 'id')));
      }
    }
  }
  return { pieces, breakpoints: [] };
}
