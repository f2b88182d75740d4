import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { CODEX_LAST_MESSAGE } from './codexLongTask';
import type { ProxyName } from './proxies';
import { runRealClient, type RealClientRun } from './realClientHarness';
import type { WireApi } from './replyScript';
import type { ScenarioName } from './scenarios';

/**
 * The two clients as their long-task tests see them (`claudeCodeLongTask.test.ts`,
 * `codexLongTask.test.ts` and their gateway runs): what differs between Claude Code and Codex, so
 * the checks (`longTaskChecks.ts`, `gatewayChecks.ts`) are written once; and the runs a `describe`
 * sets up.
 */

export interface LongTaskClient {
  /** As the printed figures name it. */
  name: string;
  scenario: ScenarioName;
  wire: WireApi;
  /** The route of a model call, as `exchangePairs` names it. */
  modelRoute: string;
  /** The client as the gateway names its sessions. */
  gatewayClient: string;
  /** The task's final answer, as the client gave it. */
  finalAnswer(run: RealClientRun): string;
  /** Where a budget boundary breaks the prefix the gateway sent: at a message (Messages) or an input item (Responses). */
  boundaryBreak: RegExp;
  /** Inside a generation a call's cache reads everything the previous call sent, as the provider counts cached tokens. */
  expectReadsPrevious(cacheRead: number, previousPrompt: number, label: string): void;
}

export const CLAUDE_CODE: LongTaskClient = {
  name: 'Claude Code',
  scenario: 'claude-code-long-task',
  wire: 'anthropic',
  modelRoute: 'POST /v1/messages',
  gatewayClient: 'claude-cli',
  finalAnswer: (run) => (JSON.parse(run.steps[0]!.stdout) as { result?: string }).result ?? '',
  boundaryBreak: /^message \d+$/,
  // Anthropic: its prompt up to its last breakpoint, here all of it.
  expectReadsPrevious: (cacheRead, previousPrompt, label) => expect(cacheRead, label).toBe(previousPrompt),
};

export const CODEX: LongTaskClient = {
  name: 'Codex',
  scenario: 'codex-long-task',
  wire: 'responses',
  modelRoute: 'POST /v1/responses',
  gatewayClient: 'codex_exec',
  // As `codex exec --output-last-message` wrote it.
  finalAnswer: (run) => readFileSync(join(run.clientHome, CODEX_LAST_MESSAGE), 'utf8').trim(),
  boundaryBreak: /^input \d+$/,
  // OpenAI counts cached tokens in 128-token steps.
  expectReadsPrevious: (cacheRead, previousPrompt, label) => expect(cacheRead, label).toBeGreaterThan(previousPrompt - 128),
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

/** The client's long task through the gateway observing, then managing, set by the `describe`'s `beforeAll`. */
export interface GatewayRuns {
  client: LongTaskClient;
  observe: RealClientRun;
  manage: RealClientRun;
}

/** The client's long task through the gateway, observed then managed, before the `describe`'s tests; both removed after them. */
export function gatewayRuns(client: LongTaskClient): GatewayRuns {
  const r = { client } as GatewayRuns;
  beforeAll(async () => {
    r.observe = await runRealClient(client.scenario, { proxy: 'gateway-observe' });
    r.manage = await runRealClient(client.scenario, { proxy: 'gateway-manage' });
  }, 40 * 60_000);
  afterAll(() => {
    r.observe?.remove();
    r.manage?.remove();
  });
  return r;
}
