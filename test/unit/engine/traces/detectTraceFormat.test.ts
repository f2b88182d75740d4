import { describe, expect, it } from 'vitest';
import { detectTraceFormat, explainTraceFormat } from '../../../../engine/traces/detectTraceFormat';
import { documentShape } from '../../../../engine/traces/documentShape';
import { importTraceText } from '../../../../engine/traces/importTrace';

const jsonl = (...records: object[]): string => records.map((r) => JSON.stringify(r)).join('\n') + '\n';
/** First records of made-up files in each format's shape. */
const geminiMeta = { sessionId: '6fa07e70-made-up', projectHash: 'd3c2', startTime: '2026-05-01T10:00:00.000Z', lastUpdated: '2026-05-01T10:00:00.000Z', kind: 'main' };
const geminiUser = { id: 'u1', timestamp: '2026-05-01T10:00:01.000Z', type: 'user', content: [{ text: 'hi' }] };
const geminiReply = { id: 'g1', timestamp: '2026-05-01T10:00:02.000Z', type: 'gemini', content: 'hello', tokens: { input: 10, output: 1, cached: 0, total: 11 }, model: 'gemini-made-up' };
const claudeUser = { type: 'user', sessionId: 's', uuid: 'u', message: { role: 'user', content: 'hi' } };
const openCodeExport = {
  info: { id: 'ses_1', title: 't', version: '1.18.33', time: { created: 1, updated: 2 } },
  messages: [{ info: { role: 'user', id: 'msg_1', sessionID: 'ses_1', time: { created: 1 } }, parts: [{ type: 'text', text: 'hi', id: 'prt_1' }] }],
};
const atif = { schema_version: 'ATIF-v1.6', session_id: 'r', agent: { name: 'a', version: '1' }, steps: [{ step_id: 1, source: 'user', message: 'hi' }] };
const geminiDocument = { sessionId: 's', projectHash: 'p', startTime: 'x', lastUpdated: 'x', messages: [geminiUser, geminiReply] };

describe('format detection by evidence', () => {
  it('[trace-detect] a Gemini CLI chat is told from a Claude Code log (both write sessionId) by its projectHash metadata, or by a later gemini record', () => {
    expect(explainTraceFormat(jsonl(geminiMeta, geminiUser, geminiReply), 'session.jsonl')).toEqual({ format: 'gemini-cli-jsonl', reason: 'line 1 has sessionId and projectHash (Gemini CLI session metadata)' });
    // a file that starts with a user message, which proves nothing, is decided by the next record
    expect(explainTraceFormat(jsonl(geminiUser, geminiReply), 'session.jsonl')).toEqual({ format: 'gemini-cli-jsonl', reason: 'line 2 is a Gemini CLI message of type gemini' });
    expect(detectTraceFormat(jsonl({ $set: { lastUpdated: 'x' } }, geminiUser), 'session.jsonl')).toBe('gemini-cli-jsonl');
    expect(detectTraceFormat(jsonl(claudeUser), 'session.jsonl')).toBe('claude-code-jsonl');
    // the Gemini CLI chat imports (it used to be taken for Claude Code and refused)
    expect(importTraceText(jsonl(geminiMeta, geminiUser, geminiReply), 'session.jsonl').events.map((e) => e.type)).toEqual(['user_input', 'assistant_text', 'usage']);
  });

  it('[trace-detect] whole-document formats are told apart by their outline, pretty-printed or on one line: Gemini CLI session, OpenCode export, ATIF, OpenAI-style messages', () => {
    for (const [doc, format] of [
      [geminiDocument, 'gemini-cli-json'],
      [openCodeExport, 'opencode-export-json'],
      [atif, 'atif-trajectory-json'],
      [{ messages: [{ role: 'user', content: 'hi' }], meta: {} }, 'openai-messages-json'],
    ] as const) {
      expect(detectTraceFormat(JSON.stringify(doc, null, 2), 'f.json')).toBe(format);
      expect(detectTraceFormat(JSON.stringify(doc), 'f.json')).toBe(format);
    }
    expect(explainTraceFormat(JSON.stringify(atif, null, 2), 'f.json').reason).toBe('schema_version is ATIF-v1.6');
    expect(explainTraceFormat(JSON.stringify(openCodeExport, null, 2), 'f.json').reason).toContain('opencode export');
    // an OpenAI-style document with info beside messages is not an OpenCode export: its messages are not {info, parts}
    expect(detectTraceFormat(JSON.stringify({ info: { x: 1 }, messages: [{ role: 'user', content: 'x' }] }, null, 2), 'f.json')).toBe('openai-messages-json');
  });

  it('[trace-detect] a file named like one format is read by its content (Harbor copies a Gemini CLI chat to gemini-cli.trajectory.json)', () => {
    expect(detectTraceFormat(JSON.stringify(geminiDocument, null, 2), 'agent/gemini-cli.trajectory.json')).toBe('gemini-cli-json');
    expect(detectTraceFormat(JSON.stringify(atif, null, 2), 'session-2026.json')).toBe('atif-trajectory-json');
  });

  it('[trace-detect] a truncated document is still recognised, so its importer can name the broken line', () => {
    const text = JSON.stringify(openCodeExport, null, 2);
    const cut = text.slice(0, text.indexOf('"hi"'));
    expect(detectTraceFormat(cut, 'f.json')).toBe('opencode-export-json');
    expect(() => importTraceText(cut, 'f.json')).toThrow(new RegExp(`^f\\.json:${cut.split('\n').length}:\\d+: not valid JSON`));
  });
});

describe('documentShape', () => {
  it('[trace-detect] lists root keys with their kinds, short root strings and the keys of each root array\'s first object, ignoring nested keys and strings', () => {
    const shape = documentShape('{\n "a": "v\\"1",\n "n": 3,\n "o": {"steps": [], "x": "y"},\n "s": "\\"steps\\": [",\n "steps": [\n  {"step_id": 1, "in": {"deep": 1}},\n  {"other": 2}\n ],\n "e": [],\n "t": true, "z": null\n}');
    expect(shape.root).toBe('object');
    expect([...shape.keys.entries()]).toEqual([
      ['a', { kind: 'string', text: 'v"1' }],
      ['n', { kind: 'number' }],
      ['o', { kind: 'object' }],
      ['s', { kind: 'string', text: '"steps": [' }],
      ['steps', { kind: 'array', firstKeys: ['step_id', 'in'] }],
      ['e', { kind: 'array' }],
      ['t', { kind: 'boolean' }],
      ['z', { kind: 'null' }],
    ]);
    expect(documentShape(' [1]').root).toBe('array');
    expect(documentShape('hello').root).toBe('other');
    expect([...documentShape('{"messages": [{"info": {"a": 1}, "pa').keys.entries()]).toEqual([['messages', { kind: 'array', firstKeys: ['info'] }]]);
  });
});
