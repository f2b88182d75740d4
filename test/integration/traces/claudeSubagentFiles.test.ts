/**
 * A Claude Code session on disk with its subagents' own files, as the 2.1.33x client lays them out
 * (`<project>/<session>.jsonl` and `<project>/<session>/subagents/agent-<id>.jsonl` + `.meta.json`),
 * read by the file importer and the host as one trace.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CommandName, TraceDto } from '../../../engine/contract';
import { isSubagentFile, readSubagentFiles } from '../../../engine/node/traces/claudeSubagentFiles';
import { importTraceFile } from '../../../engine/node/traces/importTraceFile';
import { useTraceHost } from '../../support/traceHost';

const jsonl = (...records: object[]): string => records.map((r) => JSON.stringify(r)).join('\n') + '\n';
const usage = (n: number) => ({ input_tokens: n, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 1 });
const user = (content: unknown, extra: object = {}) => ({ type: 'user', sessionId: 's1', timestamp: '2026-11-20T10:00:00.000Z', message: { role: 'user', content }, ...extra });
const assistant = (id: string, blocks: object[], n: number, extra: object = {}) => ({ type: 'assistant', sessionId: 's1', timestamp: '2026-11-20T10:00:01.000Z', message: { id, role: 'assistant', model: 'claude-opus-5-5', content: blocks, usage: usage(n) }, ...extra });

function writeSession(dir: string, subReply = 'found it'): { main: string; sub: string } {
  const project = join(dir, 'projects', '-work-app');
  const subDir = join(project, 's1', 'subagents');
  mkdirSync(subDir, { recursive: true });
  const main = join(project, 's1.jsonl');
  writeFileSync(main, jsonl(user('fix it'), assistant('m1', [{ type: 'tool_use', id: 'toolu_agent', name: 'Agent', input: { prompt: 'look' } }], 1), user([{ type: 'tool_result', tool_use_id: 'toolu_agent', content: 'found it' }]), assistant('m2', [{ type: 'text', text: 'done' }], 2)));
  const sub = join(subDir, 'agent-a7.jsonl');
  writeFileSync(sub, jsonl(user('look', { isSidechain: true, agentId: 'a7' }), assistant('s1', [{ type: 'text', text: subReply }], 11, { isSidechain: true, agentId: 'a7' })));
  writeFileSync(join(subDir, 'agent-a7.meta.json'), JSON.stringify({ agentType: 'Explore', description: 'look around', toolUseId: 'toolu_agent' }));
  // A subagent whose meta file is missing still joins, without its launch link, where its time puts it (after everything here).
  writeFileSync(join(subDir, 'agent-b8.jsonl'), jsonl(user('other', { isSidechain: true, agentId: 'b8', timestamp: '2026-11-20T10:00:05.000Z' }), assistant('s2', [{ type: 'text', text: 'ok' }], 21, { isSidechain: true, agentId: 'b8', timestamp: '2026-11-20T10:00:06.000Z' })));
  return { main, sub };
}

describe('a Claude Code session with its subagent files', () => {
  const t = useTraceHost(['trace.imported']);
  const value = async <T,>(name: CommandName, args: unknown): Promise<T> => {
    const envelope = await t.host.connect(() => {}).call(name, args);
    if (!envelope.ok) throw new Error(`${name}: ${envelope.error.code} ${envelope.error.message}`);
    return envelope.value as T;
  };

  it('[trace-claude-subagents] the file importer reads the session with its subagents as one tree', () => {
    const { main, sub } = writeSession(t.tmp.dir);
    expect(isSubagentFile(sub)).toBe(true);
    expect(isSubagentFile(main)).toBe(false);
    expect(readSubagentFiles(main).map((s) => [s.agentId, s.parentCallId ?? null, s.label ?? null])).toEqual([
      ['a7', 'toolu_agent', 'Explore: look around'],
      ['b8', null, null],
    ]);
    const trace = importTraceFile(main);
    expect(trace.files).toEqual([main, sub, join(t.tmp.dir, 'projects', '-work-app', 's1', 'subagents', 'agent-b8.jsonl')]);
    const spawns = trace.events.filter((e) => e.type === 'subagent_spawn');
    expect(spawns.map((e) => e.agentId)).toEqual(['a7', 'b8']);
    expect(trace.events.filter((e) => e.type === 'usage').map((e) => [e.agentId ?? 'main', e.input])).toEqual([
      ['main', 1],
      ['a7', 11],
      ['main', 2],
      ['b8', 21],
    ]);
    // Alone, a subagent's file is its own run.
    expect(importTraceFile(sub).events.filter((e) => e.type === 'usage').map((e) => [e.agentId ?? 'main', e.input])).toEqual([['main', 11]]);
  });

  it('[trace-claude-subagents] [trace-import-idempotent] the host imports the tree as one trace; a changed subagent file is a new trace', async () => {
    const { main } = writeSession(t.tmp.dir);
    const first = await value<{ trace: TraceDto; alreadyImported: boolean }>('importTrace', { path: main });
    expect(first.alreadyImported).toBe(false);
    expect((await value<{ alreadyImported: boolean }>('importTrace', { path: main })).alreadyImported).toBe(true);
    const mainBefore = readFileSync(main, 'utf8');
    writeSession(t.tmp.dir, 'found something else');
    expect(readFileSync(main, 'utf8')).toBe(mainBefore);
    const second = await value<{ trace: TraceDto; alreadyImported: boolean }>('importTrace', { path: main });
    expect(second.alreadyImported).toBe(false);
    expect(second.trace.id).not.toBe(first.trace.id);
    expect(second.trace.eventCount).toBeGreaterThan(first.trace.steps);
  });
});
