import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { confine, confineLexically, ConfinementError, isInternalPath, workspaceRoot, type WorkspaceRoot } from '../../../../../engine/node/tools/confine';
import { makeWorkspace, PROJECT, type Fixture } from '../../../../integration/tools/workspaceFixture';

let fx: Fixture;
let ws: WorkspaceRoot;

beforeEach(() => {
  fx = makeWorkspace(PROJECT);
  symlinkSync(join(fx.outside, 'secret.txt'), join(fx.root, 'leak.txt'));
  symlinkSync(fx.outside, join(fx.root, 'outdir'));
  symlinkSync(join(fx.root, '.strata'), join(fx.root, 'store-link'));
  symlinkSync(join(fx.root, 'src', 'auth'), join(fx.root, 'auth-link'));
  symlinkSync(join(fx.root, 'src', 'auth', 'refresh.ts'), join(fx.root, 'refresh-link.ts'));
  ws = workspaceRoot(fx.root);
});
afterEach(() => fx.remove());

async function refused(requested: string): Promise<ConfinementError> {
  try {
    await confine(ws, requested);
  } catch (err) {
    if (err instanceof ConfinementError) return err;
    throw err;
  }
  throw new Error(`expected ${JSON.stringify(requested)} to be refused`);
}

describe('confine', () => {
  it.each([
    ['..', 'outside'],
    ['../outside/secret.txt', 'outside'],
    ['src/../../outside/secret.txt', 'outside'],
    ['src/auth/../../..', 'outside'],
    ['..\\outside\\secret.txt', 'outside'],
    ['src\\..\\..\\outside', 'outside'],
    ['/etc/passwd', 'outside'],
    ['C:\\Windows\\system32', 'outside'],
    ['c:/x', 'outside'],
    ['\\\\server\\share\\x', 'outside'],
    ['src/a\u0000.ts', 'nul'],
    ['\u0000', 'nul'],
    ['.strata', 'internal'],
    ['.strata/catalog.db', 'internal'],
    ['./.strata/catalog.db', 'internal'],
    ['src/../.strata/catalog.db', 'internal'],
    ['.STRATA/catalog.db', 'internal'],
    ['.strata./catalog.db', 'internal'],
    ['.strata\\catalog.db', 'internal'],
    ['leak.txt', 'symlink_outside'],
    ['outdir', 'symlink_outside'],
    ['outdir/secret.txt', 'symlink_outside'],
    ['outdir/not-there.txt', 'symlink_outside'],
    ['store-link/catalog.db', 'internal'],
    ['store-link', 'internal'],
  ])('[tools] refuses %j (%s) with a message naming the path', async (requested, reason) => {
    const err = await refused(requested);
    expect(err.reason).toBe(reason);
    expect(err.requested).toBe(requested);
    expect(err.message).toContain(JSON.stringify(requested));
  });

  it('[tools] refuses an absolute path outside and the absolute form of the outside folder', async () => {
    expect((await refused(join(fx.outside, 'secret.txt'))).reason).toBe('outside');
    expect((await refused(join(fx.root, '..'))).reason).toBe('outside');
    expect((await refused(join(fx.root, '.strata', 'catalog.db'))).reason).toBe('internal');
  });

  it('[tools] accepts paths inside, relative or absolute, normalizing separators and inner ..', async () => {
    expect(await confine(ws, '.')).toMatchObject({ relative: '.', exists: true });
    expect(await confine(ws, '')).toMatchObject({ relative: '.', exists: true });
    expect(await confine(ws, 'src/auth/refresh.ts')).toMatchObject({ relative: 'src/auth/refresh.ts', exists: true });
    expect(await confine(ws, './src//auth/./refresh.ts')).toMatchObject({ relative: 'src/auth/refresh.ts', exists: true });
    expect(await confine(ws, 'src\\auth\\refresh.ts')).toMatchObject({ relative: 'src/auth/refresh.ts', exists: true });
    expect(await confine(ws, 'src/auth/../index.ts')).toMatchObject({ relative: 'src/index.ts', exists: true });
    expect(await confine(ws, join(fx.root, 'src', 'index.ts'))).toMatchObject({ relative: 'src/index.ts', exists: true });
    expect(await confine(ws, 'src/missing.ts')).toMatchObject({ relative: 'src/missing.ts', exists: false });
    expect(await confine(ws, 'no/such/dir/file.ts')).toMatchObject({ relative: 'no/such/dir/file.ts', exists: false });
    expect(await confine(ws, '.strata-notes.md')).toMatchObject({ relative: '.strata-notes.md', exists: false });
  });

  it('[tools] follows links that stay inside and reports both the requested and the real path', async () => {
    const viaDir = await confine(ws, 'auth-link/refresh.ts');
    expect(viaDir).toMatchObject({ relative: 'auth-link/refresh.ts', realRelative: 'src/auth/refresh.ts', exists: true });
    expect(viaDir.absolute).toBe(join(ws.realRoot, 'src', 'auth', 'refresh.ts'));
    expect(await confine(ws, 'refresh-link.ts')).toMatchObject({ realRelative: 'src/auth/refresh.ts' });
  });

  it('[tools] a workspace reached through a link accepts absolute paths under either form', async () => {
    const linkToRoot = join(fx.outside, 'ws-link');
    symlinkSync(fx.root, linkToRoot);
    const viaLink = workspaceRoot(linkToRoot);
    expect(viaLink.realRoot).toBe(ws.realRoot);
    expect(await confine(viaLink, join(linkToRoot, 'src', 'index.ts'))).toMatchObject({ relative: 'src/index.ts', exists: true });
    expect(await confine(viaLink, join(ws.realRoot, 'src', 'index.ts'))).toMatchObject({ relative: 'src/index.ts', exists: true });
  });

  it('[tools] a link chain that ends outside is refused, a dangling link inside is not found but confined', async () => {
    mkdirSync(join(fx.root, 'deep'));
    symlinkSync(join(fx.root, 'outdir'), join(fx.root, 'deep', 'hop'));
    expect((await refused('deep/hop/secret.txt')).reason).toBe('symlink_outside');
    symlinkSync(join(fx.root, 'nowhere.ts'), join(fx.root, 'dangling.ts'));
    expect(await confine(ws, 'dangling.ts')).toMatchObject({ exists: false });
    symlinkSync('/definitely/not/here', join(fx.root, 'dangling-out'));
    // The link itself is inside; what it names does not exist, so nothing can be read through it.
    expect((await confine(ws, 'dangling-out')).exists).toBe(false);
  });

  it('[tools] confineLexically refuses without touching the disk', () => {
    expect(() => confineLexically(ws, '../x')).toThrow(ConfinementError);
    expect(() => confineLexically(ws, 'x'.repeat(5000))).toThrow(/longer than/);
    expect(confineLexically(ws, 'a/b/../c')).toEqual({ absolute: join(ws.realRoot, 'a', 'c'), relative: 'a/c' });
  });

  it('[tools] isInternalPath knows a store folder at any depth under any spelling and nothing else', () => {
    for (const p of ['.strata', '.strata/x', '.Strata/x', './.strata', '.strata ./x', 'src/.strata', 'x/.strata/y']) expect(isInternalPath(p)).toBe(true);
    for (const p of ['.strata-x', 'strata', '.', 'src/x.strata', 'a/.stratax/b']) expect(isInternalPath(p)).toBe(false);
  });

  it('[tools] workspaceRoot refuses a root that is not a directory', () => {
    expect(() => workspaceRoot(join(fx.root, 'package.json'))).toThrow(/not a directory/);
    expect(() => workspaceRoot(join(fx.root, 'missing'))).toThrow();
  });
});
