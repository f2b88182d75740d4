import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');
const doc = readFileSync(join(root, 'docs', 'security.md'), 'utf8');

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? testFiles(full) : /\.(test|spec)\.ts$/.test(name) ? [full] : [];
  });
}
const files = testFiles(join(root, 'test'));

/** The test file a doc reference names: a path from the root, or a file name found once under test/. */
function resolveFile(ref: string): string {
  const matches = ref.includes('/') ? files.filter((f) => f === join(root, ref)) : files.filter((f) => basename(f) === ref);
  expect(matches, `docs/security.md names ${ref}`).toHaveLength(1);
  return matches[0]!;
}

/** Table rows of a section: the cells of every `| … |` line below the header and its rule. */
function rows(section: string): string[][] {
  const start = doc.indexOf(`## ${section}`);
  const end = doc.indexOf('\n## ', start + 1);
  return doc
    .slice(start, end === -1 ? undefined : end)
    .split('\n')
    .filter((l) => l.startsWith('|'))
    .slice(2)
    .map((l) => l.slice(1, -1).split(' | ').map((c) => c.trim()));
}

describe('docs/security.md', () => {
  it("goes through Electron's twenty checklist points in order, each with how and a test", () => {
    const checklist = rows("Electron's checklist");
    expect(checklist.map((r) => Number(r[0]))).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    for (const [n, point, how, tested] of checklist) {
      expect(point, `point ${n}`).toBeTruthy();
      expect(how!.length, `how point ${n} is met`).toBeGreaterThan(10);
      expect(tested, `what tests point ${n}`).toMatch(/`[^`]+\.(test|spec)\.ts`|\(as \d+/);
    }
  });

  it('every test it cites exists, with every quoted title in the file it names', () => {
    let cited = 0;
    for (const row of [...rows("Electron's checklist"), ...rows("Strata's own rules")]) {
      const cell = row.at(-1)!;
      let file: string | undefined;
      for (const token of cell.matchAll(/`([^`]+\.(?:test|spec)\.ts)`|"([^"]+)"/g)) {
        if (token[1]) {
          file = resolveFile(token[1]);
          cited++;
          continue;
        }
        expect(file, `a title before any file in: ${cell}`).toBeDefined();
        const source = readFileSync(file!, 'utf8');
        for (const fragment of token[2]!.split('…').map((f) => f.trim()).filter(Boolean)) {
          expect(source.includes(fragment), `${basename(file!)} has a test titled "${token[2]}"`).toBe(true);
        }
      }
    }
    expect(cited).toBeGreaterThan(25);
  });
});
