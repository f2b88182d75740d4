import { describe, expect, it } from 'vitest';
import type { Tokenizer } from '../../../../../engine/tokens/Tokenizer';
import { ContentRecall, holdsContent } from '../../../../../engine/traces/replay/contentRecall';
import { contentLines, isContentLine, normaliseLine } from '../../../../../engine/traces/replay/contentLines';
import { editOldSide } from '../../../../../engine/traces/replay/editOldSide';
import { neededContent, recordedRereads, type NeededContent } from '../../../../../engine/traces/replay/neededContent';
import { RequestLines } from '../../../../../engine/traces/replay/requestLines';
import { replayAsRecorded, replayFullHistoryBaseline } from '../../../../../engine/traces/replay/replayTranscript';
import { replayTotals } from '../../../../../engine/traces/replay/replayTotals';
import type { StepMetrics } from '../../../../../engine/traces/replay/ReplayTypes';
import type { TraceEvent } from '../../../../../engine/traces/TraceEvent';

const source = { file: 'made-up.jsonl', line: 1 };
const user = (text: string): TraceEvent => ({ type: 'user_input', text, source });
const say = (text: string, step: number): TraceEvent => ({ type: 'assistant_text', text, step, source });
const call = (callId: string, name: string, args: Record<string, unknown>, step: number): TraceEvent => ({ type: 'tool_call', callId, name, arguments: JSON.stringify(args), step, source });
const result = (callId: string, content: string, isError = false): TraceEvent => ({ type: 'tool_result', callId, content, isError, source });
const compaction = (summary: string): TraceEvent => ({ type: 'compaction', summary, source });
const quarter: Tokenizer = { encoding: 'quarter', count: (t) => Math.ceil(t.length / 4) };
const baseline = { provider: 'anthropic' as const, tokenizer: quarter };

/** A file as Claude Code's Read returns it: `N→` before each line. */
const numbered = (lines: readonly string[], from = 1) => lines.map((l, i) => `${String(from + i).padStart(6)}→${l}`).join('\n');
const STORE = ['export function saveToken(token: string) {', '  const stored = encrypt(token);', '  localStorage.setItem(TOKEN_KEY, stored);', '  return stored;', '}'];
/** Its content lines, normalised: the `}` line is none. */
const STORE_LINES = ['export function saveToken(token: string) {', 'const stored = encrypt(token);', 'localStorage.setItem(TOKEN_KEY, stored);', 'return stored;'];

describe('[replay-recall] content lines', () => {
  it.each([
    ['     12→  const x = compute(value);', 'const x = compute(value);', true],
    ['12\treturn stored;', 'return stored;', true],
    ['src/auth/store.ts:12:  return stored;', 'return stored;', true],
    ['src/auth/store.ts-13-  return stored;', 'return stored;', true],
    ['1:import re', 'import re', true],
    ['  a   b    c  d e f g h  ', 'a b c d e f g h', true],
    ['}', '}', false],
    ['  } else {', '} else {', false],
    ['});', '});', false],
    ['</div>', '</div>', false],
    ['Exit code: 0', 'Exit code: 0', false],
    ['<returncode>0</returncode>', '<returncode>0</returncode>', false],
    ['Wall time: 3.2 seconds', 'Wall time: 3.2 seconds', false],
  ])('[replay-recall] %j normalises to %j, content: %s', (raw, normalised, content) => {
    expect(normaliseLine(raw)).toBe(normalised);
    expect(isContentLine(normaliseLine(raw))).toBe(content);
  });

  it('[replay-recall] a result gives its distinct content lines, without client reminders or frame lines', () => {
    const text = `Exit code: 0\nOutput:\n${numbered(STORE)}\n${numbered(STORE)}\n<system-reminder>\nWhenever you read a file, consider whether it is malware.\n</system-reminder>`;
    expect(contentLines(text)).toEqual(STORE_LINES);
    expect(contentLines('}\n  }\n});\n')).toEqual([]);
  });
});

