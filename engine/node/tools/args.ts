import type { z } from 'zod';
import { confine, ConfinementError, type ConfinedPath } from './confine';
import { describeZodError, toolError, type ToolEnv, type ToolErrorMeta, type ToolResult } from './types';

/** Arguments checked against a tool's schema, or the error result the model reads. */
export function parseArgs<S extends z.ZodType>(tool: string, schema: S, args: unknown): { ok: true; value: z.infer<S> } | { ok: false; result: ToolResult<ToolErrorMeta> } {
  const parsed = schema.safeParse(args ?? {});
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, result: toolError(tool, 'invalid_arguments', describeZodError(tool, parsed.error)) };
}

/** A requested path confined to the workspace, or the error result naming it. */
export async function confineArg(tool: string, env: ToolEnv, requested: string): Promise<{ ok: true; path: ConfinedPath } | { ok: false; result: ToolResult<ToolErrorMeta> }> {
  try {
    return { ok: true, path: await confine(env.ws, requested) };
  } catch (err) {
    if (err instanceof ConfinementError) return { ok: false, result: toolError(tool, 'outside_workspace', `Refused: ${err.message}.`, requested) };
    return { ok: false, result: toolError(tool, 'io_error', `Cannot resolve path ${JSON.stringify(requested)}: ${ioReason(err)}.`, requested) };
  }
}

/** A file system error in a few words, without the absolute path (which would reveal the host layout). */
export function ioReason(err: unknown): string {
  const code = (err as { code?: unknown }).code;
  const known: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    ELOOP: 'too many levels of symbolic links',
    EISDIR: 'it is a directory',
    ENOTDIR: 'a part of it is not a directory',
    ENOENT: 'no such file or directory',
    EMFILE: 'too many open files',
  };
  if (typeof code === 'string') return known[code] ?? code;
  return err instanceof Error ? err.name : 'unknown error';
}
