import { describe, expect, it } from 'vitest';
import { importErrorText } from '../../../../../renderer/store/traces/importErrorText';

describe('importErrorText', () => {
  it.each([
    ['an empty file refused by the argument check', { code: 'invalid_args', message: 'Invalid arguments for "importTraceContent": content: the file is empty', issues: [{ path: 'content', message: 'the file is empty' }] }, 's.jsonl is empty: there is nothing in it to import.'],
    ['a file over the content cap', { code: 'invalid_args', message: 'Invalid arguments for "importTraceContent": content: traces up to 16 MiB…', issues: [{ path: 'content', message: 'traces up to 16 MiB can be imported by content' }] }, 's.jsonl is too large to import here (up to 16 MiB); import it by its path with strata import.'],
    ['a name the check refused', { code: 'invalid_args', message: 'Invalid arguments for "importTraceContent": name: too long', issues: [{ path: 'name', message: 'String must contain at most 255 character(s)' }] }, 'The file’s name is empty or longer than 255 characters; rename it and import it again.'],
    ['a line that is not JSON', { code: 'invalid_args', message: 'upload:s.jsonl:12:4: line is not valid JSON: unexpected end' }, 's.jsonl is not valid JSON at line 12; the file may be cut short or not a trace.'],
    ['an unknown format', { code: 'invalid_args', message: 'upload:s.jsonl:3: unrecognised trace format: this line fits none of the formats tried (…)' }, 's.jsonl is not a trace Strata reads: line 3 fits none of the formats it knows (Claude Code, Codex, Gemini CLI, OpenCode, OpenAI messages, SWE-agent or ATIF).'],
    ['a trace with no model call', { code: 'invalid_args', message: 'upload:s.jsonl:1: the trace records no LLM call, so there is nothing to replay.' }, 's.jsonl records no call to a model, so there is nothing to replay.'],
    ['an importer refusal of one record', { code: 'invalid_args', message: 'upload:s.jsonl:7: tool_use block has no id' }, 's.jsonl is not a trace Strata can read: at line 7, tool_use block has no id.'],
    ['the host without its catalog', { code: 'unavailable', message: 'The catalog is closed.' }, 'The host could not store s.jsonl right now; try again once it is back.'],
  ])('[trace-import-content] says what is wrong with the file in words: %s', (_, err, text) => {
    const said = importErrorText('s.jsonl', err);
    expect(said).toBe(text);
    expect(said).not.toMatch(/importTraceContent|Invalid arguments|upload:|content:/);
  });

  it('never passes on a command name from a message it does not know', () => {
    expect(importErrorText('s.jsonl', { code: 'internal', message: '"importTraceContent" failed: disk full' })).toBe('s.jsonl could not be imported: disk full.');
  });
});
