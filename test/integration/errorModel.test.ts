import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommandName, ErrorCode } from '../../engine/contract';
import { Host } from '../../engine/host';
import { quarterTokenizer } from '../support/engineFixtures';
import { tempDir } from '../support/tempDir';
import { writeTruncatedTrace } from '../support/traceFixtures';

describe('[error-model] domain errors from real handler paths, through a real host', () => {
  let tmp: ReturnType<typeof tempDir>;
  let host: Host;
  let internal: { command: string; err: unknown }[];
  beforeEach(() => {
    tmp = tempDir();
    internal = [];
    host = Host.open({
      catalogPath: join(tmp.dir, '.strata', 'catalog.sqlite'),
      workspaceName: 'errors',
      version: '1',
      workspaceDir: tmp.dir,
      tokenizer: quarterTokenizer,
      onInternalError: (err, command) => internal.push({ command, err }),
    });
  });
  afterEach(() => {
    host.close();
    tmp.remove();
  });

  const cases: [what: string, command: CommandName, args: () => unknown, code: ErrorCode, message: RegExp][] = [
    ['a missing trace file (TraceFileError not_found)', 'importTrace', () => ({ path: join(tmp.dir, 'missing.jsonl') }), 'not_found', /^No trace file at .*missing\.jsonl\.$/],
    ['a folder given as a trace (TraceFileError refused)', 'importTrace', () => ({ path: tmp.dir }), 'invalid_args', /is not a file; give the path of one trace file/],
    ['a truncated trace (TraceImportError)', 'importTrace', () => ({ path: writeTruncatedTrace(tmp.dir) }), 'invalid_args', /truncated\.json:\d+:\d+: /],
    ['pinning an item the pool does not hold (EngineError not_found)', 'pin', () => ({ itemId: 'nope' }), 'not_found', /No item "nope"/],
    ['verifying a memory entry that does not exist (MemoryError not_found)', 'verifyMemory', () => ({ id: 'mem_nope', revision: 1 }), 'not_found', /No memory entry mem_nope/],
  ];

  it.each(cases)('[error-model] %s reaches the caller as its code and is not reported as internal', async (_what, command, args, code, message) => {
    const envelope = await host.connect(() => {}).call(command, args());
    expect(envelope).toMatchObject({ ok: false, error: { code, message: expect.stringMatching(message) } });
    expect(internal).toEqual([]);
  });
});