describe('[replay-recall] the lines a request holds', () => {
  it('[replay-recall] holds a line whatever prefix or escaping shows it: a read, a search hit, JSON-escaped call arguments, a patch line', () => {
    const lines = new RequestLines().update(
      [
        'tool r1',
        numbered(STORE),
        'src/auth/store.ts:3:  localStorage.setItem(TOKEN_KEY, stored);',
        'assistant',
        'e1 Edit {"old_string":"  const stored = encrypt(token);\\n  return stored;","new_string":"  const sealed = sealToken(token);"}',
        '+export const TOKEN_KEY = readKeyName();',
      ].join('\n'),
    );
    for (const l of [...STORE_LINES, 'const sealed = sealToken(token);', 'export const TOKEN_KEY = readKeyName();']) expect(lines.has(l), l).toBe(true);
    expect(lines.has('}')).toBe(false);
    expect(lines.has('export const TOKEN_KEY = otherKeyName();')).toBe(false);
  });

  it('[replay-recall] an update keeps the lines of the shared prefix, drops those only the previous text had, and counts copies', () => {
    const lines = new RequestLines();
    lines.update('system prompt here\nthe first observation line\nthe second observation line\nGeneration 1 status tail');
    lines.update('system prompt here\nthe first observation line\nthe first observation line\nGeneration 2 status tail');
    expect([lines.has('the first observation line'), lines.has('the second observation line'), lines.has('Generation 1 status tail'), lines.has('Generation 2 status tail')]).toEqual([true, false, false, true]);
    lines.update('system prompt here\nthe first observation line\nGeneration 3 status tail');
    expect(lines.has('the first observation line')).toBe(true);
    lines.update('a different request altogether');
    expect([lines.has('the first observation line'), lines.has('a different request altogether')]).toEqual([false, true]);
  });

  const ref = (lines: string[], extra: Partial<NeededContent> = {}): NeededContent => ({ kind: 'read', lines, ...extra });
  const five = ['alpha line number one', 'beta line number two', 'gamma line number three', 'delta line number four', 'epsilon line number five'];
  it.each([
    ['every line', five, true],
    ['4 of 5 lines (80%)', five.slice(0, 4), true],
    ['3 of 5 lines', five.slice(0, 3), false],
    ['no line', [], false],
  ])('[replay-recall] a reference whose request holds %s is held: %s', (_what, present, held) => {
    const text = present.join('\n');
    expect(holdsContent(ref(five), new RequestLines().update(text), text)).toBe(held);
  });

  it('[replay-recall] an edit whose old text starts or ends inside a line is held when the request has that text', () => {
    const edit = ref(['stored = encrypt(token)'], { kind: 'edit', fragments: [{ line: 'stored = encrypt(token)', text: 'stored = encrypt(token)' }] });
    const text = numbered(STORE);
    expect(holdsContent(edit, new RequestLines().update(text), text)).toBe(true);
    expect(holdsContent({ ...edit, fragments: [] }, new RequestLines().update(text), text)).toBe(false);
  });
});

describe("[replay-recall] an edit's old side", () => {
  const args = (a: unknown) => JSON.stringify(a);
  it.each([
    ['an Edit: its old_string', args({ file_path: 'a.ts', old_string: '  const stored = encrypt(token);\n}', new_string: 'x' }), ['const stored = encrypt(token);']],
    ['a MultiEdit: every old_string', args({ file_path: 'a.ts', edits: [{ old_string: 'return stored;', new_string: 'x' }, { old_string: 'localStorage.clear();', new_string: 'y' }] }), ['return stored;', 'localStorage.clear();']],
    ['an apply_patch: context and removed lines, not added ones', args({ input: '*** Begin Patch\n*** Update File: a.ts\n@@\n export function saveToken() {\n-  return encrypt(token);\n+  return seal(token);\n }\n*** End Patch' }), ['export function saveToken() {', 'return encrypt(token);']],
    ['a patch that only adds a file', args({ input: '*** Begin Patch\n*** Add File: b.ts\n+export const fresh = makeFresh();\n*** End Patch' }), undefined],
    ['a Write: none', args({ file_path: 'a.ts', content: 'export const whole = newFile();' }), undefined],
    ['an empty old_string: none', args({ file_path: 'a.ts', old_string: '', new_string: 'export const created = 1;' }), undefined],
    ['an old_string of only braces: none', args({ file_path: 'a.ts', old_string: '  }\n}', new_string: '}' }), undefined],
  ])('[replay-recall] %s', (_what, text, lines) => {
    expect(editOldSide(text)?.lines).toEqual(lines);
  });
});

/** A session that reads, edits, names things, writes a new file, fails a test and cites it. */
function session(): TraceEvent[] {
  return [
    user('Fix saveToken in src/auth/store.ts so that tests pass.'),
    call('r1', 'Read', { file_path: 'src/auth/store.ts' }, 0),
    result('r1', numbered(STORE)),
    call('e1', 'Edit', { file_path: 'src/auth/store.ts', old_string: '  const stored = encrypt(token);\n  localStorage.setItem(TOKEN_KEY, stored);', new_string: '  const stored = seal(token);' }, 1),
    result('e1', 'The file has been updated.'),
    say('Now src/auth/store.ts and saveToken look right; listing the folder.', 2),
    call('l1', 'Bash', { command: 'ls src/auth' }, 2),
    result('l1', 'store.ts\nstore.test.ts'),
    call('w1', 'Write', { file_path: 'src/auth/seal.ts', content: 'export function seal(token: string) {\n  return btoa(token);\n}' }, 3),
    result('w1', 'File created successfully.'),
    call('t1', 'Bash', { command: 'npm test' }, 4),
    result('t1', 'FAIL src/auth/store.test.ts\n  ✕ test_save_token_encrypts (4 ms)\n    AssertionError: expected "c2VjcmV0" to equal "sealed:secret"\n1 failed', true),
    say('test_save_token_encrypts fails: the seal is plain base64.', 5),
    call('e2', 'Edit', { file_path: 'src/auth/seal.ts', old_string: '  return btoa(token);', new_string: "  return 'sealed:' + token;" }, 5),
    result('e2', 'The file has been updated.'),
  ];
}

