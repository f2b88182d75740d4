import { afterEach, describe, expect, it } from 'vitest';
import { validateAnthropic, validateResponses } from '../../support/realClients/providerValidation';
import { after, lastUserSaid } from '../../support/realClients/replyScript';
import { startScriptedServer, type ScriptedServer } from '../../support/realClients/scriptedServer';

// The scripted server's validating mode: the providers' refusals on plain bodies, then over HTTP.

const user = (text: string) => ({ role: 'user', content: [{ type: 'text', text }] });
const call = (id: string) => ({ role: 'assistant', content: [{ type: 'text', text: 'Reading.' }, { type: 'tool_use', id, name: 'Read', input: { file_path: '/a' } }] });
const result = (id: string, extra: Record<string, unknown> = {}) => ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'file a', ...extra }] });
const cc = { cache_control: { type: 'ephemeral' } };
const W = { anthropicWindow: 200, responsesWindow: 300 };
const anthropic = (messages: unknown[], more: Record<string, unknown> = {}) => validateAnthropic({ model: 'claude-test', messages, ...more }, 10, W)?.message;

describe('[real-client-validating] the Anthropic checks on plain bodies', () => {
  it('[real-client-validating] a well-formed conversation passes: results in the next user turn, consecutive user messages and mid-conversation system messages merged, a trailing call allowed', () => {
    expect(anthropic([user('go'), call('toolu_1'), result('toolu_1')])).toBeUndefined();
    expect(anthropic([user('go'), call('toolu_1'), { role: 'system', content: [{ type: 'text', text: 'reminder' }] }, result('toolu_1'), user('more')])).toBeUndefined();
    expect(anthropic([user('go'), call('toolu_1')])).toBeUndefined();
  });

  it('[real-client-validating] a tool result without its call is refused naming the message, the block and the id', () => {
    expect(anthropic([user('go'), call('toolu_1'), { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'a' }, { type: 'tool_result', tool_use_id: 'toolu_9', content: 'b' }] }])).toBe(
      'messages.2.content.1: unexpected `tool_use_id` found in `tool_result` blocks: toolu_9. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
    );
    // A result whose call is two turns back (its pair was cut out of the history) is just as orphaned.
    expect(anthropic([user('go'), call('toolu_1'), result('toolu_1'), { role: 'assistant', content: [{ type: 'text', text: 'ok' }] }, result('toolu_1')])).toMatch(/^messages\.4\.content\.0: unexpected `tool_use_id`.*toolu_1\./);
  });

  it('[real-client-validating] a call whose result is missing from the next user turn is refused', () => {
    expect(anthropic([user('go'), call('toolu_1'), user('never mind')])).toBe(
      'messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1. Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
    );
  });

  it('[real-client-validating] four cache_control blocks pass, a fifth anywhere (tools, system, messages, inside a tool result) is refused with the count', () => {
    const tools = [{ name: 'Read', input_schema: {}, ...cc }];
    const system = [{ type: 'text', text: 'sys', ...cc }];
    const four = [user('go'), call('toolu_1'), { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'a', ...cc }], ...cc }] }];
    expect(anthropic(four, { tools, system })).toBeUndefined();
    expect(anthropic([...four.slice(0, 2), { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'a', ...cc }, { type: 'text', text: 'b', ...cc }, { type: 'text', text: 'c', ...cc }] }], { tools, system })).toBe(
      'A maximum of 4 blocks with cache_control may be provided. Found 5.',
    );
  });

  it('[real-client-validating] no messages, and a prompt over the window, are refused as Anthropic words them; the error body has the provider\'s shape', () => {
    expect(anthropic([])).toBe('messages: at least one message is required');
    expect(validateAnthropic({ model: 'claude-test' }, 10, W)?.message).toBe('messages: Field required');
    expect(validateAnthropic({ messages: [user('go')] }, 200, W)).toBeUndefined();
    const over = validateAnthropic({ messages: [user('go')] }, 201, W);
    expect(over).toEqual({
      status: 400,
      type: 'invalid_request_error',
      message: 'prompt is too long: 201 tokens > 200 maximum',
      body: { type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 201 tokens > 200 maximum' } },
    });
    // count_tokens passes no count: no window check.
    expect(validateAnthropic({ messages: [user('go')] }, undefined, W)).toBeUndefined();
  });
});

