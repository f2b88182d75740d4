import { describe, expect, it } from 'vitest';
import type { HistoryMessage } from '../../../../engine/conversation/Message';
import { parentReport, REPORT_MAX_TOKENS } from '../../../../engine/runtime/parentReport';
import { authTranscript, bigGrep, quarter, type TranscriptMessage } from '../compress/fixtures';

/** The fixture as the history a finished worker's ContextManager holds (tool results answer the calls before them). */
function history(messages: readonly TranscriptMessage[]): HistoryMessage[] {
  let call = 0;
  return messages.map((m, i): HistoryMessage => {
    if (m.role === 'user') return { id: `m${i}`, role: 'user', content: m.content };
    if (m.role === 'assistant') return { id: `m${i}`, role: 'assistant', content: m.content, toolCalls: [] };
    call += 1;
    return { id: `m${i}`, role: 'tool', toolCallId: `c${call}`, content: m.content, isError: false };
  });
}

const input = (transcript: readonly TranscriptMessage[], files: readonly string[] = ['src/auth/refresh.ts']) => ({
  child: { agentId: 'worker-1', taskId: 'task-auth', task: 'Fix the skew-window refresh.' },
  parentId: 'primary',
  transcript: history(transcript),
  finalText: transcript.at(-1)?.content ?? '',
  files,
  at: 1_000,
  countTokens: quarter,
});

describe('[parent-report] [compress-meaning] the report a finished worker sends its parent', () => {
  it('[compress-meaning] names the exact path, the root cause, the verification and the open risk, addressed to the parent only', () => {
    const r = parentReport(input(authTranscript));
    expect(r).toMatchObject({ kind: 'report', source: 'parent_report', agentId: 'worker-1', taskId: 'task-auth', audience: 'primary', at: 1_000 });
    expect(r.content).toContain('Task: Fix the skew-window refresh.');
    expect(r.content).toContain('src/auth/refresh.ts');
    expect(r.content).toMatch(/Root cause: exp \(seconds\) was compared with Date\.now\(\) \(milliseconds\)/);
    expect(r.content).toContain('src/mobile/authBridge.ts');
    expect(r.content).toContain('npm test -- test/auth');
    const lastWords = 'Fixed the skew-window refresh bug in src/auth/refresh.ts. Verified with `npm test -- test/auth`: 18 passed.';
    expect(r.title).toBe(`Report of worker-1: ${lastWords.slice(0, 120)}`);
  });

  it('[parent-report] carries no raw tool output: the grep dump does not reach the parent', () => {
    const r = parentReport(input(authTranscript));
    expect(r.content).not.toContain('const label17 = format(value17, options);');
    expect(bigGrep).toContain('const label17 = format(value17, options);');
  });
});

describe('[report-caps] a report from a huge transcript respects every cap', () => {
  const huge: TranscriptMessage[] = Array.from({ length: 40 }, () => authTranscript).flat();
  const files = Array.from({ length: 60 }, (_, i) => `src/module${i % 30}/file${i % 30}.ts`);

  it(`[report-caps] the summary stays within ${REPORT_MAX_TOKENS} tokens, the title line within 120 characters of the last words, the files at 20 distinct`, () => {
    const r = parentReport({ ...input(huge, files), finalText: 'x'.repeat(500) + '\nsecond line' });
    const summary = r.content.slice(r.content.indexOf('\n') + 1);
    expect(quarter(summary)).toBeLessThanOrEqual(REPORT_MAX_TOKENS);
    expect(r.title).toBe(`Report of worker-1: ${'x'.repeat(120)}`);
    expect(r.files).toEqual([...new Set(files)].slice(0, 20));
  });
});

describe('[report-render-stable] the same transcript gives the same report', () => {
  it('[report-render-stable] byte-identical title and content, with no time or id in the text', () => {
    const first = parentReport(input(authTranscript));
    const again = parentReport({ ...input(structuredClone(authTranscript)), at: 99_999 });
    expect([again.title, again.content]).toEqual([first.title, first.content]);
    expect(first.content).not.toContain('1000');
  });
});