describe('[replay-recall] what each recorded step needs', () => {
  const steps = neededContent(session()).steps;

  it.each([
    [0, 'a read: the lines its result returned', [{ kind: 'read', lines: STORE_LINES }]],
    [1, "an edit: its old text's lines", [{ kind: 'edit', lines: ['const stored = encrypt(token);', 'localStorage.setItem(TOKEN_KEY, stored);'] }]],
    [2, 'paths, symbols and an ls: nothing (a name alone is no reference)', []],
    [3, 'a new file: nothing', []],
    [4, 'a test run: nothing', []],
  ])('[replay-recall] step %i, %s', (index, _what, expected) => {
    expect((steps[index] ?? []).map((r) => ({ kind: r.kind, lines: r.lines }))).toEqual(expected);
  });

  it('[replay-recall] a step citing an earlier failure by its test name needs the failure lines it names; its edit needs the old line', () => {
    expect((steps[5] ?? []).map((r) => ({ kind: r.kind, lines: r.lines }))).toEqual([
      { kind: 'edit', lines: ['return btoa(token);'] },
      { kind: 'failure', lines: ['✕ test_save_token_encrypts (4 ms)'] },
    ]);
  });

  it('[replay-recall] quoting a failure message cites it; an action that names neither test nor message cites nothing', () => {
    const ev = session().slice(0, 12);
    const quoting = neededContent([...ev, say('It says expected "c2VjcmV0" to equal "sealed:secret" here.', 5)]).steps[5] ?? [];
    expect(quoting.map((r) => r.lines)).toEqual([['AssertionError: expected "c2VjcmV0" to equal "sealed:secret"']]);
    expect(neededContent([...ev, say('Something else entirely.', 5)]).steps[5]).toEqual([]);
  });

  it('[replay-recall] a command that re-runs the failing test by name cites it; the failure it has not seen yet is not cited', () => {
    const failing = 'FAILED tests/test_auth.py::test_login_rejects_stale - assert 401 == 200\n1 failed, 3 passed';
    const ev: TraceEvent[] = [user('Fix the login.'), call('t1', 'Bash', { command: 'pytest tests' }, 0), result('t1', failing), call('t2', 'Bash', { command: 'pytest tests/test_auth.py::test_login_rejects_stale' }, 1), result('t2', failing)];
    const steps = neededContent(ev).steps;
    expect(steps[1]).toEqual([{ kind: 'failure', lines: ['FAILED tests/test_auth.py::test_login_rejects_stale - assert 401 == 200'] }]);
    // Step 0 runs the tests before anything failed.
    expect(steps[0]).toEqual([]);
  });

  it('[replay-recall] the full history holds an edit of what it read and a failure it saw, never a first read: per step and pooled', () => {
    const r = replayFullHistoryBaseline(session(), baseline);
    expect(r.steps.map((s) => [s.references, s.referencesHeld])).toEqual([
      [1, 0],
      [1, 1],
      [0, 0],
      [0, 0],
      [0, 0],
      [2, 2],
    ]);
    // Per step: the mean of 0, 1 and 1; pooled: 3 of 4 references.
    expect(r.totals.neededReferenceRecall).toBeCloseTo(2 / 3, 12);
    expect(r.totals.pooledReferenceRecall).toBe(0.75);
  });

  it('[replay-recall] the old line of an edit of a file the agent wrote is held through the Write\'s JSON-escaped arguments, and not without them', () => {
    const ev = session();
    const step5 = neededContent(ev).steps[5]!;
    const edit = step5.find((r) => r.kind === 'edit')!;
    const withWrite = `assistant\nw1 Write ${JSON.stringify({ file_path: 'src/auth/seal.ts', content: 'export function seal(token: string) {\n  return btoa(token);\n}' })}`;
    expect(holdsContent(edit, new RequestLines().update(withWrite), withWrite)).toBe(true);
    expect(holdsContent(edit, new RequestLines().update('assistant\nw1 Write {"file_path":"src/auth/seal.ts"}'), '')).toBe(false);
  });
});

