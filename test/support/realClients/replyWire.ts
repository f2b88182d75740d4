import type { ServerResponse } from 'node:http';
import type { ScriptedReply } from './replyScript';

/**
 * A scripted reply on the wire: Anthropic's `message` body or its named SSE events, and OpenAI's
 * Responses `response` body or its SSE events, with the usage the server computed.
 *
 * Anthropic SSE: `message_start` (the input side of usage, `output_tokens` 1), `ping`, per block
 * `content_block_start` / `content_block_delta` (`text_delta`, `input_json_delta`) /
 * `content_block_stop`, `message_delta` (stop reason and the whole final usage), `message_stop`.
 *
 * Responses SSE: `response.created`, `response.in_progress`, per output item
 * `response.output_item.added`, for a message `response.content_part.added`,
 * `response.output_text.delta`…, `response.output_text.done`, `response.content_part.done`, for a
 * function call `response.function_call_arguments.delta`…, `.done`, then
 * `response.output_item.done`, and `response.completed` with the usage.
 */

export interface ReplyWire {
  sse(res: ServerResponse): Promise<void>;
  json(res: ServerResponse): void;
}

function pieces(text: string, size: number): string[] {
  if (text.length === 0) return [''];
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function startSse(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
}

async function event(res: ServerResponse, name: string, data: unknown): Promise<void> {
  if (res.destroyed) return;
  res.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  await new Promise<void>((resolve) => setImmediate(resolve));
}

function json(res: ServerResponse, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text).toString() });
  res.end(text);
}

export function anthropicReply(a: { id: string; model: string; reply: ScriptedReply; usage: Record<string, unknown> }): ReplyWire {
  const text = a.reply.text ?? '';
  const calls = a.reply.calls ?? [];
  const stopReason = calls.length > 0 ? 'tool_use' : 'end_turn';
  const content: Record<string, unknown>[] = [];
  if (text.length > 0) content.push({ type: 'text', text });
  for (const c of calls) content.push({ type: 'tool_use', id: c.id, name: c.name, input: c.input });
  const shell = (usage: Record<string, unknown>) => ({ id: a.id, type: 'message', role: 'assistant', model: a.model, content: [], stop_reason: null, stop_sequence: null, usage });
  return {
    json: (res) => json(res, { ...shell(a.usage), content, stop_reason: stopReason }),
    async sse(res) {
      startSse(res);
      await event(res, 'message_start', { type: 'message_start', message: shell({ ...a.usage, output_tokens: 1 }) });
      await event(res, 'ping', { type: 'ping' });
      let index = 0;
      if (text.length > 0) {
        await event(res, 'content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
        for (const p of pieces(text, 24)) await event(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: p } });
        await event(res, 'content_block_stop', { type: 'content_block_stop', index });
        index += 1;
      }
      for (const c of calls) {
        await event(res, 'content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: c.id, name: c.name, input: {} } });
        for (const p of pieces(JSON.stringify(c.input), 16)) await event(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: p } });
        await event(res, 'content_block_stop', { type: 'content_block_stop', index });
        index += 1;
      }
      await event(res, 'message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: a.usage });
      await event(res, 'message_stop', { type: 'message_stop' });
      res.end();
    },
  };
}

export function responsesReply(a: { id: string; seq: number; model: string; reply: ScriptedReply; usage: Record<string, unknown> }): ReplyWire {
  const items: Record<string, unknown>[] = [];
  if (a.reply.text) items.push({ type: 'message', id: `msg_${a.id}_0`, status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: a.reply.text, annotations: [] }] });
  for (const [k, c] of (a.reply.calls ?? []).entries()) {
    items.push({ type: 'function_call', id: `fc_${a.id}_${k}`, status: 'completed', call_id: c.id, name: c.name, ...(c.namespace ? { namespace: c.namespace } : {}), arguments: JSON.stringify(c.input) });
  }
  const created = 1_700_000_000 + a.seq;
  const response = (status: string, output: unknown[], usage: unknown) => ({ id: a.id, object: 'response', created_at: created, status, model: a.model, output, usage });
  return {
    json: (res) => json(res, response('completed', items, a.usage)),
    async sse(res) {
      startSse(res);
      let seq = 0;
      const send = (type: string, data: Record<string, unknown>) => event(res, type, { type, sequence_number: seq++, ...data });
      await send('response.created', { response: response('in_progress', [], null) });
      await send('response.in_progress', { response: response('in_progress', [], null) });
      for (const [index, item] of items.entries()) {
        const itemId = String(item['id']);
        if (item['type'] === 'message') {
          const text = String((item['content'] as { text: string }[])[0]!.text);
          await send('response.output_item.added', { output_index: index, item: { ...item, status: 'in_progress', content: [] } });
          await send('response.content_part.added', { item_id: itemId, output_index: index, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
          for (const p of pieces(text, 24)) await send('response.output_text.delta', { item_id: itemId, output_index: index, content_index: 0, delta: p });
          await send('response.output_text.done', { item_id: itemId, output_index: index, content_index: 0, text });
          await send('response.content_part.done', { item_id: itemId, output_index: index, content_index: 0, part: { type: 'output_text', text, annotations: [] } });
        } else {
          const args = String(item['arguments']);
          await send('response.output_item.added', { output_index: index, item: { ...item, status: 'in_progress', arguments: '' } });
          for (const p of pieces(args, 16)) await send('response.function_call_arguments.delta', { item_id: itemId, output_index: index, delta: p });
          await send('response.function_call_arguments.done', { item_id: itemId, output_index: index, arguments: args });
        }
        await send('response.output_item.done', { output_index: index, item });
      }
      await send('response.completed', { response: response('completed', items, a.usage) });
      res.end();
    },
  };
}
