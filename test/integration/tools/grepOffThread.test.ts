import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkspaceTools } from '../../../engine/node/tools/registry';
import { DEFAULT_TOOLS_CONFIG } from '../../../engine/node/tools/toolsConfig';
import type { GrepMeta, ToolErrorMeta, ToolResult } from '../../../engine/node/tools/types';
import { makeWorkspace, type Fixture } from './workspaceFixture';

let fx: Fixture | undefined;
afterEach(() => {
  fx?.remove();
  fx = undefined;
});

const CATASTROPHIC = '^(a+)+$';
/** A line on which CATASTROPHIC backtracks about 2^40 times: it runs until the watchdog stops it. */
const EVIL_LINE = `${'a'.repeat(40)}!`;
const errorCode = (r: ToolResult) => (r.meta as ToolErrorMeta).error;
let n = 0;
const grepCall = (args: unknown) => ({ id: `call-${++n}`, name: 'grep', arguments: JSON.stringify(args) });

describe('grep matches regular expressions off the host thread', () => {
  it('[grep-off-thread] while a catastrophic pattern runs, the event loop keeps turning; the pattern still ends as a clear error', async () => {
    fx = makeWorkspace({ 'evil.txt': `${EVIL_LINE}\n`, 'fine.txt': 'aaa\n' });
    const budgetMs = 3000;
    const tools = createWorkspaceTools(fx.root, DEFAULT_TOOLS_CONFIG, { regexSliceMs: budgetMs });
    // A timer due halfway through the slice's budget: it can fire before grep answers only if the
    // thread is free while the pattern runs (a watchdog on this thread holds it for the whole budget).
    let grepAnswered = false;
    let timerFiredFirst: boolean | undefined;
    const timer = setTimeout(() => {
      timerFiredFirst = !grepAnswered;
    }, budgetMs / 2);
    const r = await tools.call(grepCall({ pattern: CATASTROPHIC }));
    grepAnswered = true;
    clearTimeout(timer);
    expect([r.isError, errorCode(r)]).toEqual([true, 'pattern_timeout']);
    expect(r.content).toContain(`ran longer than ${budgetMs} ms`);
    expect(r.content).toContain('fixed: true');
    expect(timerFiredFirst).toBe(true);
  }, 60_000);

  it('[grep-off-thread] a grep cancelled while its pattern runs answers "cancelled" without waiting for the watchdog', async () => {
    fx = makeWorkspace({ 'evil.txt': `${EVIL_LINE}\n` });
    // A budget no test waits for: only a cancellation that reaches the running match ends it early.
    const tools = createWorkspaceTools(fx.root, DEFAULT_TOOLS_CONFIG, { regexSliceMs: 45_000 });
    const controller = new AbortController();
    const abort = setTimeout(() => controller.abort(), 200);
    const r = await tools.call(grepCall({ pattern: CATASTROPHIC }), { signal: controller.signal });
    clearTimeout(abort);
    expect([r.isError, errorCode(r)]).toEqual([true, 'cancelled']);
    expect(r.content).toBe('grep was cancelled.');
  }, 120_000);

  it('[grep-off-thread] matches across several slices come back in walk order, stopping at max_results, as one thread would give them', async () => {
    const files: Record<string, string> = {};
    // More files than one slice holds (256), so matching takes several round trips.
    for (let i = 0; i < 600; i++) files[`src/f${String(i).padStart(3, '0')}.ts`] = `const a${i} = 1;\nexport const hit${i} = a${i};\n`;
    fx = makeWorkspace(files);
    const tools = createWorkspaceTools(fx.root);
    const all = await tools.call(grepCall({ pattern: '^export const hit\\d+', max_results: 1000 }));
    expect(all.isError).toBe(false);
    expect((all.meta as GrepMeta).hits).toEqual(Array.from({ length: 600 }, (_, i) => ({ file: `src/f${String(i).padStart(3, '0')}.ts`, line: 2 })));
    const some = await tools.call(grepCall({ pattern: 'HIT(29[5-9]|30\\d)', ignore_case: true, max_results: 10 }));
    expect(some.content.split('\n')).toEqual([
      ...[295, 296, 297, 298, 299, 300, 301, 302, 303, 304].map((i) => `src/f${i}.ts:2: export const hit${i} = a${i};`),
      '[stopped at max_results=10; there are more matches: narrow the pattern, path or glob]',
    ]);
  }, 60_000);

  it('[grep-off-thread] a slice that matches nothing and a benign pattern after a catastrophic one work with the same tools', async () => {
    fx = makeWorkspace({ 'evil.txt': `${EVIL_LINE}\n`, 'ok.txt': 'needle\n' });
    const tools = createWorkspaceTools(fx.root, DEFAULT_TOOLS_CONFIG, { regexSliceMs: 1000 });
    expect(errorCode(await tools.call(grepCall({ pattern: CATASTROPHIC })))).toBe('pattern_timeout');
    const after = await tools.call(grepCall({ pattern: 'ne+dle' }));
    expect([after.isError, after.content]).toEqual([false, 'ok.txt:1: needle']);
    writeFileSync(join(fx.root, 'ok.txt'), 'nothing here\n');
    const none = await tools.call(grepCall({ pattern: 'ne+dle' }));
    expect([none.isError, none.content]).toEqual([false, 'No matches for "ne+dle" in the workspace (2 files searched).']);
  }, 60_000);

  it('[grep-off-thread] a benign search running beside a catastrophic one on the same tools answers with its matches', async () => {
    fx = makeWorkspace({ 'evil.txt': `${EVIL_LINE}\n`, 'ok.txt': 'needle\n' });
    const tools = createWorkspaceTools(fx.root, DEFAULT_TOOLS_CONFIG, { regexSliceMs: 3000 });
    const [bad, good] = await Promise.all([tools.call(grepCall({ pattern: CATASTROPHIC })), tools.call(grepCall({ pattern: 'ne+dle', path: 'ok.txt' }))]);
    expect(errorCode(bad)).toBe('pattern_timeout');
    expect([good.isError, good.content]).toEqual([false, 'ok.txt:1: needle']);
  }, 60_000);

  it('[grep-off-thread] back-to-back searches reuse a worker without piling up listeners on it', async () => {
    fx = makeWorkspace({ 'a.txt': 'alpha\nbeta\n' });
    const tools = createWorkspaceTools(fx.root);
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    try {
      for (let i = 0; i < 25; i++) expect((await tools.call(grepCall({ pattern: i % 2 === 0 ? 'al?pha' : 'be+ta' }))).content).toBe(i % 2 === 0 ? 'a.txt:1: alpha' : 'a.txt:2: beta');
      // Warnings are emitted on the next turn of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((w) => w.includes('MaxListenersExceeded'))).toEqual([]);
  }, 60_000);
});
