import { spawnSync, execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryEntryDto } from '../../../engine/contract';
import { contentHash } from '../../../engine/text/hash';
import { tempDir } from '../../support/tempDir';

// Each case runs in a child process bounded at 60 s: on the code this closes, hashing a FIFO blocked
// the host's thread for good, which no timer inside that process could end.
const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const PROBE = join(ROOT, 'test', 'support', 'evidenceProbe.ts');
const BOUND_MS = 60_000;
const posix = process.platform !== 'win32';

function probe<T>(...args: string[]): T {
  const r = spawnSync(process.execPath, ['--import', 'tsx', PROBE, ...args], { cwd: ROOT, encoding: 'utf8', timeout: BOUND_MS });
  if (r.error || r.status !== 0) {
    throw new Error(`evidence probe ${args[0]} did not finish within ${BOUND_MS} ms or failed (${r.error?.message ?? `exit ${r.status}, signal ${r.signal}`}): ${r.stderr}`);
  }
  return JSON.parse(r.stdout.trim().split('\n').at(-1) as string) as T;
}

let tmp: ReturnType<typeof tempDir> | undefined;
afterEach(() => {
  tmp?.remove();
  tmp = undefined;
});

/** A workspace `ws/` with src/a.ts, and a folder `outside/` beside it holding secret.txt. */
function workspace() {
  tmp = tempDir('strata-evidence-');
  const ws = join(tmp.dir, 'ws');
  const outside = join(tmp.dir, 'outside');
  mkdirSync(join(ws, 'src'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(ws, 'src', 'a.ts'), 'export const parse = (t: string) => t.split(",");\n');
  writeFileSync(join(outside, 'secret.txt'), 'not part of the workspace\n');
  return { ws, outside, catalogDir: tmp.dir };
}

const hashOf = (ws: string, path: string) => probe<{ hash: string | null }>('hash', ws, path).hash;
/** The folder view's hash of a path and the reason the reader gives when it has none. */
const hashAndReason = (ws: string, path: string) => probe<{ hash: string | null; reason: string | null }>('hash', ws, path);

/** Whether this machine lets the tests make a device node (root on Linux); else the device case is skipped, saying why. */
function canMakeDevices(): boolean {
  const t = tempDir('strata-mknod-');
  try {
    execFileSync('mknod', [join(t.dir, 'zero'), 'c', '1', '5'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    t.remove();
  }
}
const devices = posix && canMakeDevices();
if (posix && !devices) console.log('[evidence-regular] the device-node case is skipped: this user cannot run mknod (it needs root); the /dev/zero link case still runs');

describe.skipIf(!posix)('evidence files are hashed only when they are regular files inside the workspace', () => {
  it('[evidence-regular] a regular file inside the workspace has the content hash of its text', () => {
    const { ws } = workspace();
    expect(hashOf(ws, 'src/a.ts')).toBe(contentHash('export const parse = (t: string) => t.split(",");\n'));
  }, BOUND_MS + 10_000);

  it('[evidence-regular] a FIFO has no hash, and hashing it returns instead of blocking', () => {
    const { ws } = workspace();
    execFileSync('mkfifo', [join(ws, 'pipe')]);
    expect(hashAndReason(ws, 'pipe')).toEqual({ hash: null, reason: expect.stringMatching(/^"pipe" is not a regular file/) });
  }, BOUND_MS + 10_000);

  it.skipIf(!devices)('[evidence-regular] a device node inside the workspace has no hash (it is opened, found not a regular file, and not read)', () => {
    const { ws } = workspace();
    execFileSync('mknod', [join(ws, 'zero'), 'c', '1', '5']);
    expect(hashAndReason(ws, 'zero')).toEqual({ hash: null, reason: expect.stringMatching(/^"zero" (is not a regular file|cannot be opened)/) });
  }, BOUND_MS + 10_000);

  it('[evidence-regular] a link to /dev/zero has no hash (nothing unbounded is read)', () => {
    const { ws } = workspace();
    symlinkSync('/dev/zero', join(ws, 'zero'));
    expect(hashAndReason(ws, 'zero')).toEqual({ hash: null, reason: expect.stringMatching(/^"zero" resolves \(through a symbolic link\) to a place outside the workspace/) });
  }, BOUND_MS + 10_000);

  it('[evidence-regular] a link to a file outside the workspace, or through a linked folder outside, has no hash', () => {
    const { ws, outside } = workspace();
    symlinkSync(join(outside, 'secret.txt'), join(ws, 'secret.txt'));
    symlinkSync(outside, join(ws, 'elsewhere'));
    expect(hashOf(ws, 'secret.txt')).toBeNull();
    expect(hashOf(ws, 'elsewhere/secret.txt')).toBeNull();
    // A link that stays inside is followed.
    symlinkSync(join(ws, 'src', 'a.ts'), join(ws, 'alias.ts'));
    expect(hashOf(ws, 'alias.ts')).toBe(hashOf(ws, 'src/a.ts'));
  }, 4 * BOUND_MS);

  it('[evidence-regular] a file over the evidence size cap has no hash; one at the cap has', async () => {
    const { MAX_EVIDENCE_BYTES } = await import('../../../engine/node/workspace/readEvidenceFile');
    const { ws } = workspace();
    writeFileSync(join(ws, 'big.txt'), '');
    truncateSync(join(ws, 'big.txt'), MAX_EVIDENCE_BYTES + 1);
    writeFileSync(join(ws, 'cap.txt'), '');
    truncateSync(join(ws, 'cap.txt'), MAX_EVIDENCE_BYTES);
    expect(hashAndReason(ws, 'big.txt')).toEqual({ hash: null, reason: `"big.txt" is ${MAX_EVIDENCE_BYTES + 1} bytes, over the ${MAX_EVIDENCE_BYTES}-byte evidence cap` });
    expect(hashOf(ws, 'cap.txt')).toMatch(/^[0-9a-f]{16}$/);
  }, 3 * BOUND_MS);

  it('[evidence-regular] promoting a failed read_file of a FIFO returns promptly, and the failed call names no evidence file', () => {
    const { ws, catalogDir } = workspace();
    execFileSync('mkfifo', [join(ws, 'pipe')]);
    const r = probe<{ outcome: { isError: boolean; content: string }; itemFiles: string[]; entry: MemoryEntryDto }>('promote-failed-read', ws, catalogDir);
    expect(r.outcome).toMatchObject({ isError: true, content: expect.stringContaining('not a regular file') });
    expect(r.itemFiles).toEqual([]);
    expect(r.entry).toMatchObject({ state: 'candidate', evidence: { paths: [] } });
  }, BOUND_MS + 10_000);

  it('[evidence-regular] an evidence file that cannot be hashed keeps its path, and the workspace log says why', async () => {
    const { MAX_EVIDENCE_BYTES } = await import('../../../engine/node/workspace/readEvidenceFile');
    const { ws, catalogDir } = workspace();
    writeFileSync(join(ws, 'big.txt'), '');
    truncateSync(join(ws, 'big.txt'), MAX_EVIDENCE_BYTES + 1);
    const r = probe<{ entry: MemoryEntryDto; hashed: string[]; log: { level: string; message: string }[] }>('promote-unhashable', ws, catalogDir);
    expect(r.entry.evidence.paths).toEqual(['src/a.ts', 'big.txt']);
    expect(r.hashed).toEqual(['src/a.ts']);
    const about = r.log.filter((l) => l.message.includes(r.entry.id));
    expect(about).toEqual([
      {
        level: 'warn',
        message: `Memory entry ${r.entry.id}: evidence file big.txt has no hash: "big.txt" is ${MAX_EVIDENCE_BYTES + 1} bytes, over the ${MAX_EVIDENCE_BYTES}-byte evidence cap. The entry is not recalled while the file cannot be hashed (and, with no hash kept, a later content of it is not compared with this one).`,
      },
    ]);
  }, BOUND_MS + 10_000);

  it('[evidence-regular] a verified entry whose evidence file becomes a FIFO is not recalled in the next run, which goes on', () => {
    const { ws, catalogDir } = workspace();
    const r = probe<{ entryPaths: string[]; recalledBefore: number; recalledAfter: number; state: string }>('recall-after-fifo', ws, catalogDir);
    expect(r.entryPaths).toEqual(['src/a.ts']);
    // While the file is what was verified, the entry is recalled; as a FIFO it is unknown in this view.
    expect(r.recalledBefore).toBeGreaterThan(0);
    expect(r.recalledAfter).toBe(0);
    expect(r.state).toBe('verified');
  }, BOUND_MS + 10_000);
});
