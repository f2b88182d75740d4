import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Catalog, CatalogError } from '../../../engine/node/catalog/Catalog';
import { tempDir } from '../../support/tempDir';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const CHILD = join(ROOT, 'test', 'support', 'openCatalogChild.ts');
const DEAD_PID = 999_999;

/** Run the child once: it opens the catalog and closes it, or prints why it could not. */
function openInChild(path: string): string {
  const r = spawnSync(process.execPath, ['--import', 'tsx', CHILD, path], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  if (r.error) throw r.error;
  if (r.stderr.trim() !== '') throw new Error(`child failed: ${r.stderr}`);
  return r.stdout.trim();
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function refusalOf(fn: () => unknown): Error {
  try {
    fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a refusal, but the catalog opened');
}

describe('[catalog-single-writer] one writer per catalog file', () => {
  let tmp: ReturnType<typeof tempDir>;
  let path: string;
  const open: Catalog[] = [];
  const openCatalog = (p: string) => {
    const c = Catalog.open(p);
    open.push(c);
    return c;
  };

  beforeEach(() => {
    tmp = tempDir();
    path = join(tmp.dir, 'catalog.sqlite');
  });
  afterEach(() => {
    for (const c of open.splice(0)) c.close();
    tmp.remove();
  });

  it('[catalog-single-writer] a second Catalog.open of the same path in this process is refused with a clear message', () => {
    const first = openCatalog(path);
    const err = refusalOf(() => Catalog.open(path));
    expect(err).toBeInstanceOf(CatalogError);
    expect(err.message).toBe(`The catalog at ${path} is already open in this process; close it first.`);
    expect(first.integrityCheck()).toBe('ok');
    first.close();
    expect(existsSync(`${path}.lock`)).toBe(false);
    openCatalog(path);
  });

  it('[catalog-single-writer] a second open in this process through another spelling of the same path is refused too', () => {
    openCatalog(path);
    const spellings = [`${tmp.dir}/./catalog.sqlite`, `${tmp.dir}//catalog.sqlite`, relative(process.cwd(), path)];
    const outcomes = spellings.map((p) => {
      try {
        openCatalog(p);
        return { p, opened: true };
      } catch (err) {
        return { p, opened: false, refusedAsCatalogError: err instanceof CatalogError };
      }
    });
    expect(outcomes).toEqual(spellings.map((p) => ({ p, opened: false, refusedAsCatalogError: true })));
  });

  it('[catalog-single-writer] a second process is refused with a message naming this pid, and opens once this one closes', () => {
    const parent = openCatalog(path);
    const refused = openInChild(path);
    expect(refused).toMatch(/^refused: /);
    expect(refused).toContain(`The catalog at ${path} is in use by another Strata process (pid ${process.pid}, since `);
    expect(refused).toContain('Close it, or open another workspace with --workspace or STRATA_HOME.');
    expect(JSON.parse(readFileSync(`${path}.lock`, 'utf8'))).toMatchObject({ pid: process.pid, host: hostname() });

    parent.close();
    expect(openInChild(path)).toMatch(/^opened pid=\d+$/);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('[catalog-single-writer] a lock left by a dead pid is taken over', () => {
    expect(isAlive(DEAD_PID)).toBe(false);
    Catalog.open(path).close();
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: DEAD_PID, host: hostname(), startedAt: '2026-01-01T00:00:00.000Z' }));
    const c = openCatalog(path);
    expect(JSON.parse(readFileSync(`${path}.lock`, 'utf8'))).toMatchObject({ pid: process.pid, host: hostname() });
    expect(c.integrityCheck()).toBe('ok');
  });

  it('[catalog-single-writer] the lock of a killed process is taken over', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, path, 'hold'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('\n')) resolve(out.trim());
        });
        child.on('error', reject);
        child.on('exit', (code) => reject(new Error(`child exited (${code}) before opening: ${out}`)));
      });
      expect(line).toBe(`opened pid=${child.pid}`);
      expect(refusalOf(() => Catalog.open(path)).message).toContain(`in use by another Strata process (pid ${child.pid},`);
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
    expect(JSON.parse(readFileSync(`${path}.lock`, 'utf8')).pid).toBe(child.pid);
    const c = openCatalog(path);
    expect(JSON.parse(readFileSync(`${path}.lock`, 'utf8')).pid).toBe(process.pid);
    expect(c.integrityCheck()).toBe('ok');
  }, 60_000);

  it('[catalog-single-writer] a lock held on another host is refused, naming the host', () => {
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: 4242, host: 'build-box-7', startedAt: '2026-01-01T00:00:00.000Z' }));
    const err = refusalOf(() => Catalog.open(path));
    expect(err).toBeInstanceOf(CatalogError);
    expect(err.message).toBe(`The catalog at ${path} is locked by Strata on host build-box-7 (pid 4242). Close it there first.`);
    expect(existsSync(path)).toBe(false);
  });
});
