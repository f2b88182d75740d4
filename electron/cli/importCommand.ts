import type { CommandResult } from '../../engine/contract';
import { CatalogError } from '../../engine/catalog/Catalog';
import { openHost } from '../shared/openHost';

/**
 * `strata import <file>`: import one recorded session into the workspace catalog through the host's
 * `importTrace` command (the same checks as the control room's) and print its TraceDto as JSON.
 * Importing the same bytes again says so on stderr and prints the stored trace. A refusal (no such
 * file, a malformed trace: file and line, a catalog another Strata holds) throws, and nothing is
 * written.
 */
export async function importCommand(file: string, workspace: string | undefined): Promise<number> {
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
  try {
    const envelope = await host.connect(() => {}).call('importTrace', { path: file });
    if (!envelope.ok) throw new Error(envelope.error.message);
    const { trace, alreadyImported } = envelope.value as CommandResult<'importTrace'>;
    if (alreadyImported) process.stderr.write(`strata: ${file} was already imported as ${trace.id} (${trace.importedAt}); nothing changed.\n`);
    console.log(JSON.stringify(trace, null, 2));
    return 0;
  } finally {
    host.close();
  }
}
