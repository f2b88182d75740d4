import { mkdirSync, realpathSync, renameSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Catalog } from '../../../engine/node/catalog/Catalog';
import type { CommandName, MemoryEntryDto } from '../../../engine/contract';
import { PURGE_CONFIRMATION } from '../../../engine/contract';
import { Host } from '../../../engine/host';
import { partitionId } from '../../../engine/memory/partitionId';
import { MemoryStore } from '../../../engine/node/memoryStore/MemoryStore';
import { manualClock } from '../../../engine/ports/Clock';
import { manualScheduler } from '../../../engine/ports/Scheduler';
import { quarterTokenizer } from '../../support/engineFixtures';
import { bytesHold, markedProposal } from '../../support/memoryCatalog';
import { tempDir } from '../../support/tempDir';

/**
 * `[memory-partition]`: a workspace's memory does not depend on how its folder path is spelled.
 * The partition is chosen once per catalog (the real path of the folder at the first open) and kept
 * in the catalog's meta table; the catalog lives in `<folder>/.strata/`, so a symlink, a different
 * spelling or a rename of the folder reaches the same partition.
 */

const MARKER = 'NUMBAT-PARTITION-3391';
const clock = manualClock(1_767_225_600_000);

let tmp: ReturnType<typeof tempDir> | undefined;
let host: Host | undefined;
afterEach(() => {
  host?.close();
  tmp?.remove();
  host = undefined;
  tmp = undefined;
});

/** The catalog of a folder workspace, where `locateWorkspace` puts it. */
const catalogOf = (dir: string) => join(dir, '.strata', 'catalog.sqlite');

/** Open the workspace at `dir` (spelled as given) as the shells do; returns a contract caller. */
function openWorkspace(dir: string) {
  host?.close();
  const h = Host.open({ catalogPath: catalogOf(dir), workspaceName: 'project', version: '1', workspaceDir: dir, clock, scheduler: manualScheduler(), tokenizer: quarterTokenizer });
  host = h;
  const conn = h.connect(() => {});
  const call = async <T>(name: CommandName, args: unknown): Promise<T> => {
    const r = await conn.call(name, args);
    if (!r.ok) throw new Error(`${name}: ${r.error.code}: ${r.error.message}`);
    return r.value as T;
  };
  return { host: h, call };
}

function project(): { real: string; link: string } {
  tmp = tempDir('strata-partition-');
  const real = join(tmp.dir, 'project');
  mkdirSync(real);
  const link = join(tmp.dir, 'project-link');
  symlinkSync(real, link, 'dir');
  return { real, link };
}

type Purge = { deleted: number; partitions?: string[]; otherPartitions?: { partition: string; entries: number }[]; residual: string };

