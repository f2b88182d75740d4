/**
 * The complete lines at the start or the end of a file (Node), read only, at most `bytes` of it: what session
 * discovery and subagent look-ups read to tell a session file without reading it all. The last
 * line may be cut by the read or still being written, so only lines ending in a newline count.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** The file's first complete lines within `bytes`, or undefined when it cannot be read. */
export function readFileHead(path: string, bytes: number): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const buffer = Buffer.alloc(bytes);
    const n = readSync(fd, buffer, 0, bytes, 0);
    const text = buffer.subarray(0, n).toString('utf8');
    return text.slice(0, text.lastIndexOf('\n') + 1);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * The file's last complete lines within its last `bytes`, or undefined when it cannot be read: a
 * line the read cut at its start is left out, and so is a last line not yet ended by a newline.
 */
export function readFileTail(path: string, bytes: number): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const size = fstatSync(fd).size;
    const start = Math.max(0, size - bytes);
    const buffer = Buffer.alloc(size - start);
    const n = readSync(fd, buffer, 0, buffer.length, start);
    const text = buffer.subarray(0, n).toString('utf8');
    const complete = text.slice(0, text.lastIndexOf('\n') + 1);
    return start === 0 ? complete : complete.slice(complete.indexOf('\n') + 1);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
