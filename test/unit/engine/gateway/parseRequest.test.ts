import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { apiOfPath } from '../../../../engine/gateway/apiOfPath';
import { BlockHashMemo } from '../../../../engine/gateway/BlockHashMemo';
import { keyTextOf, primeRawTexts } from '../../../../engine/gateway/jsonText';
import { blocksOf } from '../../../../engine/gateway/requestBlocks';
import { canonicalJson } from '../../../../engine/gateway/canonicalJson';
import { clientIdentity, sessionOfUserId } from '../../../../engine/gateway/clientIdentity';
import { isParseFailure, parseRequest, type ParseFailure } from '../../../../engine/gateway/parseRequest';
import type { ParsedRequest } from '../../../../engine/gateway/types';
import { chatBody, CLAUDE_SESSION, claudeBody, claudeHeaders, claudeSystem, CODEX_SESSION, codexBody, codexCall, codexHeaders, codexOutput, codexUser, toolResult, toolUse, userText } from './gatewayFixtures';

const parsed = (r: ParsedRequest | ParseFailure): ParsedRequest => {
  if (isParseFailure(r)) throw new Error(r.failure);
  return r;
};

describe('[gateway-api-of-path] the API of a request from its method and path', () => {
  it.each([
    ['POST', '/v1/messages', 'anthropic-messages'],
    ['POST', '/v1/messages?beta=true', 'anthropic-messages'],
    ['POST', '/v1/messages/', 'anthropic-messages'],
    ['POST', '/v1/messages/count_tokens', 'anthropic-count-tokens'],
    ['POST', '/v1/messages/count_tokens?beta=true', 'anthropic-count-tokens'],
    ['POST', '/v1/responses', 'openai-responses'],
    ['POST', '/responses', 'openai-responses'],
    ['POST', '/v1/chat/completions', 'openai-chat'],
    ['POST', '/chat/completions', 'openai-chat'],
    ['post', '/v1/messages', 'anthropic-messages'],
    ['GET', '/v1/messages', undefined],
    ['GET', '/v1/models', undefined],
    ['POST', '/v1/responses/compact', undefined],
    ['POST', '/v1/messages/batches', undefined],
    ['POST', '/v2/messages', undefined],
  ])('%s %s -> %s', (method, path, api) => {
    expect(apiOfPath(method, path)).toBe(api);
  });
});

