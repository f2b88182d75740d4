// A child process for the evidence-file tests: what it does could hang its thread for good (a
// FIFO read) or grow it without bound (a link to /dev/zero), so the test runs it apart with a bound
// and reads one JSON line from stdout.
// Run: node --import tsx test/support/evidenceProbe.ts <scenario> <workspace> [path]
//   hash <workspace> <path>        the folder view's hash of one path, and why there is none
//   promote-failed-read <workspace> a failed read_file of "pipe" through the workspace tools, promoted to memory
//   promote-unhashable <workspace> an item naming src/a.ts and big.txt promoted to memory, with the workspace log after
//   recall-after-fifo <workspace>   a verified entry on src/a.ts recalled in a trace run; src/a.ts becomes a FIFO; a second run
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandName, MemoryEntryDto } from '../../engine/contract';
import type { AgentIdentity } from '../../engine/generations/AgentIdentity';
import { folderWorktreeView } from '../../engine/host/worktreeViews';
import { readEvidenceFile } from '../../engine/node/workspace/readEvidenceFile';

const [scenario, workspace, path] = process.argv.slice(2) as [string, string, string | undefined];
const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

// The Host (most of the engine) loads only for the scenarios that open one: a "hash" probe starts
// in about half the time without it, and the tests run many of them.
async function openHost(catalogDir: string) {
  const [{ Host }, { manualScheduler }, { quarterTokenizer }] = await Promise.all([import('../../engine/host'), import('../../engine/ports/Scheduler'), import('./engineFixtures')]);
  const host = Host.open({ catalogPath: join(catalogDir, 'catalog.sqlite'), workspaceName: 'evidence', version: '0.0.0-test', workspaceDir: workspace, scheduler: manualScheduler(), tokenizer: quarterTokenizer });
  const conn = host.connect(() => {});
  const call = async <T>(name: CommandName, args: unknown): Promise<T> => {
    const env = await conn.call(name, args);
    if (!env.ok) throw new Error(`${name} failed: ${env.error.code}: ${env.error.message}`);
    return env.value as T;
  };
  return { host, call };
}

async function main(): Promise<void> {
  if (scenario === 'hash') {
    const hash = folderWorktreeView(workspace).hashOf(path as string) ?? null;
    const read = readEvidenceFile(workspace, path as string);
    print({ hash, reason: read.ok ? null : read.reason });
    return;
  }
  if (scenario === 'promote-failed-read') {
    const { host, call } = await openHost(path as string);
    const [{ workspaceToolbox }, { DEFAULT_TOOLS_CONFIG }] = await Promise.all([import('../../engine/host/workspaceToolbox'), import('../../engine/node/tools/toolsConfig')]);
    const { toolbox, toolItems } = workspaceToolbox(workspace, DEFAULT_TOOLS_CONFIG);
    const toolCall = { id: 'call_fifo', name: 'read_file', arguments: JSON.stringify({ path: 'pipe' }) };
    const outcome = await toolbox.call(toolCall, { agentId: 'primary', signal: new AbortController().signal });
    const agent = { agentId: 'primary', taskId: 'task:evidence' } as AgentIdentity;
    const [input] = toolItems(agent, toolCall, outcome, Date.parse('2026-12-01T00:00:00Z'));
    if (!input) throw new Error('the failed read mapped to no item');
    const item = host.engine.addItem(input);
    const { entry } = await call<{ entry: MemoryEntryDto }>('promoteToMemory', { itemId: item.id });
    print({ outcome: { isError: outcome.isError, content: outcome.content }, itemFiles: item.provenance.files, entry });
    host.close();
    return;
  }
  if (scenario === 'promote-unhashable') {
    const { host, call } = await openHost(path as string);
    const item = host.engine.addItem({ id: 'finding:big', kind: 'finding', class: 'finding', source: 'worker_finding', title: 'big.txt holds the fixtures', content: 'The fixtures are generated into big.txt from src/a.ts.', agentId: 'primary', taskId: 'task:evidence', at: Date.parse('2026-12-01T00:00:00Z'), files: ['src/a.ts', 'big.txt'] });
    const { entry } = await call<{ entry: MemoryEntryDto }>('promoteToMemory', { itemId: item.id });
    const hashes = host.memory.get(entry.id)?.evidence.hashes ?? {};
    print({ entry, hashed: Object.keys(hashes).sort(), log: host.catalog.recentLog(20).map((l) => ({ level: l.level, message: l.message })) });
    host.close();
    return;
  }
  if (scenario === 'recall-after-fifo') {
    const { host, call } = await openHost(path as string);
    const item = host.engine.addItem({ id: 'finding:a', kind: 'finding', class: 'finding', source: 'worker_finding', title: 'a.ts splits on commas', content: 'parse() in src/a.ts splits its input on commas.', agentId: 'primary', taskId: 'task:evidence', at: Date.parse('2026-12-01T00:00:00Z'), files: ['src/a.ts'] });
    const { entry } = await call<{ entry: MemoryEntryDto }>('promoteToMemory', { itemId: item.id });
    await call('verifyMemory', { id: entry.id, revision: entry.revision });
    const recalled = () => host.engine.items().filter((i) => i.id.startsWith('recall:') && i.id.endsWith(`:${entry.id}`)).length;
    const runTurns = async (n: number) => {
      const { run } = await call<{ run: { runId: string } }>('startRun', { driver: 'trace', tickMs: 0, demoInProjectFolder: true });
      for (let i = 0; i < n; i++) await host.stepDemo();
      const copies = recalled();
      await call('stopRun', { runId: run.runId });
      return copies;
    };
    const before = await runTurns(8);
    rmSync(join(workspace, 'src', 'a.ts'));
    execFileSync('mkfifo', [join(workspace, 'src', 'a.ts')]);
    const after = await runTurns(8);
    print({ entryPaths: entry.evidence.paths, recalledBefore: before, recalledAfter: after, state: host.memory.get(entry.id)?.state });
    host.close();
    return;
  }
  throw new Error(`unknown scenario ${scenario}`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
