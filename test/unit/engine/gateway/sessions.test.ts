import { describe, expect, it } from 'vitest';
import { GatewaySessions, type Assignment } from '../../../../engine/gateway/GatewaySessions';
import { isParseFailure, parseRequest } from '../../../../engine/gateway/parseRequest';
import type { GatewayApi } from '../../../../engine/gateway/types';
import { sequentialIds } from '../../../../engine/ports/IdSource';
import { chatBody, CLAUDE_TOOLS, claudeBody, claudeHeaders, claudeSystem, codexBody, codexCall, codexHeaders, codexOutput, codexUser, toolResult, toolUse, userText } from './gatewayFixtures';

type Json = Record<string, unknown>;

function tracker(options: { maxSessions?: number; maxThreads?: number } = {}) {
  const sessions = new GatewaySessions({ ids: sequentialIds(), ...options });
  const send = (api: GatewayApi, headers: Record<string, string>, body: Json): Assignment => {
    const r = parseRequest(api, headers, JSON.stringify(body));
    if (isParseFailure(r)) throw new Error(r.failure);
    return sessions.assign(r);
  };
  return { sessions, send };
}

const where = (a: Assignment) => [a.thread.label, a.thread.id, a.thread.parentId ?? null, a.cacheBreak.at];

describe('[gateway-threads] a Claude Code session: main thread, a subagent and a compaction', () => {
  it('threads and cache breaks call by call, as Claude Code 2.1.332 sends them', () => {
    const { send, sessions } = tracker();
    const h = claudeHeaders();
    const sub = claudeHeaders({ 'x-claude-code-agent-id': 'aeca549f5d660d5ae' });
    const turn1 = [userText('H-TURN-1: read notes.txt, list the folder, then have a helper read settings.ini')];
    const m1 = [...turn1, toolUse('toolu_1', 'Read', { file_path: '/w/notes.txt' }), toolResult('toolu_1', '1\tBuild with make all.')];
    const m2 = [...m1, toolUse('toolu_2', 'Bash', { command: 'ls' }), toolResult('toolu_2', 'config\nnotes.txt')];
    const m3 = [...m2, toolUse('toolu_3', 'Agent', { prompt: 'H-SUBAGENT: read settings.ini' }), toolResult('toolu_3', 'retries = 3')];
    const subSystem = claudeSystem('5d1', 'You are an agent for Claude Code. Given the user message, use the tools available.');
    const s1 = [userText('H-SUBAGENT: read settings.ini')];
    const s2 = [...s1, toolUse('toolu_s1', 'Read', { file_path: '/w/config/settings.ini' }), toolResult('toolu_s1', '[client]\nretries = 3')];
    // The compaction call: the main conversation with the summary request appended to its last user message.
    const last = m3[m3.length - 1]!;
    const compactAsk = { type: 'text', text: 'CRITICAL: Respond with TEXT ONLY.\n\nYour task is to create a detailed summary of the conversation so far.' };
    const compaction = [...m3.slice(0, -1), { ...last, content: [...(last['content'] as Json[]), compactAsk] }];
    const after = [userText('This session is being continued from a previous conversation that ran out of context. Summary: build with make all.'), userText('H-TURN-3: when is the release cut?')];
    const after2 = [...after, toolUse('toolu_4', 'Read', { file_path: '/w/notes.txt' }), toolResult('toolu_4', 'Fridays')];

    const calls = [
      send('anthropic-messages', h, claudeBody(turn1)),
      send('anthropic-messages', h, claudeBody(m1)),
      send('anthropic-messages', h, claudeBody(m2)),
      send('anthropic-messages', sub, claudeBody(s1, { system: subSystem, tools: CLAUDE_TOOLS.slice(0, 1) })),
      send('anthropic-messages', sub, claudeBody(s2, { system: subSystem, tools: CLAUDE_TOOLS.slice(0, 1) })),
      send('anthropic-messages', h, claudeBody(m3)),
      send('anthropic-messages', h, claudeBody(compaction)),
      // A new `claude -p --continue` process: its billing header differs, which is no change of the prompt.
      send('anthropic-messages', h, claudeBody(after, { system: claudeSystem('cf6') })),
      send('anthropic-messages', h, claudeBody(after2, { system: claudeSystem('cf6') })),
    ];
    expect(calls.map(where)).toEqual([
      ['main', 'gwt-1', null, 'first call'],
      ['main', 'gwt-1', null, 'appended'],
      ['main', 'gwt-1', null, 'appended'],
      ['subagent', 'gwt-2', 'gwt-1', 'first call'],
      ['subagent', 'gwt-2', 'gwt-1', 'appended'],
      ['main', 'gwt-1', null, 'appended'],
      // Measured against the main thread it summarises: only its last message changed.
      ['compaction', 'gwt-3', 'gwt-1', 'message 6'],
      ['main', 'gwt-1', null, 'message 0'],
      ['main', 'gwt-1', null, 'appended'],
    ]);
    expect(new Set(calls.map((c) => c.session.id))).toEqual(new Set(['gws-1']));
    expect(calls[6]!.prefixReuse).toBeGreaterThan(0.5);
    // After the compaction the tools and system (new process, new billing header) are still reusable.
    expect(calls[7]!.cacheBreak.blockIndex).toBe(2);
    expect(calls[7]!.cacheBreak.unchangedBytes).toBeGreaterThan(0);
    const [listed] = sessions.list();
    expect(listed!.session).toMatchObject({ id: 'gws-1', client: 'claude-cli', mainThreadId: 'gwt-1', calls: 9 });
    expect(listed!.threads.map((t) => [t.id, t.label, t.calls])).toEqual([
      ['gwt-1', 'main', 6],
      ['gwt-2', 'subagent', 2],
      ['gwt-3', 'compaction', 1],
    ]);
  });

  it('a side call with its own system and first message is a side child of main; a model switch breaks the thread at `model`; count_tokens reads without moving it', () => {
    const { send, sessions } = tracker();
    const h = claudeHeaders();
    const m1 = [userText('Fix the failing test'), toolUse('toolu_1', 'Bash', { command: 'npm test' }), toolResult('toolu_1', 'FAIL x.test.ts')];
    send('anthropic-messages', h, claudeBody(m1.slice(0, 1)));
    const side = send('anthropic-messages', h, claudeBody([userText('Write a 5-word title for: Fix the failing test')], { system: [{ type: 'text', text: 'You write titles.' }], tools: [], model: 'claude-haiku-4-5' }));
    expect(where(side)).toEqual(['side', 'gwt-2', 'gwt-1', 'first call']);
    // Same tools and system as main but another conversation: a side thread too, and main is not moved on by it.
    const sameSystem = send('anthropic-messages', h, claudeBody([userText('Summarise the README in one line')]));
    expect(where(sameSystem)).toEqual(['side', 'gwt-3', 'gwt-1', 'first call']);
    const counted = send('anthropic-count-tokens', h, claudeBody(m1));
    expect(where(counted)).toEqual(['main', 'gwt-1', null, 'appended']);
    const switched = send('anthropic-messages', h, claudeBody(m1, { model: 'claude-sonnet-4-6' }));
    expect(where(switched)).toEqual(['main', 'gwt-1', null, 'model']);
    expect(switched.prefixReuse).toBe(0);
    expect(sessions.list()[0]!.threads).toHaveLength(3);
  });

  it('history edited in the middle stays in its thread (same system and first message), broken at the edit', () => {
    const { send } = tracker();
    const h = claudeHeaders();
    const m = [userText('Refactor parser'), toolUse('toolu_1', 'Read', { file_path: '/w/a.ts' }), toolResult('toolu_1', 'export const a = 1;'), toolUse('toolu_2', 'Read', { file_path: '/w/b.ts' }), toolResult('toolu_2', 'export const b = 2;')];
    send('anthropic-messages', h, claudeBody(m));
    const edited = send('anthropic-messages', h, claudeBody([m[0]!, m[1]!, toolResult('toolu_1', '[cleared]'), m[3]!, m[4]!]));
    expect(where(edited)).toEqual(['main', 'gwt-1', null, 'message 2']);
  });
});

