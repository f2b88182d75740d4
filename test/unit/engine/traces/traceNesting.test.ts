import { describe, expect, it } from 'vitest';
import { importTraceText } from '../../../../engine/traces/importTrace';
import { jsonNestingBeyond, MAX_JSON_NESTING, parsedArguments } from '../../../../engine/traces/jsonText';
import { replayTrace } from '../../../../engine/traces/replay/replayTrace';
import { quarterTokenizer } from '../../../support/engineFixtures';
import { TraceImportError } from '../../../../engine/traces/TraceEvent';

const user = JSON.stringify({ type: 'user', uuid: 'u1', sessionId: 's', message: { role: 'user', content: 'hi' } });
/** An assistant line whose tool call input is nested `depth` arrays deep. */
const deepCall = (depth: number) =>
  `{"type":"assistant","uuid":"u2","sessionId":"s","message":{"id":"m1","model":"claude-x","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"a":${'['.repeat(depth)}${']'.repeat(depth)}}}],"usage":{"input_tokens":5,"output_tokens":3}}}`;

function refusal(run: () => unknown): TraceImportError {
  try {
    run();
  } catch (err) {
    if (err instanceof TraceImportError) return err;
    throw new Error(`expected a TraceImportError, got ${(err as Error).message}`);
  }
  throw new Error('expected a refusal, the import succeeded');
}

describe('[trace-nesting] deeply nested JSON is refused by name, with its line', () => {
  it('[trace-nesting] a Claude Code line nested 20,000 and 30,000 levels deep is a TraceImportError naming the file and line, not a stack overflow', () => {
    for (const depth of [20_000, 30_000]) {
      const err = refusal(() => importTraceText(`${user}\n${deepCall(depth)}\n${user}\n`, 'deep.jsonl'));
      expect(err.line).toBe(2);
      expect(err.message).toMatch(/^deep\.jsonl:2:\d+: JSON nested more than 1000 levels deep/);
    }
  });

  it('[trace-nesting] a JSON document nested too deep is refused at the line where the nesting crosses the limit', () => {
    const deep = `${'['.repeat(3000)}${']'.repeat(3000)}`;
    const doc = `{\n  "messages": [\n    {"role": "user", "content": "hi"},\n    {"role": "assistant", "content": "x", "extra": ${deep}}\n  ]\n}\n`;
    const err = refusal(() => importTraceText(doc, 'deep.json'));
    expect(err.line).toBe(4);
    expect(err.message).toMatch(/^deep\.json:4:\d+: JSON nested more than 1000 levels deep/);
  });

  it('[trace-nesting] nesting up to the limit imports; brackets inside strings do not count', () => {
    expect(importTraceText(`${user}\n${deepCall(MAX_JSON_NESTING - 5)}\n`, 'ok.jsonl').events.length).toBeGreaterThan(0);
    const inString = JSON.stringify({ ...JSON.parse(user), message: { role: 'user', content: '['.repeat(50_000) } });
    expect(importTraceText(`${inString}\n`, 'ok.jsonl').events).toHaveLength(1);
    expect(jsonNestingBeyond('{"a":"[[[[\\"[["}', 0, 16, 2)).toBe(-1);
    expect(jsonNestingBeyond('[[[1]]]', 0, 7, 2)).toBe(2);
    expect(jsonNestingBeyond('[[[1]]]', 0, 7, 3)).toBe(-1);
    // The scan jumps over strings; on any text it agrees with reading every character.
    const reference = (text: string, start: number, end: number, limit: number): number => {
      let depth = 0;
      for (let k = start; k < end; k++) {
        const c = text[k];
        if (c === '"') {
          for (k++; k < end && text[k] !== '"'; k++) if (text[k] === '\\') k++;
        } else if (c === '[' || c === '{') {
          if (++depth > limit) return k;
        } else if (c === ']' || c === '}') depth--;
      }
      return -1;
    };
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let n = 0; n < 5_000; n++) {
      const text = Array.from({ length: 1 + Math.floor(random() * 24) }, () => '[]{}"\\a'[Math.floor(random() * 7)]).join('');
      const start = Math.floor(random() * 3);
      const end = Math.max(start, text.length - Math.floor(random() * 3));
      const limit = Math.floor(random() * 4);
      expect(jsonNestingBeyond(text, start, end, limit), JSON.stringify({ text, start, end, limit })).toBe(reference(text, start, end, limit));
    }
  });
});

describe('[trace-nesting] tool arguments nested deep inside a JSON string', () => {
  it('[trace-nesting] a Codex call whose arguments text nests 30,000 deep imports (the line itself is shallow) and replays, its arguments read as text', () => {
    const deep = `{"path":"a.ts","x":${'['.repeat(30_000)}${']'.repeat(30_000)}}`;
    const at = (s: number) => `2026-11-30T00:00:${String(s).padStart(2, '0')}.000Z`;
    const line = (type: string, payload: object, s: number) => JSON.stringify({ timestamp: at(s), type, payload });
    const text = [
      line('session_meta', { id: 'm' }, 0),
      line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] }, 1),
      line('response_item', { type: 'function_call', name: 'shell', call_id: 'c1', arguments: deep }, 2),
      line('token_usage_record', { response_id: 'r0', usage: { input_tokens: 10, cached_input_tokens: 0, output_tokens: 1 } }, 2),
      line('response_item', { type: 'function_call_output', call_id: 'c1', output: 'ok' }, 3),
      line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'done' }] }, 4),
      line('token_usage_record', { response_id: 'r1', usage: { input_tokens: 20, cached_input_tokens: 0, output_tokens: 1 } }, 4),
    ].join('\n');
    const events = importTraceText(`${text}\n`, 'deep-args.jsonl').events;
    expect(events.find((e) => e.type === 'tool_call')).toMatchObject({ arguments: deep });
    expect(parsedArguments(deep)).toBe(deep);
    expect(parsedArguments('{"path":"a.ts"}')).toEqual({ path: 'a.ts' });
    const result = replayTrace(events, { strategy: 'variable', budget: 32_000, provider: 'openai', tokenizer: quarterTokenizer, timer: () => 0 });
    expect(result.steps).toHaveLength(2);
  });
});

