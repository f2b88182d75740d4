import { closeSync, constants, fstatSync, openSync, readSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';

/**
 * Largest evidence file that is read and hashed. A memory entry's evidence is a source file; a
 * larger one gets no hash (its entry is "unknown" in that view, never recalled) instead of a read
 * the host's thread would wait on.
 */
export const MAX_EVIDENCE_BYTES = 16 * 1024 * 1024;

/** The text of an evidence file, or why there is none (in words a person can act on). */
export type EvidenceRead = { ok: true; text: string } | { ok: false; reason: string };

const refuse = (reason: string): EvidenceRead => ({ ok: false, reason });
const inside = (rel: string) => rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith('..\\') && !rel.startsWith('../'));

/**
 * Read a workspace-relative evidence file for hashing, on the calling thread but never waiting on
 * it: memory evidence is hashed on the host's thread when an item is promoted and at every recall.
 * - confined by real path: the root and the file are resolved with `realpath` and the file must
 *   stay under the root, so a link anywhere on the way (`/dev/zero`, a folder elsewhere) is refused;
 * - opened `O_RDONLY | O_NONBLOCK | O_NOFOLLOW`, so a FIFO swapped in after the check cannot block
 *   the open, and the opened descriptor must be a regular file (`fstat`), so nothing is read from a
 *   FIFO, socket or device;
 * - at most {@link MAX_EVIDENCE_BYTES} are read, by descriptor: a larger file, or one that grows
 *   past the cap while read, has no text.
 * Never throws: every failure is a reason.
 */
export function readEvidenceFile(root: string, path: string): EvidenceRead {
  if (path.includes('\u0000')) return refuse(`${JSON.stringify(path)} contains a NUL character`);
  const lexical = join(root, path);
  if (!inside(relative(root, lexical))) return refuse(`${JSON.stringify(path)} is outside the workspace`);
  let real: string;
  let realRoot: string;
  try {
    realRoot = realpathSync.native(root);
    real = realpathSync.native(lexical);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    return refuse(code === 'ENOENT' || code === 'ENOTDIR' ? `${JSON.stringify(path)} does not exist` : `${JSON.stringify(path)} cannot be resolved (${String(code ?? err)})`);
  }
  if (!inside(relative(realRoot, real))) return refuse(`${JSON.stringify(path)} resolves (through a symbolic link) to a place outside the workspace`);
  let fd: number;
  try {
    fd = openSync(real, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0));
  } catch (err) {
    return refuse(`${JSON.stringify(path)} cannot be opened (${String((err as { code?: unknown }).code ?? err)})`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return refuse(`${JSON.stringify(path)} is not a regular file (a folder, FIFO, socket or device has no content hash)`);
    if (st.size > MAX_EVIDENCE_BYTES) return refuse(`${JSON.stringify(path)} is ${st.size} bytes, over the ${MAX_EVIDENCE_BYTES}-byte evidence cap`);
    // Read to the end, growing past the size fstat gave only if the file grows, never past the cap.
    let buffer = Buffer.alloc(Math.min(st.size, MAX_EVIDENCE_BYTES) + 1);
    let filled = 0;
    for (;;) {
      if (filled === buffer.length) {
        if (filled > MAX_EVIDENCE_BYTES) return refuse(`${JSON.stringify(path)} grew past the ${MAX_EVIDENCE_BYTES}-byte evidence cap while it was read`);
        const grown = Buffer.alloc(Math.min(buffer.length * 2, MAX_EVIDENCE_BYTES + 1));
        buffer.copy(grown, 0, 0, filled);
        buffer = grown;
      }
      const n = readSync(fd, buffer, filled, buffer.length - filled, null);
      if (n === 0) break;
      filled += n;
    }
    return { ok: true, text: buffer.toString('utf8', 0, filled) };
  } catch (err) {
    return refuse(`${JSON.stringify(path)} cannot be read (${String((err as { code?: unknown }).code ?? err)})`);
  } finally {
    closeSync(fd);
  }
}
