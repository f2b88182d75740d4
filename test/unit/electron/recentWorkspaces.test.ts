import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readJsonFile, writeJsonFile } from '../../../electron/main/jsonFile';
import { addRecent, parseRecent, RECENT_KEPT, serializeRecent } from '../../../electron/main/recentWorkspaces';
import { tempDir } from '../../support/tempDir';

describe('recent workspaces', () => {
  it('moves a reopened folder to the front without duplicating it and keeps the newest ten', () => {
    let list: string[] = [];
    for (let i = 0; i < 12; i++) list = addRecent(list, `/w/p${i}`);
    expect(list).toHaveLength(RECENT_KEPT);
    expect(list[0]).toBe('/w/p11');
    expect(list).not.toContain('/w/p0');
    list = addRecent(list, '/w/p5/');
    expect(list[0]).toBe('/w/p5');
    expect(list.filter((p) => p.startsWith('/w/p5'))).toHaveLength(1);
  });

  it('reads its own file form back', () => {
    const list = ['/a', '/b/c'];
    expect(parseRecent(JSON.parse(JSON.stringify(serializeRecent(list))))).toEqual(list);
  });

  it('drops what is not an absolute folder path (relative, empty, NUL, non-strings, duplicates) instead of failing', () => {
    expect(parseRecent({ workspaces: ['/ok', 'relative/dir', '', 'a\0b', 7, null, '/ok', '/also/ok/../fine'] })).toEqual(['/ok', '/also/fine']);
    expect(parseRecent('nonsense')).toEqual([]);
    expect(parseRecent(null)).toEqual([]);
    expect(parseRecent(['/legacy/array'])).toEqual(['/legacy/array']);
  });
});

describe('shell state files', () => {
  const tmp = tempDir('strata-shell-state-');
  afterAll(() => tmp.remove());

  it('write atomically and read back; a missing file reads as missing', () => {
    const file = join(tmp.dir, 'nested', 'recent.json');
    expect(readJsonFile(file)).toEqual({ missing: true });
    writeJsonFile(file, { version: 1, workspaces: ['/x'] });
    expect(readJsonFile(file)).toEqual({ value: { version: 1, workspaces: ['/x'] } });
    expect(readdirSync(join(tmp.dir, 'nested'))).toEqual(['recent.json']);
  });

  it('a corrupt file reads as corrupt with a reason naming it, and is left as it was', () => {
    const file = join(tmp.dir, 'window-state.json');
    writeFileSync(file, '{"bounds": {"x": 1,');
    const read = readJsonFile(file);
    expect(read).toHaveProperty('corrupt');
    expect((read as { corrupt: string }).corrupt).toContain(file);
    expect(readFileSync(file, 'utf8')).toBe('{"bounds": {"x": 1,');
  });

  it('a folder where a file should be reads as unreadable, not as a crash', () => {
    const dir = join(tmp.dir, 'is-a-dir.json');
    mkdirSync(dir);
    expect(readJsonFile(dir)).toHaveProperty('corrupt');
    expect(existsSync(dir)).toBe(true);
  });
});
