import { statSync } from 'node:fs';
import type { CommandResult, TraceDto } from '../../engine/contract';
import { CatalogError } from '../../engine/node/catalog/Catalog';
import { findTraceFiles } from '../../engine/node/traces/runCompare';
import { MAX_TRACE_LINE_BYTES } from '../../engine/traces/jsonText';
import { openHost } from '../shared/openHost';

/** One path of a batch import: the trace it stored (or had stored already), or why it was refused. */
type ImportOutcome = { path: string; trace: TraceDto; alreadyImported: boolean } | { path: string; error: string };

/**
 * `strata import <files or folders>`: import recorded sessions into the workspace catalog through
 * the host's `importTrace` command (the same checks as the control room's).
 * - One file: prints its TraceDto as JSON; importing the same bytes again says so on stderr and
 *   prints the stored trace; a refusal (no such file, a malformed trace: file and line) throws,
 *   and nothing is written.
 * - Several files, or a folder (searched for .jsonl, .json, .traj and opencode.db like `strata compare`): each
 *   imports on its own, so one that is refused does not stop the rest; prints one JSON array of
 *   outcomes in order, names each refusal on stderr, and exits 1 when any was refused.
 * A catalog another Strata holds is refused before anything is read.
 */
export async function importCommand(paths: readonly string[], workspace: string | undefined): Promise<number> {
  let opened: ReturnType<typeof openHost>;
  try {
    opened = openHost({ workspace });
  } catch (err) {
    if (err instanceof CatalogError && err.locked) {
      throw new Error(`cannot import while a running Strata (a control room or web host) holds this workspace's catalog; close it, then run 'strata import' again. (${err.message})`);
    }
    throw err;
  }
  const { host } = opened;
  const conn = host.connect(() => {});
  const importOne = async (path: string): Promise<ImportOutcome> => {
    const envelope = await conn.call('importTrace', { path });
    if (!envelope.ok) return { path, error: envelope.error.message };
    const { trace, alreadyImported, skippedLines } = envelope.value as CommandResult<'importTrace'>;
    // A line over the cap was left out of the trace: said, never silent (`[trace-line-cap]`).
    for (const s of skippedLines ?? []) process.stderr.write(`strata: ${s.file}:${s.line}: left out, ${(s.bytes / 2 ** 20).toFixed(1)} MiB is longer than the ${MAX_TRACE_LINE_BYTES / 2 ** 20} MiB a line may be.\n`);
    return { path, trace, alreadyImported };
  };
  try {
    if (paths.length === 1 && !isFolder(paths[0] as string)) {
      const one = await importOne(paths[0] as string);
      if ('error' in one) throw new Error(one.error);
      if (one.alreadyImported) process.stderr.write(`strata: ${one.path} was already imported as ${one.trace.id} (${one.trace.importedAt}); nothing changed.\n`);
      console.log(JSON.stringify(one.trace, null, 2));
      return 0;
    }
    const outcomes: ImportOutcome[] = [];
    for (const arg of paths) {
      // An entry the search could not read is refused by name; the others still import.
      const { entries } = findTraceFiles([arg]);
      if (entries.length === 0) outcomes.push({ path: arg, error: `${arg}: no trace files (.jsonl, .json, .traj or opencode.db) in this folder` });
      for (const entry of entries) outcomes.push('error' in entry ? entry : await importOne(entry.path));
    }
    for (const o of outcomes) if ('error' in o) process.stderr.write(`strata: ${o.error}\n`);
    const refused = outcomes.filter((o) => 'error' in o).length;
    process.stderr.write(`strata: ${outcomes.length - refused} of ${outcomes.length} imported (${outcomes.filter((o) => 'trace' in o && o.alreadyImported).length} already were), ${refused} refused\n`);
    console.log(JSON.stringify(outcomes, null, 2));
    return refused > 0 ? 1 : 0;
  } finally {
    host.close();
  }
}

function isFolder(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
}
