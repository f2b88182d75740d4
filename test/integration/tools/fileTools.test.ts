import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWorkspaceTools, type ToolRegistry } from '../../../engine/node/tools/registry';
import { DEFAULT_TOOLS_CONFIG } from '../../../engine/node/tools/toolsConfig';
import type { GrepMeta, ListFilesMeta, ReadFileMeta, ToolErrorMeta, ToolResult } from '../../../engine/node/tools/types';
import { makeWorkspace, PROJECT, type Fixture } from './workspaceFixture';

const mkfifoSync = (path: string) => execFileSync('mkfifo', [path]);

let fx: Fixture;
let tools: ToolRegistry;
let n = 0;

beforeEach(() => {
  fx = makeWorkspace(PROJECT);
  tools = createWorkspaceTools(fx.root);
});
afterEach(() => fx.remove());

const call = (name: string, args: unknown, registry = tools) => registry.call({ id: `call-${++n}`, name, arguments: JSON.stringify(args) });
const errorCode = (r: ToolResult) => (r.meta as ToolErrorMeta).error;

describe('list_files', () => {
  it('[tools] lists the root depth-first in name order, folders with /, skipping .git, node_modules and .strata', async () => {
    const r = await call('list_files', {});
    expect(r.isError).toBe(false);
    expect(r.content.split('\n')).toEqual(['README.md', 'package.json', 'src/', 'src/auth/', 'src/index.ts', 'test/', 'test/refresh.test.ts']);
    expect(r.meta).toEqual<ListFilesMeta>({ tool: 'list_files', path: '.', depth: 2, entries: 7, truncated: false });
  });

  it('[tools] depth and path select the part listed; a file lists itself; links end with @ and are not followed', async () => {
    symlinkSync(fx.outside, join(fx.root, 'src', 'outlink'));
    expect((await call('list_files', { path: 'src', depth: 1 })).content.split('\n')).toEqual(['src/auth/', 'src/index.ts', 'src/outlink@']);
    expect((await call('list_files', { path: 'src', depth: 3 })).content.split('\n')).toEqual([
      'src/auth/',
      'src/auth/refresh.ts',
      'src/auth/store.ts',
      'src/index.ts',
      'src/outlink@',
    ]);
    expect((await call('list_files', { path: 'src/index.ts' })).content).toBe('src/index.ts');
    mkdirSync(join(fx.root, 'empty'));
    expect((await call('list_files', { path: 'empty' })).content).toBe('(empty/ is empty)');
  });

  it('[tools] the listing is capped and says so', async () => {
    for (let i = 0; i < 30; i++) writeFileSync(join(fx.root, `f${String(i).padStart(2, '0')}.txt`), '');
    const capped = createWorkspaceTools(fx.root, DEFAULT_TOOLS_CONFIG, { listMaxEntries: 10 });
    const r = await call('list_files', { depth: 1 }, capped);
    const lines = r.content.split('\n');
    expect(lines).toHaveLength(11);
    expect(lines.at(-1)).toMatch(/^\[listing stopped after 10 entries/);
    expect((r.meta as ListFilesMeta).truncated).toBe(true);
  });

  it.each([
    ['..', 'outside_workspace'],
    ['/etc', 'outside_workspace'],
    ['.strata', 'outside_workspace'],
    ['missing', 'not_found'],
  ])('[tools] list_files %j is an error result (%s)', async (path, code) => {
    const r = await call('list_files', { path });
    expect(r.isError).toBe(true);
    expect(errorCode(r)).toBe(code);
    expect(r.content).toContain(JSON.stringify(path));
  });

  it('[tools] bad arguments are error results the model can read', async () => {
    const r = await call('list_files', { depth: 0, extra: true });
    expect(r.isError).toBe(true);
    expect(errorCode(r)).toBe('invalid_arguments');
    expect(r.content).toContain('depth');
    expect(r.content).toContain('extra');
  });
});

describe('read_file', () => {
  it('[tools] returns the file with line numbers and a header', async () => {
    const r = await call('read_file', { path: 'src/auth/refresh.ts' });
    expect(r.isError).toBe(false);
    expect(r.content).toBe(
      ['File: src/auth/refresh.ts, lines 1-5 of 5', '1| export function rotateToken(old: string): string {', '2|   return old + "!";', '3| }', '4| ', '5| export class TokenStore {}'].join('\n'),
    );
    expect(r.meta).toEqual<ReadFileMeta>({ tool: 'read_file', path: 'src/auth/refresh.ts', startLine: 1, endLine: 5, totalLines: 5, bytes: 101, truncated: false });
  });

  it('[tools] a line range, CRLF endings and a missing final newline are handled', async () => {
    writeFileSync(join(fx.root, 'crlf.txt'), Array.from({ length: 12 }, (_, i) => `row ${i + 1}`).join('\r\n'));
    const r = await call('read_file', { path: 'crlf.txt', start_line: 9, end_line: 11 });
    expect(r.content).toBe('File: crlf.txt, lines 9-11 of 12\n 9| row 9\n10| row 10\n11| row 11');
    const tail = await call('read_file', { path: 'crlf.txt', start_line: 12, end_line: 99 });
    expect(tail.content).toBe('File: crlf.txt, lines 12-12 of 12\n12| row 12');
  });

  it('[tools] reads are capped at max_read_bytes and say where to continue', async () => {
    const big = Array.from({ length: 5000 }, (_, i) => `line ${i + 1} ${'x'.repeat(40)}`).join('\n');
    writeFileSync(join(fx.root, 'big.txt'), big);
    const small = createWorkspaceTools(fx.root, { ...DEFAULT_TOOLS_CONFIG, maxReadBytes: 4096 });
    const r = await call('read_file', { path: 'big.txt' }, small);
    const meta = r.meta as ReadFileMeta;
    expect(r.isError).toBe(false);
    expect(meta.truncated).toBe(true);
    expect(meta.bytes).toBeLessThanOrEqual(4096);
    expect(meta.totalLines).toBe(5000);
    expect(r.content).toContain(`[truncated: max_read_bytes (4096 bytes) reached after line ${meta.endLine} of 5000; continue with start_line=${meta.endLine + 1}]`);
    const next = await call('read_file', { path: 'big.txt', start_line: meta.endLine + 1 }, small);
    expect((next.meta as ReadFileMeta).startLine).toBe(meta.endLine + 1);
    // The default cap holds too: a 2 MB file returns at most 262144 bytes of content.
    writeFileSync(join(fx.root, 'huge.txt'), `${'y'.repeat(99)}\n`.repeat(20000));
    const huge = await call('read_file', { path: 'huge.txt' });
    expect((huge.meta as ReadFileMeta).bytes).toBeLessThanOrEqual(262144);
    expect((huge.meta as ReadFileMeta).truncated).toBe(true);
    // Plus the header, the line-number prefixes and the truncation note.
    expect(Buffer.byteLength(huge.content)).toBeLessThan(262144 + 3000 * 8);
  });

  it('[tools] one line longer than the cap is cut, on a character boundary', async () => {
    writeFileSync(join(fx.root, 'minified.js'), `${'é'.repeat(3000)}\nnext\n`);
    const small = createWorkspaceTools(fx.root, { ...DEFAULT_TOOLS_CONFIG, maxReadBytes: 1025 });
    const r = await call('read_file', { path: 'minified.js' }, small);
    expect(r.content).toContain('[truncated: line 1 alone is longer than max_read_bytes (1025 bytes) and was cut; continue with start_line=2]');
    expect(r.content).not.toContain('\uFFFD');
    expect((r.meta as ReadFileMeta).bytes).toBeLessThanOrEqual(1025);
  });

  it('[tools] binary files, folders, special files and missing files are refused', async () => {
    writeFileSync(join(fx.root, 'image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]));
    const bin = await call('read_file', { path: 'image.png' });
    expect([bin.isError, errorCode(bin)]).toEqual([true, 'binary_file']);
    expect(bin.content).toContain('binary');
    const dir = await call('read_file', { path: 'src' });
    expect([dir.isError, errorCode(dir)]).toEqual([true, 'not_a_file']);
    expect(dir.content).toContain('list_files');
    const missing = await call('read_file', { path: 'src/nope.ts' });
    expect([missing.isError, errorCode(missing)]).toEqual([true, 'not_found']);
    if (process.platform !== 'win32') {
      mkfifoSync(join(fx.root, 'pipe'));
      const fifo = await call('read_file', { path: 'pipe' });
      expect([fifo.isError, errorCode(fifo)]).toEqual([true, 'not_a_file']);
    }
  });

  it('[tools] empty files and a start past the end', async () => {
    writeFileSync(join(fx.root, 'empty.txt'), '');
    expect((await call('read_file', { path: 'empty.txt' })).content).toBe('File: empty.txt (empty)');
    const past = await call('read_file', { path: 'README.md', start_line: 10 });
    expect(past.isError).toBe(true);
    expect(past.content).toBe('start_line 10 is past the end of README.md, which has 2 lines.');
  });

  it.each<[unknown, string]>([
    [{}, 'path'],
    [{ path: '' }, 'path'],
    [{ path: 3 }, 'path'],
    [{ path: 'README.md', start_line: 0 }, 'start_line'],
    [{ path: 'README.md', start_line: 1.5 }, 'start_line'],
    [{ path: 'README.md', start_line: 5, end_line: 2 }, 'end_line must not be less than start_line'],
  ])('[tools] read_file %j is refused naming %s', async (args, fragment) => {
    const r = await call('read_file', args);
    expect([r.isError, errorCode(r)]).toEqual([true, 'invalid_arguments']);
    expect(r.content).toContain(fragment);
  });

  it.each([
    ['../outside/secret.txt'],
    ['src/../../outside/secret.txt'],
    ['..\\outside\\secret.txt'],
    ['leak.txt'],
    ['outdir/secret.txt'],
    ['.strata/catalog.db'],
    ['store-link/catalog.db'],
    ['src/auth/refresh.ts\u0000.png'],
    ['/etc/passwd'],
  ])('[tools] read_file %j never reads outside the workspace', async (path) => {
    symlinkSync(join(fx.outside, 'secret.txt'), join(fx.root, 'leak.txt'));
    symlinkSync(fx.outside, join(fx.root, 'outdir'));
    symlinkSync(join(fx.root, '.strata'), join(fx.root, 'store-link'));
    const r = await call('read_file', { path });
    expect(r.isError).toBe(true);
    expect(errorCode(r)).toBe('outside_workspace');
    expect(r.content).not.toContain('TOP SECRET');
    expect(r.content).not.toContain('catalog internals');
    expect(r.content).toContain(JSON.stringify(path));
  });

  it('[tools] an absolute path inside the workspace and a link that stays inside are read', async () => {
    symlinkSync(join(fx.root, 'src', 'auth'), join(fx.root, 'auth-link'));
    expect((await call('read_file', { path: join(fx.root, 'README.md') })).content).toContain('rotateToken rotates.');
    const viaLink = await call('read_file', { path: 'auth-link/store.ts' });
    expect(viaLink.isError).toBe(false);
    expect((viaLink.meta as ReadFileMeta).path).toBe('auth-link/store.ts');
  });
});

describe('grep', () => {
  it('[tools] finds matches as file:line: text in walk order, skipping .git, node_modules and .strata', async () => {
    const r = await call('grep', { pattern: 'rotateToken' });
    expect(r.isError).toBe(false);
    expect(r.content.split('\n')).toEqual([
      'README.md:2: rotateToken rotates.',
      'src/auth/refresh.ts:1: export function rotateToken(old: string): string {',
      'src/index.ts:1: import { rotateToken } from "./auth/refresh";',
      'src/index.ts:2: export { rotateToken };',
      'test/refresh.test.ts:1: import { rotateToken } from "../src/auth/refresh";',
      'test/refresh.test.ts:2: // rotateToken is tested here',
    ]);
    const meta = r.meta as GrepMeta;
    expect(meta.hits).toEqual([
      { file: 'README.md', line: 2 },
      { file: 'src/auth/refresh.ts', line: 1 },
      { file: 'src/index.ts', line: 1 },
      { file: 'src/index.ts', line: 2 },
      { file: 'test/refresh.test.ts', line: 1 },
      { file: 'test/refresh.test.ts', line: 2 },
    ]);
    expect(meta.truncated).toBe(false);
  });

  it('[tools] the same tree always gives the same answer', async () => {
    const first = await call('grep', { pattern: 'Token', ignore_case: true });
    for (let i = 0; i < 3; i++) expect((await call('grep', { pattern: 'Token', ignore_case: true })).content).toBe(first.content);
  });

  it('[tools] regex, literal, case, path and glob options', async () => {
    expect((await call('grep', { pattern: '^export (const|class) \\w+' })).content.split('\n')).toEqual([
      'src/auth/refresh.ts:5: export class TokenStore {}',
      'src/auth/store.ts:1: export const saveToken = (t: string) => t;',
    ]);
    expect((await call('grep', { pattern: 'old + "!"', fixed: true })).content).toBe('src/auth/refresh.ts:2:   return old + "!";');
    expect((await call('grep', { pattern: 'TODO', path: 'src' })).content).toBe('src/auth/store.ts:2: // TODO: persist');
    expect((await call('grep', { pattern: 'todo', path: 'src/auth/store.ts', ignore_case: true })).content).toBe('src/auth/store.ts:2: // TODO: persist');
    expect((await call('grep', { pattern: 'ROTATETOKEN', fixed: true, ignore_case: true, glob: '*.md' })).content).toBe('README.md:2: rotateToken rotates.');
    expect((await call('grep', { pattern: 'rotateToken', glob: 'src/**/*.ts' })).content.split('\n')).toHaveLength(3);
    const none = await call('grep', { pattern: 'no-such-thing' });
    expect([none.isError, none.content]).toEqual([false, 'No matches for "no-such-thing" in the workspace (6 files searched).']);
  });

  it('[tools] results are capped by max_results and by max_output_bytes, saying so', async () => {
    writeFileSync(join(fx.root, 'many.txt'), Array.from({ length: 500 }, (_, i) => `hit ${i}`).join('\n'));
    const r = await call('grep', { pattern: 'hit', max_results: 25 });
    const lines = r.content.split('\n');
    expect(lines.slice(0, 25)).toEqual(Array.from({ length: 25 }, (_, i) => `many.txt:${i + 1}: hit ${i}`));
    expect(lines[25]).toMatch(/stopped at max_results=25/);
    expect((r.meta as GrepMeta).truncated).toBe(true);
    expect((r.meta as GrepMeta).hits).toHaveLength(25);

    writeFileSync(join(fx.root, 'wide.txt'), Array.from({ length: 100 }, (_, i) => `wide ${i} ${'w'.repeat(200)}`).join('\n'));
    const small = createWorkspaceTools(fx.root, { ...DEFAULT_TOOLS_CONFIG, maxOutputBytes: 2048 });
    const capped = await call('grep', { pattern: 'wide', max_results: 100 }, small);
    expect(capped.content).toMatch(/output capped at max_output_bytes \(2048 bytes\)/);
    expect(Buffer.byteLength(capped.content)).toBeLessThan(2048 + 200);
  });

  it('[tools] long lines are shown clipped; binary and oversized files are skipped', async () => {
    writeFileSync(join(fx.root, 'long.txt'), `needle ${'z'.repeat(1000)}`);
    writeFileSync(join(fx.root, 'blob.bin'), Buffer.concat([Buffer.from('needle'), Buffer.from([0, 1, 2])]));
    writeFileSync(join(fx.root, 'large.txt'), `needle\n${'q'.repeat(5000)}`);
    const limited = createWorkspaceTools(fx.root, DEFAULT_TOOLS_CONFIG, { grepMaxFileBytes: 4096 });
    const r = await call('grep', { pattern: 'needle' }, limited);
    const lines = r.content.split('\n');
    expect(lines[0]).toBe(`long.txt:1: needle ${'z'.repeat(293)}…`);
    expect(lines[1]).toBe('[skipped 1 file larger than 4096 bytes]');
    expect(lines).toHaveLength(2);
  });

  // The pattern backtracks about 2^40 times on this line: only the watchdog can end it, and the
  // answer names the 300 ms budget that did (no stopwatch: a hung grep would outlast the test's limit).
  it('[tools] a pathological regex is stopped within its time budget, not hung', async () => {
    writeFileSync(join(fx.root, 'evil.txt'), `${'a'.repeat(40)}!\n`);
    const quick = createWorkspaceTools(fx.root, DEFAULT_TOOLS_CONFIG, { regexSliceMs: 300 });
    const r = await call('grep', { pattern: '^(a+)+$' }, quick);
    expect(r.isError).toBe(true);
    expect(errorCode(r)).toBe('pattern_timeout');
    expect(r.content).toContain('ran longer than 300 ms');
    expect(r.content).toContain('fixed: true');
    // The same text as a literal search is instant and fine.
    expect((await call('grep', { pattern: '(a+)+', fixed: true }, quick)).isError).toBe(false);
  });

  it('[tools] the whole search has a wall-clock budget', async () => {
    for (let i = 0; i < 40; i++) writeFileSync(join(fx.root, `f${String(i).padStart(2, '0')}.txt`), 'x\n');
    const budgeted = createWorkspaceTools(fx.root, DEFAULT_TOOLS_CONFIG, { grepBudgetMs: 0 });
    const r = await call('grep', { pattern: 'x' }, budgeted);
    expect(r.isError).toBe(false);
    expect(r.content).toMatch(/stopped after 0 ms; results are partial/);
    expect((r.meta as GrepMeta).truncated).toBe(true);
  });

  it.each<[unknown, string, string]>([
    [{ pattern: '(' }, 'invalid_pattern', 'Invalid regular expression'],
    [{ pattern: '[a-' }, 'invalid_pattern', 'fixed: true'],
    [{ pattern: '' }, 'invalid_arguments', 'pattern'],
    [{ pattern: 'x'.repeat(501) }, 'invalid_arguments', 'pattern'],
    [{ pattern: 'x', max_results: 0 }, 'invalid_arguments', 'max_results'],
    [{ pattern: 'x', max_results: 1001 }, 'invalid_arguments', 'max_results'],
    [{ pattern: 'x', glob: '{a,b' }, 'invalid_arguments', 'glob'],
    [{ pattern: 'x', path: '../outside' }, 'outside_workspace', '../outside'],
    [{ pattern: 'x', path: '.strata' }, 'outside_workspace', '.strata'],
    [{ pattern: 'x', path: 'nope' }, 'not_found', 'nope'],
  ])('[tools] grep %j is an error result (%s)', async (args, code, fragment) => {
    const r = await call('grep', args);
    expect([r.isError, errorCode(r)]).toEqual([true, code]);
    expect(r.content).toContain(fragment);
  });

  it('[tools] grep searches a linked file inside, never one outside or in .strata', async () => {
    symlinkSync(join(fx.outside, 'secret.txt'), join(fx.root, 'leak.txt'));
    symlinkSync(fx.outside, join(fx.root, 'outdir'));
    symlinkSync(join(fx.root, '.strata', 'catalog.db'), join(fx.root, 'db-link'));
    symlinkSync(join(fx.root, 'README.md'), join(fx.root, 'readme-link.md'));
    const secret = await call('grep', { pattern: 'SECRET|internals' });
    // The six files and the link to README.md; the links out and into .strata are not searched.
    expect(secret.content).toBe('No matches for "SECRET|internals" in the workspace (7 files searched).');
    expect((await call('grep', { pattern: 'rotates', glob: '*.md' })).content.split('\n')).toEqual(['README.md:2: rotateToken rotates.', 'readme-link.md:2: rotateToken rotates.']);
  });
});
