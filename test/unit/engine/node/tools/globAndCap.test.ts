import { describe, expect, it } from 'vitest';
import { compileGlob } from '../../../../../engine/node/tools/glob';
import { HeadTailCapture } from '../../../../../engine/node/tools/outputCap';

function glob(pattern: string): (p: string) => boolean {
  const g = compileGlob(pattern);
  if (!g.ok) throw new Error(g.reason);
  return g.test;
}

describe('compileGlob', () => {
  it.each<[string, string, boolean]>([
    ['*.ts', 'src/a.ts', true],
    ['*.ts', 'a.ts', true],
    ['*.ts', 'src/a.tsx', false],
    ['*.test.ts', 'test/x/a.test.ts', true],
    ['src/*.ts', 'src/a.ts', true],
    ['src/*.ts', 'src/auth/a.ts', false],
    ['src/**/*.ts', 'src/a.ts', true],
    ['src/**/*.ts', 'src/auth/deep/a.ts', true],
    ['src/**/*.ts', 'lib/a.ts', false],
    ['**/*.md', 'README.md', true],
    ['**/*.md', 'docs/x/y.md', true],
    ['src/**', 'src/a/b/c', true],
    ['src/**', 'srcx/a', false],
    ['**', 'anything/at/all', true],
    ['?.ts', 'a.ts', true],
    ['?.ts', 'ab.ts', false],
    ['[ab].ts', 'b.ts', true],
    ['[ab].ts', 'c.ts', false],
    ['[!ab].ts', 'c.ts', true],
    ['[a-c]*.ts', 'beta.ts', true],
    ['[a-c]*.ts', 'delta.ts', false],
    ['*.{ts,tsx}', 'x/a.tsx', true],
    ['*.{ts,tsx}', 'x/a.js', false],
    ['{src,test}/**/*.ts', 'test/u/a.ts', true],
    ['{src,test}/**/*.ts', 'lib/u/a.ts', false],
    ['./src/*.ts', 'src/a.ts', true],
    ['src\\*.ts', 'src/a.ts', true],
    ['a[b', 'a[b', true],
  ])('[tools] %j on %j is %s', (pattern, path, expected) => {
    expect(glob(pattern)(path)).toBe(expected);
  });

  it.each(['', '{a,b', 'a}', 'x'.repeat(201), '{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}'])('[tools] refuses %j', (pattern) => {
    expect(compileGlob(pattern).ok).toBe(false);
  });

  // No stopwatch: a backtracking matcher would try about C(3000, 19) ways to place the stars on the
  // failing path and never answer within the suite's limit; the state-set simulation answers both.
  it('[tools] a glob full of stars answers on a long path, failing and matching (no backtracking)', () => {
    const g = glob('*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b');
    expect(g('a'.repeat(3000))).toBe(false);
    expect(g(`${'a'.repeat(3000)}b`)).toBe(true);
    expect(g(`${'a'.repeat(18)}b`)).toBe(false);
  });
});

describe('HeadTailCapture', () => {
  it('[tools] output within the cap is kept whole', () => {
    const c = new HeadTailCapture(1024);
    c.push(Buffer.from('hello\n'));
    c.push(Buffer.from('world\n'));
    expect(c.finish()).toEqual({ text: 'hello\nworld\n', totalBytes: 12, truncated: false });
  });

  it('[tools] output over the cap keeps head and tail and says how much was elided', () => {
    const c = new HeadTailCapture(2048);
    const lines = Array.from({ length: 2000 }, (_, i) => `line ${String(i).padStart(4, '0')}\n`);
    for (const l of lines) c.push(Buffer.from(l));
    const out = c.finish();
    expect(out.truncated).toBe(true);
    expect(out.totalBytes).toBe(lines.join('').length);
    expect(Buffer.byteLength(out.text)).toBeLessThanOrEqual(2048);
    expect(out.text.startsWith('line 0000\nline 0001\n')).toBe(true);
    expect(out.text.endsWith('line 1998\nline 1999\n')).toBe(true);
    expect(out.text).toMatch(/\[… \d+ bytes of output elided \(20000 bytes in all; max_output_bytes = 2048\) …\]/);
    // Cuts fall on line ends when one is near.
    const [head, tail] = out.text.split(/\n\[….*…\]\n/);
    expect(head?.endsWith('\n')).toBe(true);
    expect(tail?.startsWith('line ')).toBe(true);
  });

  it('[tools] one huge chunk and multi-byte characters are cut on character boundaries', () => {
    const c = new HeadTailCapture(1024);
    c.push(Buffer.from('é'.repeat(5000)));
    const out = c.finish();
    expect(out.truncated).toBe(true);
    expect(out.text).not.toContain('\uFFFD');
    expect(out.text.startsWith('éé')).toBe(true);
    expect(out.text.endsWith('éé')).toBe(true);
  });
});
