import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { detectTraceFormat, importTraceText } from '../../../../engine/traces/importTrace';
import { importTraceFile } from '../../../../engine/node/traces/importTraceFile';
import { arrayElementLines, findJsonSyntaxError, isoTime, lineColumnAt, rootArrayKeys } from '../../../../engine/traces/jsonText';
import { TraceImportError } from '../../../../engine/traces/TraceEvent';
import { tempDir } from '../../../support/tempDir';

const claudeLine = JSON.stringify({ type: 'user', sessionId: 's', uuid: 'u', message: { role: 'user', content: 'hi' } });
const codexLine = JSON.stringify({ timestamp: '2026-01-01T00:00:00Z', type: 'session_meta', payload: { id: 'x' } });
const messagesDoc = JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] }, null, 2);
const sweTraj = { trajectory: [{ action: 'ls', observation: 'a.py', thought: 'List.' }], history: [{ role: 'user', content: 'go', agent: 'main' }], info: {} };
/** A mini-swe-agent `.traj.json` (its shape, made up): a message list, read as OpenAI-style messages. */
const miniSweAgent = { info: { model_stats: { instance_cost: 0, api_calls: 1 } }, messages: [{ role: 'user', content: 'x' }], trajectory_format: 'mini-swe-agent-1.1' };

describe('trace format detection and dispatch', () => {
  it('detects each format from its first record', () => {
    expect(detectTraceFormat(`${claudeLine}\n`, 'a')).toBe('claude-code-jsonl');
    expect(detectTraceFormat(`\n${codexLine}\n`, 'a')).toBe('codex-rollout-jsonl');
    expect(detectTraceFormat(messagesDoc, 'a')).toBe('openai-messages-json');
    expect(detectTraceFormat(JSON.stringify({ messages: [] }), 'a')).toBe('openai-messages-json');
    expect(detectTraceFormat('[{"role":"user","content":"x"}]', 'a')).toBe('openai-messages-json');
  });

  it('[trace-detect] a SWE-agent trajectory is detected pretty-printed, on one line and truncated; mini-swe-agent documents (messages and trajectory_format) are labelled as such', () => {
    const pretty = JSON.stringify(sweTraj, null, 2);
    expect(pretty.split('\n')[0]).toBe('{');
    expect(detectTraceFormat(pretty, 'a.traj')).toBe('swe-agent-traj');
    expect(detectTraceFormat(JSON.stringify(sweTraj), 'a.traj')).toBe('swe-agent-traj');
    expect(detectTraceFormat(`\n${pretty.slice(0, pretty.indexOf('"ls"'))}`, 'a.traj')).toBe('swe-agent-traj');
    expect(detectTraceFormat(JSON.stringify(miniSweAgent, null, 2), 'm.traj.json')).toBe('mini-swe-agent-traj-json');
    expect(detectTraceFormat(JSON.stringify(miniSweAgent), 'm.traj.json')).toBe('mini-swe-agent-traj-json');
    expect(detectTraceFormat(JSON.stringify({ trajectory: [], messages: [] }, null, 2), 'b.json')).toBe('openai-messages-json');
    // a "trajectory" array that is not the root's, or only text in a string, is no SWE-agent trajectory (nor anything else)
    expect(() => detectTraceFormat(JSON.stringify({ meta: { trajectory: [] }, note: '"trajectory": [' }, null, 2), 'c.json')).toThrow(/^c\.json:1: unrecognised trace format/);
  });

  it('[trace-detect] mini-swe-agent files keep the OpenAI-style events, under their own label', () => {
    const doc = JSON.stringify(miniSweAgent, null, 2);
    const { format, ...rest } = importTraceText(doc, 'm.traj.json');
    expect(format).toBe('mini-swe-agent-traj-json');
    const { format: before, ...same } = importTraceText(doc, 'm.traj.json', 'openai-messages-json');
    expect(before).toBe('openai-messages-json');
    expect(rest).toEqual(same);
  });

  it('[trace-detect] importTraceText dispatches a SWE-agent trajectory to its importer, whose errors name the file and line', () => {
    const pretty = JSON.stringify(sweTraj, null, 2);
    expect(importTraceText(pretty, 'a.traj')).toMatchObject({ format: 'swe-agent-traj', events: [{ type: 'user_input', text: 'go' }, { type: 'assistant_text', step: 0 }, { type: 'tool_call', callId: 'step-0', name: 'ls' }, { type: 'tool_result', callId: 'step-0' }] });
    const cut = pretty.slice(0, pretty.indexOf('a.py'));
    expect(() => importTraceText(cut, 'a.traj')).toThrow(new RegExp(`^a\\.traj:${cut.split('\n').length}:\\d+: not valid JSON: unterminated string`));
  });

  it('refuses empty text and text of no known format with the file and line', () => {
    expect(() => detectTraceFormat('  \n ', 'x.jsonl')).toThrow(new TraceImportError('x.jsonl', 1, 'the file is empty'));
    expect(() => detectTraceFormat('\n\nhello world', 'x.txt')).toThrow(/^x\.txt:3: unrecognised trace format/);
    expect(() => detectTraceFormat('{"kind":"other"}\n', 'x.jsonl')).toThrow(/^x\.jsonl:1: unrecognised trace format/);
  });

  it('[trace-detect] a refusal names the formats tried and the first line that fit none', () => {
    const text = `\n${JSON.stringify({ kind: 'a' })}\n${JSON.stringify({ kind: 'b' })}\n`;
    let error: unknown;
    try {
      detectTraceFormat(text, 'x.jsonl');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TraceImportError);
    expect(error).toMatchObject({ file: 'x.jsonl', line: 2 });
    for (const tried of ['Claude Code', 'Codex', 'Gemini CLI', 'OpenCode', 'ATIF', 'SWE-agent', 'mini-swe-agent', 'OpenAI-style']) expect((error as Error).message).toContain(tried);
  });

  it('importTraceText dispatches on the detected or the given format', () => {
    expect(importTraceText(messagesDoc, 'm.json')).toMatchObject({ format: 'openai-messages-json', events: [{ type: 'user_input', text: 'hi' }] });
    expect(importTraceText(`${claudeLine}\n`, 'c.jsonl', 'claude-code-jsonl').events).toMatchObject([{ type: 'user_input', text: 'hi' }]);
  });
});

