import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { StrataEvent } from '../../engine/contract';
import { Host } from '../../engine/host';
import { quarterTokenizer } from './engineFixtures';
import { tempDir } from './tempDir';

/**
 * A fresh host per test over a temp-dir workspace and catalog, for the trace tests: `connect()`
 * subscribes to `subscribeTo` and collects what arrives in `events`. Read the fields inside tests
 * (they are replaced before each one).
 */
export function useTraceHost(subscribeTo: readonly StrataEvent['name'][]) {
  const t = {
    tmp: undefined as unknown as ReturnType<typeof tempDir>,
    host: undefined as unknown as Host,
    catalogPath: '',
    events: [] as StrataEvent[],
    async connect() {
      const conn = t.host.connect((e) => t.events.push(e));
      await conn.call('subscribe', { events: [...subscribeTo] });
      return conn;
    },
  };
  beforeEach(() => {
    t.tmp = tempDir();
    t.catalogPath = join(t.tmp.dir, '.strata', 'catalog.sqlite');
    t.host = Host.open({ catalogPath: t.catalogPath, workspaceName: 'traces', version: '1', workspaceDir: t.tmp.dir, tokenizer: quarterTokenizer });
    t.events.length = 0;
  });
  afterEach(() => {
    t.host.close();
    t.tmp.remove();
  });
  return t;
}