describe('[gateway-threads] a Codex session: threads named by the client, a subagent under its parent, a compaction', () => {
  it('thread-id, x-codex-parent-thread-id and x-openai-subagent place each call', () => {
    const { send } = tracker();
    const first = [codexUser('<environment_context>cwd=/w</environment_context>'), codexUser('CX-TURN-1: read notes.txt')];
    const grown = [...first, codexCall('call_1', 'cat notes.txt'), codexOutput('call_1', 'Build with make all.')];
    const subInput = [codexUser('CX-SUBAGENT: read settings.ini')];
    const compactInput = [...grown, codexUser('CONTEXT CHECKPOINT COMPACTION: summarise the work so far.')];
    const resumed = [codexUser('<environment_context>cwd=/w</environment_context>'), codexUser('Another language model started to solve this problem and produced a summary: build with make all.')];
    const calls = [
      send('openai-responses', codexHeaders('t-main'), codexBody(first)),
      send('openai-responses', codexHeaders('t-main'), codexBody(grown)),
      send('openai-responses', codexHeaders('t-sub', { 'x-codex-parent-thread-id': 't-main', 'x-openai-subagent': 'collab_spawn' }), codexBody(subInput)),
      send('openai-responses', codexHeaders('t-main'), codexBody(compactInput)),
      send('openai-responses', codexHeaders('t-main'), codexBody(resumed)),
    ];
    expect(calls.map(where)).toEqual([
      ['main', 'gwt-1', null, 'first call'],
      ['main', 'gwt-1', null, 'appended'],
      ['subagent', 'gwt-2', 'gwt-1', 'first call'],
      ['compaction', 'gwt-3', 'gwt-1', 'appended'],
      ['main', 'gwt-1', null, 'input 1'],
    ]);
    expect(calls.every((c) => c.session.clientSessionId === '019a-codex-session' && c.session.client === 'codex_exec')).toBe(true);
  });
});