describe('importTraceFile', () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => {
    tmp = tempDir('strata-traces-');
  });
  afterEach(() => tmp.remove());

  it('reads a file in place and names its path in errors', () => {
    const good = join(tmp.dir, 'good.jsonl');
    writeFileSync(good, `${codexLine}\n${JSON.stringify({ type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] } })}\n`);
    expect(importTraceFile(good)).toMatchObject({ format: 'codex-rollout-jsonl', file: good, events: [{ type: 'user_input', text: 'go', source: { file: good, line: 2 } }] });
    const bad = join(tmp.dir, 'bad.jsonl');
    writeFileSync(bad, `${codexLine}\n${codexLine.slice(0, 20)}`);
    expect(() => importTraceFile(bad)).toThrow(TraceImportError);
    expect(() => importTraceFile(bad)).toThrow(`${bad}:2:`);
  });
});

describe('JSON text helpers', () => {
  it('findJsonSyntaxError finds the offset and kind of the first problem, and nothing in valid JSON', () => {
    expect(findJsonSyntaxError('{"a": [1, 2, {"b": null}], "c": "\\u00e9"}')).toBeUndefined();
    expect(findJsonSyntaxError('{"a":1,}')).toEqual({ offset: 7, problem: 'expected a double-quoted property name' });
    expect(findJsonSyntaxError('[1 2]')).toEqual({ offset: 3, problem: "expected ',' or ']'" });
    expect(findJsonSyntaxError('{"a": tru}')).toEqual({ offset: 6, problem: 'unexpected character "t"' });
    expect(findJsonSyntaxError('{"a": "x')?.problem).toBe('unterminated string (the file may be truncated)');
    expect(findJsonSyntaxError('{"a": [1,')).toEqual({ offset: 9, problem: 'unexpected end of input (the file may be truncated)' });
    expect(findJsonSyntaxError('{} {}')).toEqual({ offset: 3, problem: 'unexpected text after the JSON value' });
    expect(findJsonSyntaxError('"a\\qb"')?.problem).toBe('bad escape \\q in a string');
  });

  it('[trace-detect] rootArrayKeys lists the array keys of the root object from the text, ignoring nested keys and strings, and reads truncated text', () => {
    expect([...rootArrayKeys('{\n  "a": 1,\n  "b": {"c": [1]},\n  "s": "\\"d\\": [",\n  "e" : [\n  {"f": []}\n  ],\n  "g": []\n}')]).toEqual(['e', 'g']);
    expect([...rootArrayKeys('{\n  "trajectory": [\n    {"action": "l')]).toEqual(['trajectory']);
    expect([...rootArrayKeys('[{"trajectory": []}]')]).toEqual([]);
  });

  it('lineColumnAt is 1-based', () => {
    expect(lineColumnAt('ab\ncd\nef', 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumnAt('ab\ncd\nef', 4)).toEqual({ line: 2, column: 2 });
    expect(lineColumnAt('ab\ncd\nef', 6)).toEqual({ line: 3, column: 1 });
  });

  it('arrayElementLines gives the start line of each element of the keyed array, ignoring look-alikes in strings and nested keys', () => {
    const text = '{\n  "meta": {"messages": [9]},\n  "note": "messages",\n  "messages": [\n    {"a": "[,]"},\n\n    {"b": [1, 2]},\n    3\n  ]\n}';
    expect(arrayElementLines(text, 'messages')).toEqual([5, 7, 8]);
    expect(arrayElementLines('[\n1,\n[2, 3],\n{}\n]')).toEqual([2, 3, 4]);
    expect(arrayElementLines('{"messages": []}', 'messages')).toEqual([]);
  });

  it('isoTime normalises ISO text, epoch milliseconds and epoch seconds', () => {
    expect(isoTime('2026-04-07T15:54:46.169Z')).toBe('2026-04-07T15:54:46.169Z');
    expect(isoTime('2026-03-26T16:54:38.768000+00:00')).toBe('2026-03-26T16:54:38.768Z');
    expect(isoTime(1774544078826)).toBe('2026-03-26T16:54:38.826Z');
    expect(isoTime(1775795607.5)).toBe('2026-04-10T04:33:27.500Z');
    expect(isoTime('not a time')).toBeUndefined();
    expect(isoTime(null)).toBeUndefined();
  });
});
