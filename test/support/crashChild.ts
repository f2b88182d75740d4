// The writer the crash-safety test kills: opens a catalog and its memory store, then writes turns
// until it is killed. Each turn is one catalog transaction (agent row, log line, pool item, and
// every MEMORY_EVERY turns a memory proposal); only after the transaction returns does it print
// `turn <n>` (and `mem <id>`) with a synchronous write, so a printed line is a committed promise.
// It prints `loaded` once its modules are in and opens the catalog only when a line arrives on
// stdin, so the test can start the next writer while it still checks the file.
// Run: node --import tsx test/support/crashChild.ts <catalog path>
import { writeSync } from 'node:fs';
import { Catalog } from '../../engine/node/catalog/Catalog';
import { createItem } from '../../engine/items/createItem';
import { partitionId } from '../../engine/memory/partitionId';
import { MemoryStore } from '../../engine/node/memoryStore/MemoryStore';
import { systemClock } from '../../engine/ports/Clock';
import { CRASH_AGENT, crashMemorySeed, crashTurnItemId, crashTurnLog, MEMORY_EVERY } from './crashTurns';
import { proposalNo } from './memoryFixtures';

const path = process.argv[2];
if (!path) throw new Error('usage: crashChild.ts <catalog path>');
const say = (line: string) => writeSync(1, `${line}\n`);

say('loaded');
await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
say('opening');
const catalog = Catalog.open(path);
const memory = MemoryStore.open(catalog, { partition: partitionId('crash-safety'), clock: systemClock });
// The agent row's revision is the last committed turn: each run continues where the last one died.
let turn = catalog.getAgent(CRASH_AGENT)?.revision ?? 0;
say(`ready ${turn}`);

for (;;) {
  turn++;
  const at = systemClock.now();
  const memId = catalog.transaction(() => {
    catalog.putAgent({
      agentId: CRASH_AGENT,
      parent: null,
      role: 'worker',
      task: 'Survive being killed',
      model: 'none',
      status: 'running',
      generation: 1,
      tokens: turn,
      budget: 1_000_000,
      usage: { input: turn, cacheRead: 0, cacheWrite: 0, output: 0 },
      revision: turn,
      updatedAt: new Date(at).toISOString(),
    });
    catalog.appendLog({ at: new Date(at).toISOString(), level: 'info', agentId: CRASH_AGENT, message: crashTurnLog(turn) });
    catalog.putItem(
      createItem({
        id: crashTurnItemId(turn),
        kind: 'tool_output',
        class: 'ephemeral',
        content: `Turn ${turn}: ${'ran the tests; all pass. '.repeat(1 + (turn % 20))}`,
        source: 'test_result',
        agentId: CRASH_AGENT,
        taskId: 'task-crash',
        at,
      }),
      turn,
    );
    return turn % MEMORY_EVERY === 0 ? memory.propose(proposalNo(turn, at), crashMemorySeed(turn)).id : undefined;
  });
  say(`turn ${turn}`);
  if (memId) say(`mem ${memId}`);
}
