import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { confineArg, ioReason, parseArgs } from './args';
import { clipUtf8 } from './bytes';
import { toolError, type ListFilesMeta, type ToolContext, type ToolEnv, type ToolResult, type WorkspaceTool } from './types';
import { walk } from './walk';

const LIST_FILES = 'list_files';
const LIST_DEFAULT_DEPTH = 2;
const LIST_MAX_DEPTH = 10;

const schema = z.strictObject({
  path: z.string().max(4096).optional(),
  depth: z.number().int().min(1).max(LIST_MAX_DEPTH).optional(),
});

/**
 * `list_files`: the entries under a folder of the workspace, depth-first in name order, one per
 * line, root-relative; folders end with `/`, symbolic links with `@` (never followed). `.git`,
 * `node_modules` and `.strata` are skipped. Capped at `listMaxEntries` entries and
 * `max_output_bytes`, saying so.
 */
export function listFilesTool(env: ToolEnv): WorkspaceTool {
  return {
    spec: {
      name: LIST_FILES,
      description:
        `List files and folders of the workspace, depth-first in name order, paths relative to the workspace root. Folders end with "/", symbolic links with "@". ` +
        `Skips .git, node_modules and .strata. At most ${env.limits.listMaxEntries} entries.`,
      parameters: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'Folder to list, relative to the workspace root. Default: the root.' },
          depth: { type: 'integer', minimum: 1, maximum: LIST_MAX_DEPTH, description: `How many levels to descend (1 = direct children). Default ${LIST_DEFAULT_DEPTH}.` },
        },
        additionalProperties: false,
      },
    },
    run: (args, ctx) => listFiles(env, args, ctx),
  };
}

async function listFiles(env: ToolEnv, args: unknown, ctx: ToolContext = {}): Promise<ToolResult> {
  const parsed = parseArgs(LIST_FILES, schema, args);
  if (!parsed.ok) return parsed.result;
  const requested = parsed.value.path ?? '.';
  const depth = parsed.value.depth ?? LIST_DEFAULT_DEPTH;
  const target = await confineArg(LIST_FILES, env, requested);
  if (!target.ok) return target.result;
  const where = target.path;
  if (!where.exists) return toolError(LIST_FILES, 'not_found', `No such file or folder: ${JSON.stringify(requested)}.`, requested);

  let isDir: boolean;
  try {
    isDir = (await stat(where.absolute)).isDirectory();
  } catch (err) {
    return toolError(LIST_FILES, 'io_error', `Cannot list ${JSON.stringify(requested)}: ${ioReason(err)}.`, requested);
  }
  const meta: ListFilesMeta = { tool: LIST_FILES, path: where.relative, depth, entries: 0, truncated: false };
  if (!isDir) return { content: `${where.relative}`, isError: false, meta: { ...meta, entries: 1 } };

  const lines: string[] = [];
  const budget = env.config.maxOutputBytes;
  let bytes = 0;
  for await (const e of walk(where.absolute, where.relative, depth, ctx.signal)) {
    const line = e.kind === 'dir' ? `${e.relative}/` : e.kind === 'symlink' ? `${e.relative}@` : e.relative;
    if (lines.length >= env.limits.listMaxEntries || bytes + line.length + 1 > budget) {
      meta.truncated = true;
      break;
    }
    lines.push(line);
    bytes += Buffer.byteLength(line) + 1;
  }
  if (ctx.signal?.aborted) return toolError(LIST_FILES, 'cancelled', 'list_files was cancelled.', requested);
  meta.entries = lines.length;
  const shown = where.relative === '.' ? 'the workspace root' : `${where.relative}/`;
  if (lines.length === 0) return { content: `(${shown} is empty)`, isError: false, meta };
  if (meta.truncated) {
    lines.push(`[listing stopped after ${lines.length} entries (limit ${env.limits.listMaxEntries} entries or ${budget} bytes); list a subfolder or use a smaller depth]`);
  }
  return { content: clipUtf8(lines.join('\n'), budget + 200), isError: false, meta };
}