describe('[real-client-validating] the Responses checks on plain bodies', () => {
  const fc = (id: string) => ({ type: 'function_call', call_id: id, name: 'exec_command', arguments: '{}' });
  const out = (id: string) => ({ type: 'function_call_output', call_id: id, output: 'done' });
  const msg = { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] };
  const responses = (input: unknown, tokens = 10) => validateResponses({ model: 'gpt-test', input }, tokens, W);

  it('[real-client-validating] calls with their outputs pass; a string input passes', () => {
    expect(responses([msg, fc('call_1'), out('call_1'), fc('call_2'), out('call_2')])).toBeUndefined();
    expect(responses('hello')).toBeUndefined();
  });

  it('[real-client-validating] an output without its call, a call without its output, an empty input and a prompt over the window are refused in OpenAI\'s error shape', () => {
    expect(responses([msg, out('call_9')])?.body).toEqual({ error: { message: 'No tool call found for function call output with call_id call_9.', type: 'invalid_request_error', param: 'input', code: null } });
    expect(responses([msg, { type: 'custom_tool_call_output', call_id: 'call_8', output: 'x' }])?.message).toBe('No tool call found for custom tool call output with call_id call_8.');
    expect(responses([msg, out('call_1'), fc('call_1')])?.message).toBe('No tool call found for function call output with call_id call_1.');
    expect(responses([msg, fc('call_1'), msg])?.message).toBe('No tool output found for function call call_1.');
    expect(responses([])?.body).toMatchObject({ error: { code: 'empty_array', param: 'input' } });
    expect(responses([msg], 300)).toBeUndefined();
    expect(responses([msg], 301)).toMatchObject({ status: 400, body: { error: { code: 'context_length_exceeded', type: 'invalid_request_error' } } });
  });
});

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('[real-client-validating] the scripted server in validating mode', () => {
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${server!.origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, json: (await res.json()) as Record<string, any>, requestId: res.headers.get('request-id') };
  };
  const rules = [
    { id: 'first', agent: 'main', when: lastUserSaid('TASK'), reply: { text: 'Reading.', calls: [{ id: 'toolu_1', name: 'Read', input: { file_path: '/a' } }] } },
    { id: 'second', agent: 'main', when: after('toolu_1'), reply: { text: 'Done.' } },
  ];

  it('[real-client-validating] a refused call gets the provider\'s status and body, is logged with its refusal and uses no rule; the valid retry gets the rule', async () => {
    server = await startScriptedServer({ rules, validation: { anthropicWindow: 100_000 } });
    const first = await post('/v1/messages', { model: 'claude-test', messages: [user('TASK: read /a')] });
    expect(first.status).toBe(200);
    const orphan = [user('TASK: read /a'), { role: 'assistant', content: [{ type: 'text', text: 'Reading.' }] }, result('toolu_1')];
    const refused = await post('/v1/messages', { model: 'claude-test', messages: orphan });
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringMatching(/^messages\.2\.content\.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_1\./) } });
    expect(refused.requestId).toMatch(/^req_harness_/);
    const counted = await post('/v1/messages/count_tokens', { model: 'claude-test', messages: orphan });
    expect(counted.status).toBe(400);
    const ok = await post('/v1/messages', { model: 'claude-test', messages: [user('TASK: read /a'), call('toolu_1'), result('toolu_1')] });
    expect(ok.json['content']).toEqual([{ type: 'text', text: 'Done.' }]);
    expect(server.calls.map((c) => [c.kind, c.status, c.rule ?? null, c.refusal?.type ?? null])).toEqual([
      ['anthropic-messages', 200, 'first', null],
      ['anthropic-messages', 400, null, 'invalid_request_error'],
      ['anthropic-count-tokens', 400, null, 'invalid_request_error'],
      ['anthropic-messages', 200, 'second', null],
    ]);
    expect(server.calls[1]!.promptTokens).toBeGreaterThan(0);
    expect(server.unusedRules()).toEqual([]);
  });

  it('[real-client-validating] without validation the same orphaned result is answered (the mode is opt-in); with it, a Responses prompt over the window is refused', async () => {
    server = await startScriptedServer({ rules: [] });
    expect((await post('/v1/messages', { model: 'claude-test', messages: [user('x'), { role: 'assistant', content: 'ok' }, result('toolu_1')] })).status).toBe(200);
    await server.close();
    server = await startScriptedServer({ rules: [], validation: { responsesWindow: 5 } });
    const long = await post('/v1/responses', { model: 'gpt-test', input: 'a prompt that is clearly longer than five tokens' });
    expect(long.status).toBe(400);
    expect(long.json['error']).toMatchObject({ code: 'context_length_exceeded' });
    expect(server.calls[0]!.refusal?.message).toMatch(/exceeds the context window/);
  });
});
