import { closeSync, constants, fstatSync, openSync, readSync, type Stats, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { TraceFileError } from '../../traces/TraceFileError';

/** Largest trace file read (the text and its event stream are both held in memory while importing). */
export const MAX_TRACE_BYTES = 256 * 1024 * 1024;

/**
 * The bytes of the trace file at `file`, read only when it is a regular file of 1 byte to
 * {@link MAX_TRACE_BYTES}, and never more bytes than it had when checked: a device, a FIFO or a
 * `/proc` file (which reports no size and may block or never end) is refused without being read,
 * and the opened file is checked again (opened without blocking), so one swapped in after the
 * check cannot hang the host either.
 */
export function readTraceFile(file: string): Buffer {
  if (file.includes('\0')) throw new TraceFileError('refused', `${JSON.stringify(file)} contains a NUL byte; give the path of one trace file.`);
  let checked: Stats;
  let fd: number;
  try {
    checked = checkTraceFile(file, statSync(file, { throwIfNoEntry: false }));
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    throw unreadable(file, err);
  }
  try {
    const opened = checkTraceFile(file, fstatSync(fd));
    if (opened.ino !== checked.ino || opened.dev !== checked.dev) throw new TraceFileError('refused', `${file} was replaced while it was being opened; import it again.`);
    const bytes = Buffer.alloc(opened.size);
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return bytes.subarray(0, read);
  } catch (err) {
    throw unreadable(file, err);
  } finally {
    closeSync(fd);
  }
}

/** Bytes read per slice by {@link readTraceFileInSlices}. */
const TRACE_READ_SLICE_BYTES = 1024 * 1024;

/**
 * The bytes {@link readTraceFile} reads, with the same checks, read in slices of `slice` bytes,
 * each an asynchronous read, so the host's event loop turns between slices while a large trace is
 * read (`[trace-import-yields]`).
 */
export async function readTraceFileInSlices(file: string, slice = TRACE_READ_SLICE_BYTES): Promise<Buffer> {
  if (file.includes('\0')) throw new TraceFileError('refused', `${JSON.stringify(file)} contains a NUL byte; give the path of one trace file.`);
  let checked: Stats;
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    checked = checkTraceFile(file, statSync(file, { throwIfNoEntry: false }));
    handle = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    throw unreadable(file, err);
  }
  try {
    const opened = checkTraceFile(file, await handle.stat());
    if (opened.ino !== checked.ino || opened.dev !== checked.dev) throw new TraceFileError('refused', `${file} was replaced while it was being opened; import it again.`);
    const bytes = Buffer.alloc(opened.size);
    let read = 0;
    while (read < bytes.length) {
      const { bytesRead } = await handle.read(bytes, read, Math.min(slice, bytes.length - read), read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return bytes.subarray(0, read);
  } catch (err) {
    throw unreadable(file, err);
  } finally {
    await handle.close();
  }
}

/** `info` when it is a regular file of 1 byte to {@link MAX_TRACE_BYTES}; otherwise the refusal, naming `file`. */
function checkTraceFile(file: string, info: Stats | undefined): Stats {
  if (!info) throw new TraceFileError('not_found', `No trace file at ${file}.`);
  if (!info.isFile()) throw new TraceFileError('refused', `${file} is not a file; give the path of one trace file.`);
  if (info.size === 0) throw new TraceFileError('refused', `${file} is empty (or a special file that reports no size); give the path of one trace file.`);
  if (info.size > MAX_TRACE_BYTES) throw new TraceFileError('refused', `${file} is ${Math.ceil(info.size / 2 ** 20)} MiB; traces up to ${MAX_TRACE_BYTES / 2 ** 20} MiB are imported.`);
  return info;
}

/** A file-system failure as the refusal a person can act on (a `TraceFileError` passes through). */
function unreadable(file: string, err: unknown): TraceFileError {
  if (err instanceof TraceFileError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return new TraceFileError('not_found', `No trace file at ${file}.`);
  return new TraceFileError('refused', `Cannot read ${file}: ${err instanceof Error ? err.message : String(err)}`);
}

