import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateDemoRun, type DemoRunScript } from '../../../../engine/demo/generateDemoRun';
import { scaledDemoRun } from '../../../../engine/demo/scaledDemoRun';
import { readDemoWorkspace } from '../../../../engine/node/workspace/readDemoWorkspace';
import { demoDir, tempDir } from '../../../support/tempDir';

/**
 * Taken from the demo's files when they were string literals in engine/demo/workspaceFiles.ts
 * (path, UTF-8 length and SHA-256 of each, in order) and from the scripts generated from them: the
 * demo must stay byte for byte what it was.
 */
const digest = JSON.parse(readFileSync(join(import.meta.dirname, 'demoWorkspace.digest.json'), 'utf8')) as {
  files: { path: string; bytes: number; sha256: string }[];
  scripts: Record<string, string>;
};
const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const bytes = (s: DemoRunScript) => JSON.stringify({ ...s, scripts: [...s.scripts] });
const described = (files: Readonly<Record<string, string>>) => Object.entries(files).map(([path, text]) => ({ path, bytes: Buffer.byteLength(text, 'utf8'), sha256: sha(text) }));

describe('the demo workspace (resources/demo/workspace)', () => {
  const files = readDemoWorkspace(demoDir);

  it('[demo-run] reads back exactly the files the demo was written against, in the same order, byte for byte', () => {
    expect(described(files)).toEqual(digest.files);
  });

  it('[demo-run] generates the same scripts from them, byte for byte', () => {
    expect(sha(bytes(generateDemoRun(files, 1)))).toBe(digest.scripts['generateDemoRun(1)']);
    expect(sha(bytes(generateDemoRun(files, 2)))).toBe(digest.scripts['generateDemoRun(2)']);
    expect(sha(bytes(scaledDemoRun(files, 12)))).toBe(digest.scripts['scaledDemoRun(12)']);
  });

  it('is refused with the folder named when a demo folder has no workspace', () => {
    const tmp = tempDir();
    try {
      expect(() => readDemoWorkspace(tmp.dir)).toThrow(join(tmp.dir, 'workspace'));
    } finally {
      tmp.remove();
    }
  });
});