describe('[replay-totals] recall pooled and per step', () => {
  const step = (references: number, referencesHeld: number): StepMetrics =>
    ({ index: 0, step: 0, at: 0, promptTokens: 0, prefixTokens: 0, promptBytes: 0, reusedBytes: 0, prefixReuse: 0, input: 0, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, output: 0, references, referencesHeld, ...(references > 0 ? { neededReferenceRecall: referencesHeld / references } : {}), rereadsForced: references - referencesHeld, toolResults: 0, orphanedToolResults: 0, generation: 1, refreshes: 0, limitRefreshes: 0, overBudget: false, recordedOverWindow: false, overheadMs: 0, tokenizeMs: 0 }) as StepMetrics;

  it('[replay-totals] pooled is held over needed of all steps, per step the mean of the steps that need content', () => {
    const t = replayTotals([step(4, 1), step(0, 0), step(1, 1)]);
    expect([t.references, t.referencesHeld, t.pooledReferenceRecall, t.neededReferenceRecall, t.rereadsForced]).toEqual([5, 2, 0.4, 0.625, 3]);
  });
});

describe('[replay-rereads] re-reads', () => {
  /** Read, a compaction that keeps only its summary, read the same file again. */
  const compacted: TraceEvent[] = [
    user('Fix saveToken in src/auth/store.ts.'),
    call('r1', 'Read', { file_path: 'src/auth/store.ts' }, 0),
    result('r1', numbered(STORE)),
    say('Read it; thinking.', 1),
    compaction('Summary: the user wants saveToken fixed.'),
    call('r2', 'Read', { file_path: 'src/auth/store.ts' }, 2),
    result('r2', numbered(STORE)),
  ];

  it('[replay-rereads] the recording re-read a file after a compaction; the full history still holds it (forces none), the compacted context does not (forces one)', () => {
    expect(recordedRereads(compacted)).toBe(1);
    expect(neededContent(compacted).steps[2]).toEqual([{ kind: 'read', lines: STORE_LINES, reread: true }]);
    const full = replayFullHistoryBaseline(compacted, baseline);
    const asRecorded = replayAsRecorded(compacted, baseline);
    expect(full.steps.map((s) => s.rereadsForced)).toEqual([0, 0, 0]);
    expect(asRecorded.steps.map((s) => s.rereadsForced)).toEqual([0, 0, 1]);
    expect([full.totals.rereadsForced, asRecorded.totals.rereadsForced]).toEqual([0, 1]);
  });

  const read = (id: string, step: number, args: Record<string, unknown>, content = numbered(STORE)): TraceEvent[] => [call(id, 'Read', { file_path: 'src/auth/store.ts', ...args }, step), result(id, content)];
  it.each([
    ['the same file again', [...read('a', 0, {}), ...read('b', 1, {})], 1],
    ['a range inside one read before', [...read('a', 0, { offset: 1, limit: 100 }), ...read('b', 1, { offset: 2, limit: 3 }, numbered(STORE.slice(1, 4), 2))], 1],
    ['a wider range than read before', [...read('a', 0, { offset: 2, limit: 3 }, numbered(STORE.slice(1, 4), 2)), ...read('b', 1, {})], 0],
    ['the same file after its own edit', [...read('a', 0, {}), call('e', 'Edit', { file_path: 'src/auth/store.ts', old_string: '  return stored;', new_string: '  return sealed;' }, 1), result('e', 'ok'), ...read('b', 2, {})], 0],
    ['a log that grew (content not seen before)', [...read('a', 0, {}, 'build step one finished\n'), ...read('b', 1, {}, 'build step two finished\nbuild step three finished\n')], 0],
    ['a shell read of the same lines as the Read before', [...read('a', 0, {}), call('b', 'Bash', { command: "sed -n '2,4p' src/auth/store.ts" }, 1), result('b', STORE.slice(1, 4).join('\n'))], 1],
    ['a read whose first result was an error', [...read('a', 0, {}, 'File does not exist.').map((e) => (e.type === 'tool_result' ? { ...e, isError: true } : e)), ...read('b', 1, {})], 0],
  ])('[replay-rereads] %s: %s re-read(s)', (_what, events, rereads) => {
    expect(recordedRereads([user('Look at src/auth/store.ts.'), ...events])).toBe(rereads);
  });

  it('[replay-rereads] ContentRecall counts a re-read as forced only when the request does not hold its content', () => {
    const recall = new ContentRecall(compacted);
    expect(recall.at(2, undefined, numbered(STORE))).toEqual({ references: 1, referencesHeld: 1, rereadsForced: 0 });
    expect(recall.at(2, undefined, 'Summary: the user wants saveToken fixed.')).toEqual({ references: 1, referencesHeld: 0, rereadsForced: 1 });
    expect(recall.at(1, undefined, 'anything')).toEqual({ references: 0, referencesHeld: 0, rereadsForced: 0 });
  });
});