describe('[memory-partition] memory keyed by the workspace, not by the spelling of its path', () => {
  it('[memory-partition] a workspace opened through a symlink sees the memory written through its real path, and a purge removes it', async () => {
    const { real, link } = project();
    const first = openWorkspace(real);
    const entry = first.host.memory.propose(markedProposal(MARKER, 0));
    const partition = first.host.memory.partition;

    const viaLink = openWorkspace(link);
    expect(viaLink.host.memory.partition).toBe(partition);
    const { entries } = await viaLink.call<{ entries: MemoryEntryDto[] }>('listMemory', {});
    expect(entries.map((e) => e.id)).toEqual([entry.id]);
    const report = await viaLink.call<Purge>('purgeMemory', { confirm: PURGE_CONFIRMATION });
    expect(report).toMatchObject({ deleted: 1, partitions: [partition], otherPartitions: [] });
    expect(bytesHold(catalogOf(real), MARKER)).toMatchObject({ main: false, wal: false });
  });

  it('[memory-partition] after the folder is renamed, its memory is still its own and a purge removes it', async () => {
    const { real } = project();
    const first = openWorkspace(real);
    const entry = first.host.memory.propose(markedProposal(MARKER, 0));
    first.host.memory.verify(entry.id, 1);
    host!.close();
    host = undefined;
    const renamed = `${real}-renamed`;
    renameSync(real, renamed);

    const after = openWorkspace(renamed);
    const { entries } = await after.call<{ entries: MemoryEntryDto[] }>('listMemory', {});
    expect(entries.map((e) => [e.id, e.state])).toEqual([[entry.id, 'verified']]);
    const report = await after.call<Purge>('purgeMemory', { confirm: PURGE_CONFIRMATION });
    expect(report).toMatchObject({ deleted: 1, otherPartitions: [] });
    expect(bytesHold(catalogOf(renamed), MARKER)).toMatchObject({ main: false, wal: false });
  });

  it('[memory-partition] a catalog written before the partition was kept (keyed by the path as spelled, or by a name the folder no longer has) is re-keyed at open, states and ids kept', async () => {
    const { real, link } = project();
    // What an older Strata wrote: partitions keyed by the raw spelling (a symlink) and by a former folder name.
    const old = Catalog.open(catalogOf(real));
    const bySymlink = MemoryStore.open(old, { partition: partitionId(link), clock }).propose(markedProposal(MARKER, 0));
    const formerName = MemoryStore.open(old, { partition: partitionId(join(real, '..', 'old-name')), clock });
    const byFormerName = formerName.verify(formerName.propose(markedProposal(MARKER, 1)).id, 1);
    old.close();

    const opened = openWorkspace(real);
    const canonical = partitionId(realpathSync.native(real));
    expect(opened.host.memory.partition).toBe(canonical);
    const { entries } = await opened.call<{ entries: MemoryEntryDto[] }>('listMemory', {});
    expect(entries.map((e) => [e.id, e.state]).sort()).toEqual(
      [
        [bySymlink.id, 'candidate'],
        [byFormerName.id, 'verified'],
      ].sort(),
    );
    const report = await opened.call<Purge>('purgeMemory', { confirm: PURGE_CONFIRMATION });
    expect(report).toMatchObject({ deleted: 2, partitions: [canonical], otherPartitions: [] });
    expect(bytesHold(catalogOf(real), MARKER)).toMatchObject({ main: false, wal: false });
  });

  it('[memory-partition] a purge names the partitions of a shared catalog it did not cover, and its statement does not claim their text is gone', async () => {
    tmp = tempDir('strata-partition-');
    const dir = join(tmp.dir, 'project');
    mkdirSync(dir);
    // A catalog outside the folder (HostOptions.catalogPath) can hold other workspaces' partitions.
    const shared = join(tmp.dir, 'shared.sqlite');
    const other = Catalog.open(shared);
    MemoryStore.open(other, { partition: partitionId('/elsewhere/other-project'), clock }).propose(markedProposal(MARKER, 0));
    other.close();
    host = Host.open({ catalogPath: shared, workspaceName: 'project', version: '1', workspaceDir: dir, clock, scheduler: manualScheduler(), tokenizer: quarterTokenizer });
    host.memory.propose(markedProposal('OWN-ENTRY-2210', 1));
    const r = await host.connect(() => {}).call('purgeMemory', { confirm: PURGE_CONFIRMATION });
    expect(r.ok).toBe(true);
    const report = (r as { value: Purge }).value;
    expect(report).toMatchObject({ deleted: 1, partitions: [partitionId(realpathSync.native(dir))], otherPartitions: [{ partition: partitionId('/elsewhere/other-project'), entries: 1 }] });
    expect(report.residual).toContain('1 entry in 1 other partition of this catalog');
    expect(report.residual).not.toContain('is no longer in catalog.sqlite');
    expect(bytesHold(shared, 'OWN-ENTRY-2210')).toMatchObject({ main: false, wal: false });
    expect(bytesHold(shared, MARKER).main).toBe(true);
  });
});
