import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readStatic } from '../../../electron/web/staticFiles';

const INDEX = '<!doctype html><title>Strata</title>';
const APP_JS = 'console.log("strata");';
const SECRET = 'do not serve me';

describe('readStatic', () => {
  let base: string;
  let root: string;

  beforeAll(() => {
    base = mkdtempSync(join(tmpdir(), 'strata-static-'));
    root = join(base, 'root');
    mkdirSync(join(root, 'assets'), { recursive: true });
    writeFileSync(join(root, 'index.html'), INDEX);
    writeFileSync(join(root, 'assets', 'app.js'), APP_JS);
    writeFileSync(join(root, 'assets', 'style.css'), 'body{}');
    writeFileSync(join(root, 'assets', 'blob.bin'), Buffer.from([0, 1, 2]));
    writeFileSync(join(root, 'my file.json'), '{}');
    writeFileSync(join(base, 'secret.txt'), SECRET);
    // A sibling whose name starts with the root's name: a bare prefix check would let it through.
    mkdirSync(join(base, 'root-evil'));
    writeFileSync(join(base, 'root-evil', 'secret.txt'), SECRET);
  });

  afterAll(() => {
    rmSync(base, { recursive: true, force: true });
  });

  it('serves index.html for /', async () => {
    const file = await readStatic(root, '/');
    expect(file?.body.toString('utf8')).toBe(INDEX);
    expect(file?.contentType).toBe('text/html; charset=utf-8');
  });

  it('serves a nested file with its content type', async () => {
    const file = await readStatic(root, '/assets/app.js');
    expect(file?.body.toString('utf8')).toBe(APP_JS);
    expect(file?.contentType).toBe('text/javascript; charset=utf-8');
  });

  it.each([
    ['/index.html', 'text/html; charset=utf-8'],
    ['/assets/style.css', 'text/css; charset=utf-8'],
    ['/my%20file.json', 'application/json; charset=utf-8'],
    ['/assets/blob.bin', 'application/octet-stream'],
  ])('serves %s as %s', async (path, contentType) => {
    expect((await readStatic(root, path))?.contentType).toBe(contentType);
  });

  it('accepts a root given with a trailing separator', async () => {
    expect((await readStatic(`${root}/`, '/assets/app.js'))?.body.toString('utf8')).toBe(APP_JS);
  });

  it('resolves .. that stays inside the root', async () => {
    expect((await readStatic(root, '/assets/../index.html'))?.body.toString('utf8')).toBe(INDEX);
  });

  it.each([
    ['/../secret.txt'],
    ['/%2e%2e/secret.txt'],
    ['/%2E%2E/secret.txt'],
    ['/..%2fsecret.txt'],
    ['/assets/../../secret.txt'],
    ['/assets/%2e%2e/%2e%2e/secret.txt'],
    ['//../secret.txt'],
    ['/../root-evil/secret.txt'],
  ])('refuses %s, which leaves the root', async (path) => {
    expect(await readStatic(root, path)).toBeUndefined();
  });

  it.each([['/index.html\0'], ['/index.html%00'], ['/%00/../index.html']])('refuses a NUL byte (%j)', async (path) => {
    expect(await readStatic(root, path)).toBeUndefined();
  });

  it.each([['/%'], ['/%E0%A4%A'], ['/index%2.html'], ['/%ff']])('refuses malformed percent-encoding %s', async (path) => {
    expect(await readStatic(root, path)).toBeUndefined();
  });

  it.each([['/missing.html'], ['/assets/missing.js'], ['/assets'], ['/assets/'], ['']])('returns undefined for %j, which names no file', async (path) => {
    expect(await readStatic(root, path)).toBeUndefined();
  });
});
