/**
 * The records of a JSON Lines trace read from its bytes line by line (Node): each line is decoded
 * and parsed on its own, never the whole text at once; a line longer than the cap is skipped
 * without being decoded or parsed, and listed (`[trace-line-cap]`); and the event loop gets a turn
 * after every slice of lines, so a large import never holds the host's thread for long
 * (`[trace-import-yields]`). A JSON document (anything whose first non-blank line is not a JSON
 * object followed by more lines) is left to its importer, which reads it whole.
 */
import { isRecord, MAX_TRACE_LINE_BYTES, parseJsonLine, type JsonLine } from '../../traces/jsonText';

import type { SkippedTraceLine } from '../../traces/TraceEvent';

export type { SkippedTraceLine };

export interface TraceLines {
  records: JsonLine[];
  skipped: SkippedTraceLine[];
}

export interface ReadTraceLinesOptions {
  maxLineBytes?: number;
  /** Bytes of lines parsed between two turns of the event loop (default 1 MiB). */
  sliceBytes?: number;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Drives a generator of import steps: each `yield` is the end of a slice, where an asynchronous
 * caller lets the event loop turn ({@link driveSteps}) and a synchronous one (a worker thread, the
 * CLI) goes straight on ({@link drainSteps}). One reading of the lines for both, so they agree.
 */
export type ImportSteps<T> = Generator<void, T, void>;

export async function driveSteps<T>(steps: ImportSteps<T>): Promise<T> {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    await nextTurn();
  }
}

export function drainSteps<T>(steps: ImportSteps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/** Whether `bytes` holds anything but whitespace from `from` on. */
function contentFrom(bytes: Buffer, from: number): boolean {
  for (let i = from; i < bytes.length; i++) {
    const c = bytes[i];
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return true;
  }
  return false;
}

/** Whether the line `bytes[start, end)` is only whitespace. */
const blank = (bytes: Buffer, start: number, end: number) => !contentFrom(bytes.subarray(start, end), 0);

/**
 * The records of trace `bytes` (named `file` in errors and in the skipped list) when it is JSON
 * Lines, else undefined. Errors are the {@link parseJsonLine} ones, naming the file and line.
 */
function readTraceLines(bytes: Buffer, file: string, o: ReadTraceLinesOptions = {}): Promise<TraceLines | undefined> {
  return driveSteps(traceLineSteps(bytes, file, o));
}

/** {@link readTraceLines} as steps: yields after every slice of lines. */
export function* traceLineSteps(bytes: Buffer, file: string, o: ReadTraceLinesOptions = {}): ImportSteps<TraceLines | undefined> {
  const cap = o.maxLineBytes ?? MAX_TRACE_LINE_BYTES;
  const sliceBytes = o.sliceBytes ?? 1024 * 1024;
  const records: JsonLine[] = [];
  const skipped: SkippedTraceLine[] = [];
  let line = 0;
  let decided = false;
  let sinceTurn = 0;
  for (let start = 0; start < bytes.length; ) {
    const nl = bytes.indexOf(0x0a, start);
    const end = nl === -1 ? bytes.length : nl;
    const next = end + 1;
    line++;
    const length = end - start;
    const lineStart = start;
    start = next;
    if (blank(bytes, lineStart, end)) continue;
    if (!decided) {
      // JSON Lines only when this first record is followed by more: else a document, read whole.
      if (!contentFrom(bytes, next)) return undefined;
      if (length <= cap) {
        let first: JsonLine | undefined;
        try {
          first = parseJsonLine(bytes.toString('utf8', lineStart, end), file, line, () => false);
        } catch {
          return undefined;
        }
        if (!first || !isRecord(first.value)) return undefined;
        records.push(first);
      } else skipped.push({ file, line, bytes: length + (nl === -1 ? 0 : 1) });
      decided = true;
      continue;
    }
    if (length > cap) {
      skipped.push({ file, line, bytes: length + (nl === -1 ? 0 : 1) });
      continue;
    }
    const parsed = parseJsonLine(bytes.toString('utf8', lineStart, end), file, line, () => nl === -1 || !contentFrom(bytes, next));
    if (parsed) records.push(parsed);
    sinceTurn += length;
    if (sinceTurn >= sliceBytes) {
      sinceTurn = 0;
      yield;
    }
  }
  return decided ? { records, skipped } : undefined;
}