describe('[gateway-blocks] requests cut into the blocks a provider caches by', () => {
  it('Anthropic: tools, system, then each message, hashed over canonical JSON with SHA-256', () => {
    const body = claudeBody([userText('H-TURN-1: read notes.txt'), toolUse('toolu_1', 'Read', { file_path: '/w/notes.txt' }), toolResult('toolu_1', '1\tBuild with make all.')]);
    const r = parsed(parseRequest('anthropic-messages', claudeHeaders(), JSON.stringify(body)));
    expect(r.blocks.map((b) => [b.key, b.kind, b.index, b.role, b.breakpoint ?? false])).toEqual([
      ['tools', 'tools', undefined, undefined, false],
      ['system', 'system', undefined, undefined, true],
      ['message 0', 'message', 0, 'user', false],
      ['message 1', 'message', 1, 'assistant', false],
      ['message 2', 'message', 2, 'user', true],
    ]);
    const message1 = canonicalJson({ role: 'assistant', content: [{ type: 'text', text: 'Working on it.' }, { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/w/notes.txt' } }] });
    expect(r.blocks[3]!.hash).toBe(createHash('sha256').update(message1, 'utf8').digest('hex'));
    expect(r.blocks[3]!.bytes).toBe(Buffer.byteLength(message1));
    expect(r).toMatchObject({ api: 'anthropic-messages', provider: 'anthropic', model: 'claude-opus-5-5', stream: true, client: 'claude-cli', clientSessionId: CLAUDE_SESSION });
  });

  it('a moved breakpoint, a string for the one text block, key order and the billing header change no hash', () => {
    const first = claudeBody([userText('H-TURN-1: read notes.txt')], { system: claudeSystem('6e9') });
    const later = claudeBody([userText('H-TURN-1: read notes.txt'), toolUse('toolu_1', 'Read', { file_path: '/w/notes.txt' }), toolResult('toolu_1', 'ok')], { system: claudeSystem('cf6') });
    // The later request reorders a tool's keys, as a client rebuilding its objects may.
    const tools = later['tools'] as Record<string, unknown>[];
    tools[0] = { input_schema: tools[0]!['input_schema'], description: tools[0]!['description'], name: tools[0]!['name'] };
    const a = parsed(parseRequest('anthropic-messages', claudeHeaders(), JSON.stringify(first)));
    const b = parsed(parseRequest('anthropic-messages', claudeHeaders(), JSON.stringify(later)));
    expect(JSON.stringify(first['messages'])).toContain('cache_control');
    expect(a.blocks.map((x) => x.hash)).toEqual(b.blocks.slice(0, 3).map((x) => x.hash));
    // A real change of the prompt does change the system hash.
    const edited = parsed(parseRequest('anthropic-messages', claudeHeaders(), JSON.stringify(claudeBody([userText('H-TURN-1: read notes.txt')], { system: claudeSystem('6e9', 'Another prompt.') }))));
    expect(edited.blocks[1]!.hash).not.toBe(a.blocks[1]!.hash);
  });

  it('OpenAI Responses: instructions as system, tools, then each input item; a string input is one user message', () => {
    const body = codexBody([codexUser('CX-TURN-1: read notes.txt'), codexCall('call_1', 'cat notes.txt'), codexOutput('call_1', 'Build with make all.')]);
    const r = parsed(parseRequest('openai-responses', codexHeaders('thread-main'), JSON.stringify(body)));
    expect(r.blocks.map((b) => [b.key, b.kind, b.role])).toEqual([
      ['system', 'system', undefined],
      ['tools', 'tools', undefined],
      ['input 0', 'input', 'user'],
      ['input 1', 'input', 'function_call'],
      ['input 2', 'input', 'function_call_output'],
    ]);
    expect(r).toMatchObject({ provider: 'openai', model: 'gpt-5.5', stream: true, client: 'codex_exec', clientSessionId: CODEX_SESSION, clientThread: { id: 'thread-main' } });
    const asString = parsed(parseRequest('openai-responses', {}, JSON.stringify({ model: 'gpt-5.5', input: 'hello' })));
    const asItem = parsed(parseRequest('openai-responses', {}, JSON.stringify({ model: 'gpt-5.5', input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hello' }] }] })));
    expect(asString.blocks.map((b) => b.hash)).toEqual(asItem.blocks.map((b) => b.hash));
  });

  it('Chat Completions: tools, then each message (a system message is a message)', () => {
    const body = chatBody([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi' }]);
    const r = parsed(parseRequest('openai-chat', { 'user-agent': 'OpenAI/JS 6.49.0' }, JSON.stringify(body)));
    expect(r.blocks.map((b) => [b.key, b.role])).toEqual([
      ['tools', undefined],
      ['message 0', 'system'],
      ['message 1', 'user'],
    ]);
    expect(r).toMatchObject({ api: 'openai-chat', provider: 'openai', client: 'OpenAI', stream: true });
    expect(r.clientSessionId).toBeUndefined();
  });

  it('hashing through the memo gives the same hashes, and the memo stays within its size', () => {
    const memo = new BlockHashMemo(4);
    const text = JSON.stringify(claudeBody([userText('one'), toolUse('toolu_1', 'Read', { file_path: '/a' }), toolResult('toolu_1', 'x'), toolUse('toolu_2', 'Read', { file_path: '/b' }), toolResult('toolu_2', 'y')]));
    const plain = parsed(parseRequest('anthropic-messages', claudeHeaders(), text));
    const first = parsed(parseRequest('anthropic-messages', claudeHeaders(), text, memo));
    const again = parsed(parseRequest('anthropic-messages', claudeHeaders(), text, memo));
    expect(first.blocks).toEqual(plain.blocks);
    expect(again.blocks).toEqual(plain.blocks);
    expect(memo.size).toBe(4);
    // Bounded by the characters of the texts it holds too; a text longer than the bound is not held.
    const small = new BlockHashMemo(100, 400);
    const twice = [parsed(parseRequest('anthropic-messages', claudeHeaders(), text, small)), parsed(parseRequest('anthropic-messages', claudeHeaders(), text, small))];
    for (const p of twice) expect(p.blocks).toEqual(plain.blocks);
    expect(small.heldChars).toBeLessThanOrEqual(400);
    expect(small.size).toBeGreaterThan(0);
    expect(small.size).toBeLessThan(plain.blocks.length);
  });

  it('through the memo, a body written any way (indented, escaped, keys repeated) gets the blocks it gets without it, the first time and again', () => {
    const body = claudeBody([userText('caf\u00e9 / "quoted" \\ path'), toolUse('toolu_1', 'Read', { file_path: '/a' }), toolResult('toolu_1', 'x\ny')]);
    const compact = JSON.stringify(body);
    const texts = [
      compact,
      JSON.stringify(body, null, 2),
      compact.replaceAll('é', '\\u00e9').replaceAll('/', '\\/'),
      // A repeated key: the provider and JSON.parse read the last one.
      `{"messages":[{"role":"user","content":"dropped"}],${compact.slice(1)}`,
      ` \n\t${JSON.stringify(body, null, '\t')}\n `,
    ];
    const memo = new BlockHashMemo();
    for (const text of texts) {
      const plain = parsed(parseRequest('anthropic-messages', claudeHeaders(), text));
      expect(plain.blocks.length).toBeGreaterThan(3);
      for (let round = 0; round < 2; round++) expect(parsed(parseRequest('anthropic-messages', claudeHeaders(), text, memo)).blocks, `${text.slice(0, 40)} round ${round}`).toEqual(plain.blocks);
    }
    // Each entry's key is the very text it was parsed from.
    for (const text of texts) {
      const value = JSON.parse(text) as Record<string, unknown>;
      primeRawTexts(value, text);
      for (const m of value['messages'] as unknown[]) {
        expect(JSON.parse(keyTextOf(m))).toEqual(m);
        if (text !== compact) expect(text).toContain(keyTextOf(m));
      }
      expect(JSON.parse(keyTextOf(value['tools']))).toEqual(value['tools']);
      expect(JSON.parse(keyTextOf(value['system']))).toEqual(value['system']);
    }
    // A text cut short (never what the gateway passes: it primes only what JSON.parse read) records nothing and ends.
    const cut = JSON.parse(compact) as Record<string, unknown>;
    for (const end of [compact.indexOf('"messages"') + 12, compact.indexOf('"messages"') + 30, compact.length - 1]) primeRawTexts(cut, compact.slice(0, end));
    expect((cut['messages'] as unknown[]).map((m) => keyTextOf(m))).toEqual((cut['messages'] as unknown[]).map((m) => JSON.stringify(m)));
    // Every way of writing it is the same blocks.
    const blocks = texts.map((t) => parsed(parseRequest('anthropic-messages', claudeHeaders(), t, memo)).blocks.map((b) => b.hash));
    for (const b of blocks) expect(b).toEqual(blocks[0]);
  });

  it('blocks of a rewritten body that shares objects with the parsed one are those of its own JSON', () => {
    const memo = new BlockHashMemo();
    const text = JSON.stringify(claudeBody([userText('one'), toolUse('toolu_1', 'Read', { file_path: '/a' }), toolResult('toolu_1', 'x'.repeat(500))]));
    const first = parsed(parseRequest('anthropic-messages', claudeHeaders(), text, memo));
    const body = first.body as Record<string, unknown>;
    const messages = (body['messages'] as Record<string, unknown>[]).slice();
    messages[2] = { ...messages[2], content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '[strata: hidden]' }] };
    const rewritten = { ...body, messages };
    expect(blocksOf('anthropic-messages', rewritten, memo)).toEqual(blocksOf('anthropic-messages', JSON.parse(JSON.stringify(rewritten)) as Record<string, unknown>));
    expect(blocksOf('anthropic-messages', rewritten, memo)[4]!.hash).not.toBe(first.blocks[4]!.hash);
  });

  it('count_tokens is never a stream, and the body is kept as parsed', () => {
    const body = { ...claudeBody([userText('count me')]), stream: true };
    const r = parsed(parseRequest('anthropic-count-tokens', claudeHeaders(), JSON.stringify(body)));
    expect(r.stream).toBe(false);
    expect(r.body).toEqual(body);
  });
});

describe('[gateway-parse] a body the provider would refuse unread is a failure with the reason', () => {
  it.each([
    ['anthropic-messages', 'not json', /not valid JSON/],
    ['anthropic-messages', '[1,2]', /not a JSON object/],
    ['anthropic-messages', '{"messages":[]}', /model/],
    ['anthropic-messages', '{"model":"claude-opus-5-5"}', /messages: an array is required/],
    ['anthropic-messages', '{"model":"claude-opus-5-5","messages":[{"content":"x"}]}', /messages\.0/],
    ['anthropic-messages', '{"model":"claude-opus-5-5","messages":[],"tools":{}}', /tools/],
    ['openai-responses', '{"model":"gpt-5.5","input":7}', /input/],
    ['openai-chat', '{"model":"gpt-5.5","messages":"hi"}', /messages/],
    ['anthropic-messages', `{"model":"m","messages":[${'['.repeat(2000)}${']'.repeat(2000)}]}`, /nests deeper/],
  ] as const)('%s %s', (api, text, reason) => {
    const r = parseRequest(api, {}, text);
    expect(isParseFailure(r) && r.failure).toMatch(reason);
  });
});

describe('[gateway-client-identity] the client, its session and its own thread from what real clients send', () => {
  it('Claude Code: the session header, else metadata.user_id in both shapes; a subagent by its agent id', () => {
    expect(clientIdentity(claudeHeaders({ 'x-claude-code-agent-id': 'aeca549f' }), {})).toEqual({ client: 'claude-cli', clientSessionId: CLAUDE_SESSION, clientThread: { id: 'aeca549f', kind: 'subagent' } });
    expect(sessionOfUserId(JSON.stringify({ device_id: 'd', account_uuid: '', session_id: 's-1' }))).toBe('s-1');
    expect(sessionOfUserId('user_abc123_account_0f0e_session_9a8b-77')).toBe('9a8b-77');
    expect(sessionOfUserId('{not json')).toBeUndefined();
    expect(clientIdentity({ 'user-agent': 'claude-cli/2.0.1' }, { metadata: { user_id: 'user_x_account__session_abc' } }).clientSessionId).toBe('abc');
  });

  it('Codex: session-id, thread-id, parent thread and subagent kind; prompt_cache_key when no header names the session', () => {
    expect(clientIdentity(codexHeaders('t-child', { 'x-codex-parent-thread-id': 't-main', 'x-openai-subagent': 'collab_spawn' }), {})).toEqual({
      client: 'codex_exec',
      clientSessionId: CODEX_SESSION,
      clientThread: { id: 't-child', parent: 't-main', kind: 'collab_spawn' },
    });
    expect(clientIdentity({ session_id: 'old-style' }, {}).clientSessionId).toBe('old-style');
    expect(clientIdentity({ originator: 'codex_exec' }, { prompt_cache_key: 'pck-1' })).toEqual({ client: 'codex_exec', clientSessionId: 'pck-1' });
    expect(clientIdentity({}, {})).toEqual({});
  });
});
