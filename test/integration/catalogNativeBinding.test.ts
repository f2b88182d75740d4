import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Catalog, CatalogError } from '../../engine/node/catalog/Catalog';
import { Host } from '../../engine/host';
import { sqliteBinding } from '../../electron/shared/openHost';
import { tempDir } from '../support/tempDir';

/** node_modules' own build of better-sqlite3, the one Node loads by default. */
const nodeBuild = join(dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json')), 'build', 'Release', 'better_sqlite3.node');

describe('Catalog.open with a nativeBinding (the Electron main process loads its own SQLite module)', () => {
  let tmp: ReturnType<typeof tempDir>;
  let folder: string;
  let path: string;
  beforeEach(() => {
    tmp = tempDir();
    folder = join(tmp.dir, 'workspace');
    path = join(folder, 'catalog.sqlite');
  });
  afterEach(() => tmp.remove());

  const openError = (binding: string): Error => {
    try {
      Catalog.open(path, { nativeBinding: binding }).close();
    } catch (err) {
      return err as Error;
    }
    throw new Error('Catalog.open did not fail');
  };

  it('opens, writes and reopens a real catalog through the module it is given', () => {
    const c = Catalog.open(path, { nativeBinding: nodeBuild });
    c.setMeta('k', 'v');
    expect(c.journalMode()).toBe('wal');
    c.close();
    const again = Catalog.open(path, { nativeBinding: nodeBuild });
    expect(again.getMeta('k')).toBe('v');
    again.close();
  });

  it('refuses a module path that does not exist, naming it, and creates nothing', () => {
    const missing = join(tmp.dir, 'out', 'native', 'electron-45.5.0-linux-x64', 'better_sqlite3.node');
    const err = openError(missing);
    expect(err).toBeInstanceOf(CatalogError);
    expect(err.message).toBe(`Cannot load the SQLite module at ${missing}: there is no such file.`);
    expect(existsSync(folder)).toBe(false);
  });

  it("refuses a file that is not a loadable module with the loader's own words, and creates nothing", () => {
    const broken = join(tmp.dir, 'better_sqlite3.node');
    writeFileSync(broken, 'not a shared library');
    const err = openError(broken);
    expect(err).toBeInstanceOf(CatalogError);
    expect(err.message).toMatch(new RegExp(`^Cannot load the SQLite module at ${broken.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: .+`));
    // The loader's message is kept whole (for a module of another ABI it says NODE_MODULE_VERSION,
    // which the Electron shell matches to fall back to the web host).
    expect(err.message).toMatch(/invalid ELF header|file too short|not a valid Win32 application|not a mach-o file/i);
    expect(existsSync(folder)).toBe(false);
  });

  it('leaves an existing catalog as it was when the module is refused', () => {
    Catalog.open(path).close();
    const before = readdirSync(folder).sort();
    expect(() => Catalog.open(path, { nativeBinding: join(tmp.dir, 'nope.node') })).toThrow(CatalogError);
    expect(readdirSync(folder).sort()).toEqual(before);
    Catalog.open(path).close();
  });

  it('reaches the catalog through Host.open', () => {
    const missing = join(tmp.dir, 'nope.node');
    expect(() => Host.open({ catalogPath: path, workspaceName: 'w', version: '0', nativeBinding: missing })).toThrow(`Cannot load the SQLite module at ${missing}`);
    const host = Host.open({ catalogPath: path, workspaceName: 'w', version: '0', nativeBinding: nodeBuild });
    host.close();
  });
});

describe('sqliteBinding (openHost reads STRATA_SQLITE_BINDING)', () => {
  it('is the variable when set, else the Node build (undefined)', () => {
    expect(sqliteBinding({ STRATA_SQLITE_BINDING: '/x/better_sqlite3.node' })).toBe('/x/better_sqlite3.node');
    expect(sqliteBinding({ STRATA_SQLITE_BINDING: '' })).toBeUndefined();
    expect(sqliteBinding({})).toBeUndefined();
  });
});