describe('[gateway-sessions] sessions: the client’s own id, else one per client and model', () => {
  it('requests without an id share the session of their client and model', () => {
    const { send } = tracker();
    const ua = { 'user-agent': 'OpenAI/JS 6.49.0' };
    const a = send('openai-chat', ua, chatBody([{ role: 'user', content: 'one' }]));
    const b = send('openai-chat', ua, chatBody([{ role: 'user', content: 'one' }, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'two' }]));
    const c = send('openai-chat', ua, { ...chatBody([{ role: 'user', content: 'one' }]), model: 'gpt-5.5-mini' });
    const d = send('openai-chat', { 'user-agent': 'my-app/1.0' }, chatBody([{ role: 'user', content: 'one' }]));
    expect([a, b, c, d].map((x) => x.session.id)).toEqual(['gws-1', 'gws-1', 'gws-2', 'gws-3']);
    expect(where(b)).toEqual(['main', 'gwt-1', null, 'appended']);
  });
});

describe('[gateway-sessions] memory stays bounded over 500 calls', () => {
  it('one growing thread holds only its last request’s blocks', () => {
    const { send, sessions } = tracker();
    const messages: Json[] = [userText('Long task')];
    for (let i = 0; i < 250; i++) {
      const a = send('anthropic-messages', claudeHeaders(), claudeBody(messages));
      expect(a.thread.id).toBe('gwt-1');
      messages.push(toolUse(`toolu_${i}`, 'Bash', { command: `step ${i}` }), toolResult(`toolu_${i}`, `output ${i} `.repeat(20)));
    }
    expect(sessions.heldBlocks()).toBe(2 + 1 + 2 * 249);
  });

  it('sessions and threads are capped, least recently used first, the main thread kept', () => {
    const { send, sessions } = tracker({ maxSessions: 8, maxThreads: 4 });
    for (let i = 0; i < 250; i++) send('anthropic-messages', claudeHeaders({ 'x-claude-code-session-id': `s-${i}` }), claudeBody([userText(`task ${i}`)]));
    expect(sessions.list()).toHaveLength(8);
    expect(sessions.list().map((s) => s.session.clientSessionId)).toEqual(['s-242', 's-243', 's-244', 's-245', 's-246', 's-247', 's-248', 's-249']);
    for (let i = 0; i < 250; i++) send('anthropic-messages', claudeHeaders({ 'x-claude-code-session-id': 'busy' }), claudeBody([userText(`unrelated side call ${i}`)], { system: [{ type: 'text', text: `side ${i}` }] }));
    const busy = sessions.list().find((s) => s.session.clientSessionId === 'busy')!;
    expect(busy.threads).toHaveLength(4);
    expect(busy.threads[0]!.id).toBe(busy.session.mainThreadId);
    expect(busy.session.calls).toBe(250);
    expect(sessions.heldBlocks()).toBeLessThanOrEqual(8 * 4 * 3);
  });
});
