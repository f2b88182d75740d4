import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { CODEX_LAST_MESSAGE } from './codexLongTask';
import type { ProxyName } from './proxies';
import { runRealClient, type RealClientRun } from './realClientHarness';
import type { WireApi } from './replyScript';
import type { ScenarioName } from './scenarios';

/**
 * The two clients as their long-task tests see them (`claudeCodeLongTask.test.ts`,
 * `codexLongTask.test.ts`): what differs between Claude Code and Codex, so the checks
 * (`longTaskChecks.ts`) are written once; and the runs a `describe` sets up.
 */

export interface LongTaskClient {
  /** As the printed figures name it. */
  name: string;
  scenario: ScenarioName;
  wire: WireApi;
  /** The task's final answer, as the client gave it. */
  finalAnswer(run: RealClientRun): string;
}

export const CLAUDE_CODE: LongTaskClient = {
  name: 'Claude Code',
  scenario: 'claude-code-long-task',
  wire: 'anthropic',
  finalAnswer: (run) => (JSON.parse(run.steps[0]!.stdout) as { result?: string }).result ?? '',
};

export const CODEX: LongTaskClient = {
  name: 'Codex',
  scenario: 'codex-long-task',
  wire: 'responses',
  // As `codex exec --output-last-message` wrote it.
  finalAnswer: (run) => readFileSync(join(run.clientHome, CODEX_LAST_MESSAGE), 'utf8').trim(),
};

/** One run of a client's long task, set by the `describe`'s `beforeAll`. */
export interface LongTaskRun {
  client: LongTaskClient;
  run: RealClientRun;
}

/** The client's long task run directly, or through `proxy`, before the `describe`'s tests; removed after them. */
export function longTaskRun(client: LongTaskClient, proxy?: ProxyName): LongTaskRun {
  const r = { client } as LongTaskRun;
  beforeAll(async () => {
    r.run = await runRealClient(client.scenario, proxy ? { proxy } : {});
  }, 20 * 60_000);
  afterAll(() => r.run?.remove());
  return r;
}
