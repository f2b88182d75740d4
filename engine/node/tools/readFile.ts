import { constants } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { z } from 'zod';
import { confineArg, ioReason, parseArgs } from './args';
import { BINARY_SNIFF_BYTES, clipUtf8, looksBinary } from './bytes';
import { toolError, type ReadFileMeta, type ToolContext, type ToolEnv, type ToolResult, type WorkspaceTool } from './types';

const READ_FILE = 'read_file';
/** Past this many bytes a file's lines are no longer counted (the total is then unknown). */
const COUNT_LINES_UP_TO_BYTES = 64 * 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;

const schema = z
  .strictObject({
    path: z.string().min(1).max(4096),
    start_line: z.number().int().min(1).optional(),
    end_line: z.number().int().min(1).optional(),
  })
  .refine((a) => a.start_line === undefined || a.end_line === undefined || a.end_line >= a.start_line, {
    message: 'end_line must not be less than start_line',
    path: ['end_line'],
  });

/**
 * `read_file`: a text file of the workspace with 1-based line numbers, optionally a line range.
 * The returned content is capped at `max_read_bytes` (the result says where it stopped and how to
 * continue); a file that looks binary (a NUL byte in its first 8000 bytes) is refused, as is
 * anything that is not a regular file.
 */
export function readFileTool(env: ToolEnv): WorkspaceTool {
  return {
    spec: {
      name: READ_FILE,
      description:
        `Read a text file of the workspace. Lines are numbered from 1 ("12| text"). Optional start_line/end_line (inclusive) select a range. ` +
        `At most ${env.config.maxReadBytes} bytes of content per call; a truncated result says which start_line continues it. Binary files are refused.`,
      parameters: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'File path relative to the workspace root.' },
          start_line: { type: 'integer', minimum: 1, description: 'First line to return (1-based). Default 1.' },
          end_line: { type: 'integer', minimum: 1, description: 'Last line to return (inclusive). Default: the end of the file.' },
        },
        required: ['path'],
        additionalProperties: false,
      },
    },
    run: (args, ctx) => readFile(env, args, ctx),
  };
}

async function readFile(env: ToolEnv, args: unknown, _ctx: ToolContext = {}): Promise<ToolResult> {
  const parsed = parseArgs(READ_FILE, schema, args);
  if (!parsed.ok) return parsed.result;
  const { path: requested } = parsed.value;
  const start = parsed.value.start_line ?? 1;
  const end = parsed.value.end_line ?? Number.POSITIVE_INFINITY;
  const target = await confineArg(READ_FILE, env, requested);
  if (!target.ok) return target.result;
  const file = target.path;
  const shown = JSON.stringify(requested);
  if (!file.exists) return toolError(READ_FILE, 'not_found', `No such file: ${shown}.`, requested);

  try {
    const st = await stat(file.absolute);
    if (st.isDirectory()) return toolError(READ_FILE, 'not_a_file', `${shown} is a directory; use list_files to see its entries.`, requested);
    if (!st.isFile()) return toolError(READ_FILE, 'not_a_file', `${shown} is not a regular file.`, requested);
  } catch (err) {
    return toolError(READ_FILE, 'io_error', `Cannot read ${shown}: ${ioReason(err)}.`, requested);
  }

  let handle: FileHandle;
  try {
    // Open the real path, never following a link swapped in since, never blocking on a FIFO.
    handle = await open(file.absolute, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    return toolError(READ_FILE, 'io_error', `Cannot read ${shown}: ${ioReason(err)}.`, requested);
  }
  try {
    if (!(await handle.stat()).isFile()) return toolError(READ_FILE, 'not_a_file', `${shown} is not a regular file.`, requested);
    return await readLines(handle, file.relative, requested, start, end, env.config.maxReadBytes);
  } catch (err) {
    return toolError(READ_FILE, 'io_error', `Cannot read ${shown}: ${ioReason(err)}.`, requested);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

async function readLines(handle: FileHandle, relative: string, requested: string, start: number, end: number, budget: number): Promise<ToolResult> {
  const decoder = new TextDecoder('utf-8');
  const buffer = Buffer.alloc(CHUNK_BYTES);
  const out: { n: number; text: string }[] = [];
  let outBytes = 0;
  let lineNo = 0; // lines completed so far
  let partial = '';
  let collecting = true;
  let truncated = false;
  let clippedLine: number | undefined;
  let newlines = 0;
  let lastByte = -1;
  let scanned = 0;
  let counted = true;

  const take = (text: string) => {
    lineNo++;
    if (!collecting || lineNo < start) return;
    if (lineNo > end) {
      collecting = false;
      return;
    }
    const line = text.endsWith('\r') ? text.slice(0, -1) : text;
    const size = Buffer.byteLength(line) + 1;
    if (outBytes + size > budget) {
      if (out.length === 0) {
        const clipped = clipUtf8(line, budget);
        out.push({ n: lineNo, text: clipped });
        outBytes += Buffer.byteLength(clipped);
        clippedLine = lineNo;
      }
      truncated = true;
      collecting = false;
      return;
    }
    out.push({ n: lineNo, text: line });
    outBytes += size;
  };

  for (;;) {
    const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, null);
    if (bytesRead === 0) break;
    const chunk = buffer.subarray(0, bytesRead);
    if (scanned === 0 && looksBinary(chunk.subarray(0, BINARY_SNIFF_BYTES))) {
      return toolError(READ_FILE, 'binary_file', `${JSON.stringify(requested)} looks like a binary file (it contains NUL bytes); read_file returns text only.`, requested);
    }
    scanned += bytesRead;
    for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) newlines++;
    lastByte = chunk[bytesRead - 1] as number;
    if (collecting) {
      const parts = (partial + decoder.decode(chunk, { stream: true })).split('\n');
      partial = parts.pop() ?? '';
      for (const p of parts) take(p);
      if (!collecting) partial = '';
    }
    if (!collecting && scanned > COUNT_LINES_UP_TO_BYTES) {
      counted = false;
      break;
    }
  }
  if (collecting) {
    const rest = partial + decoder.decode();
    if (rest !== '') take(rest);
  }
  const totalLines = counted ? newlines + (scanned > 0 && lastByte !== 10 ? 1 : 0) : null;
  const meta: ReadFileMeta = { tool: READ_FILE, path: relative, startLine: start, endLine: start - 1, totalLines, bytes: outBytes, truncated };

  if (totalLines === 0) return { content: `File: ${relative} (empty)`, isError: false, meta };
  if (out.length === 0) {
    const content = `start_line ${start} is past the end of ${relative}${totalLines === null ? '' : `, which has ${totalLines} line${totalLines === 1 ? '' : 's'}`}.`;
    return { content, isError: true, meta };
  }
  const first = (out[0] as { n: number }).n;
  const last = (out.at(-1) as { n: number }).n;
  meta.startLine = first;
  meta.endLine = last;
  const width = String(last).length;
  const of = totalLines === null ? '' : ` of ${totalLines}`;
  const lines = [`File: ${relative}, lines ${first}-${last}${of}`, ...out.map((l) => `${String(l.n).padStart(width)}| ${l.text}`)];
  if (clippedLine !== undefined) {
    lines.push(`[truncated: line ${clippedLine} alone is longer than max_read_bytes (${budget} bytes) and was cut; continue with start_line=${clippedLine + 1}]`);
  } else if (truncated) {
    lines.push(`[truncated: max_read_bytes (${budget} bytes) reached after line ${last}${of}; continue with start_line=${last + 1}]`);
  }
  return { content: lines.join('\n'), isError: false, meta };
}
