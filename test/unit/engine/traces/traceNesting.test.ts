import { describe, expect, it } from 'vitest';
import { importTraceText } from '../../../../engine/traces/importTrace';
import { jsonNestingBeyond, MAX_JSON_NESTING } from '../../../../engine/traces/jsonText';
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
  });
});
