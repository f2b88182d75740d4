import { afterEach, describe, expect, it } from 'vitest';
import { o200kTokens } from '../../support/realClients/countedPrompt';
import { after, lastUserSaid, userSaid } from '../../support/realClients/replyScript';
import { startScriptedServer, type ScriptedServer } from '../../support/realClients/scriptedServer';

// The real-client harness's server, driven over HTTP: its usage must be the honest count of what
// it received (the figures the real-client tests compare imports against).

const words = (n: number, seed: string) => Array.from({ length: n }, (_, i) => `${seed}${i} lorem ipsum dolor`).join(' ');
const SYSTEM = words(400, 'sys');
const TOOL = { name: 'Read', description: words(50, 'tool'), input_schema: { type: 'object', properties: { file_path: { type: 'string' } } } };
const t = o200kTokens;

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(`${server!.origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'sk-secret', authorization: 'Bearer sk-secret', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, text: await res.text() };
};
/** Event names with repeats in a row (the deltas of one block) collapsed. */
const kinds = (events: { event: string }[]) => events.map((e) => e.event).filter((e, i, all) => e !== all[i - 1]);
const sseEvents = (text: string) => [...text.matchAll(/^event: (.+)\ndata: (.+)$/gm)].map((m) => ({ event: m[1]!, data: JSON.parse(m[2]!) as Record<string, any> }));

describe('[real-client-usage-honest] the scripted server', () => {
  it('[real-client-usage-honest] Anthropic: o200k tokens of the documented pieces, the written prefix read back, the rest written and split by the TTL of its breakpoint', async () => {
    server = await startScriptedServer({
      rules: [
        { id: 'first', agent: 'main', when: lastUserSaid('TASK'), reply: { text: 'Reading.', calls: [{ id: 'toolu_1', name: 'Read', input: { file_path: '/a' } }] } },
        { id: 'second', agent: 'main', when: after('toolu_1'), reply: { text: 'Done.' } },
      ],
    });
    const system = [
      { type: 'text', text: 'x-anthropic-billing-header: cc_version=1.0.abc;' },
      { type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral', ttl: '1h' } },
    ];
    const first = { model: 'claude-test', stream: true, tools: [TOOL], system, messages: [{ role: 'user', content: [{ type: 'text', text: 'TASK: read /a', cache_control: { type: 'ephemeral' } }] }] };
    const a = await post('/v1/messages?beta=true', first);
    const events = sseEvents(a.text);
    expect(kinds(events)).toEqual(['message_start', 'ping', 'content_block_start', 'content_block_delta', 'content_block_stop', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
    const prefix1h = t(JSON.stringify(TOOL)) + t(SYSTEM);
    const task = t('TASK: read /a');
    const usage1 = events.find((e) => e.event === 'message_delta')!.data['usage'];
    expect(usage1).toMatchObject({ input_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: prefix1h + task, cache_creation: { ephemeral_1h_input_tokens: prefix1h, ephemeral_5m_input_tokens: task } });
    expect(usage1['output_tokens']).toBe(t('Reading.') + t('Read') + t('{"file_path":"/a"}'));
    expect(events.find((e) => e.event === 'content_block_start' && e.data['content_block'].type === 'tool_use')!.data['content_block']).toMatchObject({ id: 'toolu_1', name: 'Read' });

    const history = [
      { role: 'user', content: [{ type: 'text', text: 'TASK: read /a' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Reading.' }, { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/a' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'file a', cache_control: { type: 'ephemeral' } }] },
      { role: 'system', content: [{ type: 'text', text: 'a reminder after the breakpoint' }] },
    ];
    const b = await post('/v1/messages', { ...first, stream: false, messages: history });
    const usage2 = (JSON.parse(b.text) as { usage: Record<string, unknown> }).usage;
    const added = t('Reading.') + t('Read') + t('{"file_path":"/a"}') + t('file a');
    expect(usage2).toMatchObject({ input_tokens: t('a reminder after the breakpoint'), cache_read_input_tokens: prefix1h + task, cache_creation_input_tokens: added, cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: added } });
    expect(server.calls.map((c) => [c.rule, c.promptTokens])).toEqual([
      ['first', prefix1h + task],
      ['second', prefix1h + task + added + t('a reminder after the breakpoint')],
    ]);
    expect(server.unusedRules()).toEqual([]);

    const counted = await post('/v1/messages/count_tokens', { model: 'claude-test', tools: [TOOL], system, messages: history });
    expect(JSON.parse(counted.text)).toEqual({ input_tokens: server.calls[1]!.promptTokens });
    expect(server.calls.every((c) => !('x-api-key' in c.headers) && !('authorization' in c.headers))).toBe(true);
  });

  it('[real-client-usage-honest] Responses: the prompt counted whole, cached = the longest earlier prefix from 1024 tokens in 128-token steps, the SSE events Codex reads', async () => {
    server = await startScriptedServer({
      rules: [
        { id: 'call', agent: 'main', when: lastUserSaid('GO'), reply: { text: 'Spawning.', calls: [{ id: 'call_1', name: 'spawn_agent', namespace: 'collaboration', input: { task_name: 'r' } }] } },
        { id: 'sub', agent: 'subagent', when: userSaid('SUBTASK'), reply: { text: 'sub done' } },
      ],
    });
    const instructions = [{ type: 'message', role: 'developer', content: [{ type: 'input_text', text: SYSTEM }] }];
    const one = { model: 'gpt-test', stream: true, tools: [{ type: 'function', name: 'exec_command', parameters: {} }], input: [...instructions, { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'GO' }] }] };
    const a = await post('/v1/responses', one);
    const events = sseEvents(a.text);
    expect(kinds(events)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.filter((e) => e.event === 'response.output_item.done')[1]!.data['item']).toMatchObject({ type: 'function_call', call_id: 'call_1', name: 'spawn_agent', namespace: 'collaboration', arguments: '{"task_name":"r"}' });
    const prompt1 = t(JSON.stringify(one.tools[0])) + t(SYSTEM) + t('GO');
    expect(events[events.length - 1]!.data['response'].usage).toMatchObject({ input_tokens: prompt1, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } });

    // A subagent: the same tools and instructions, then a message from another agent.
    const two = { ...one, input: [...instructions, { type: 'agent_message', content: [{ type: 'input_text', text: 'NEW_TASK' }, { type: 'encrypted_content', encrypted_content: 'SUBTASK: read' }] }] };
    const b = sseEvents((await post('/v1/responses', two)).text);
    const shared = t(JSON.stringify(one.tools[0])) + t(SYSTEM);
    expect(b[b.length - 1]!.data['response'].usage).toMatchObject({ input_tokens: shared + t('NEW_TASK') + t('SUBTASK: read'), input_tokens_details: { cached_tokens: Math.floor(shared / 128) * 128 } });
    expect(server.calls.map((c) => c.agent)).toEqual(['main', 'subagent']);
  });

  it('[real-client-usage-honest] a request no rule matches is answered and logged as unscripted, another path is a logged 404, and no two calls get the same usage', async () => {
    server = await startScriptedServer({ rules: [] });
    const body = { model: 'claude-test', messages: [{ role: 'user', content: 'hello' }] };
    const a = JSON.parse((await post('/v1/messages', body)).text) as { usage: Record<string, number>; content: { text: string }[] };
    const b = JSON.parse((await post('/v1/messages', body)).text) as { usage: Record<string, number>; content: { text: string }[] };
    expect(a.usage['input_tokens']).toBe(b.usage['input_tokens']);
    expect(b.usage['output_tokens']).toBeGreaterThan(a.usage['output_tokens']!);
    expect(b.usage['output_tokens']).toBe(t(b.content[0]!.text));
    expect((await post('/v1/models', {})).status).toBe(404);
    expect(server.calls.map((c) => [c.kind, c.status, c.rule ?? null])).toEqual([
      ['anthropic-messages', 200, 'unscripted'],
      ['anthropic-messages', 200, 'unscripted'],
      ['other', 404, null],
    ]);
  });
});
