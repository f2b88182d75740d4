import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CommandArgs, type CommandName, commandChannel, commandNames, Commands, eventNames, Events } from '../../engine/contract';
import { Host } from '../../engine/host';
import { createHandlers } from '../../engine/host/handlers';
import { demoWorktreeView } from '../../engine/host/worktreeViews';
import { manualScheduler } from '../../engine/ports/Scheduler';
import { registerIpc } from '../../electron/main/ipcAdapter';
import { createPreloadApi } from '../../electron/preload/createPreloadApi';
import { startWebHost, type WebHost } from '../../electron/web/webHost';
import { demoDir, tempDir } from '../support/tempDir';
import { quarterTokenizer } from '../support/engineFixtures';
import { WsTestClient } from '../support/wsClient';

/** Valid arguments for every command: adding a command without a sample fails to compile. */
const samples: { [K in CommandName]: CommandArgs<K> } = {
  health: {},
  listAgents: {},
  getAgent: { agentId: 'primary' },
  subscribe: { events: ['agent.updated'] },
  listGenerations: { agentId: 'primary' },
  getGeneration: { agentId: 'primary' },
  diffGenerations: { agentId: 'primary', from: 1, to: 1 },
  pin: { itemId: 'acceptance' },
  unpin: { itemId: 'acceptance' },
  remove: { itemId: 'decision:1' },
  verify: { itemId: 'objective' },
  promote: { itemId: 'objective', target: 'pool' },
  previewItemChange: { itemId: 'acceptance', change: 'remove' },
  rebuild: { agentId: 'primary' },
  restoreGeneration: { agentId: 'primary', number: 1 },
  refresh: { agentId: 'primary', reason: 'conformance' },
  listMemory: {},
  getMemory: { id: 'mem_0000000000000000' },
  promoteToMemory: { itemId: 'decision:1' },
  verifyMemory: { id: 'mem_0000000000000000', revision: 1 },
  retireMemory: { id: 'mem_0000000000000000', revision: 1 },
  unverifyMemory: { id: 'mem_0000000000000000', revision: 1 },
  editMemory: { id: 'mem_0000000000000000', revision: 1, body: 'Edited.' },
  addConstraint: { agentId: 'primary', text: 'Keep the API stable.' },
  purgeMemory: { confirm: 'purge project memory' },
  getConversation: { agentId: 'primary' },
  listSkills: {},
  startRun: { driver: 'trace' },
  pauseRun: { runId: 'demo' },
  resumeRun: { runId: 'demo' },
  stepRun: { runId: 'demo' },
  stopRun: { runId: 'demo' },
  listRuns: {},
  controlAgent: { agentId: 'primary', action: 'pause' },
  getUsage: { agentId: 'primary' },
  getProviderSettings: {},
  importTrace: { path: '/no/such/trace.jsonl' },
  importTraceContent: { name: 'session.json', content: JSON.stringify({ messages: [{ role: 'user', content: 'Fix it.' }, { role: 'assistant', content: 'Fixed.' }] }) },
  listTraces: {},
  startComparison: { traceIds: ['tr_0000000000000000'], strategies: ['variable', 'full_history_baseline'], budget: 32_000 },
  getComparison: { comparisonId: 'cmp-1' },
  listComparisons: {},
  cancelComparison: { comparisonId: 'cmp-1' },
  removeTrace: { traceId: 'tr_0000000000000000' },
  listSessions: { limit: 5 },
  attachSession: { path: '/nowhere/session.jsonl', strategy: 'variable', budget: 32_000 },
  detachSession: { sessionId: 'ses-1' },
  listAttached: {},
  getSession: { sessionId: 'ses-1' },
  getGateway: {},
  startGateway: { port: 0, mode: 'observe' },
  stopGateway: {},
  listGatewaySessions: {},
  getGatewaySession: { sessionId: 'gws-1' },
  setGatewayMode: { sessionId: 'gws-1', mode: 'manage' },
  gatewayControl: { sessionId: 'gws-1', threadId: 'gwt-1', itemKey: 'toolu_1', action: 'pin' },
  getGatewayRequest: { callId: 'gwc-1' },
};

/** A call reached its handler: it succeeded, or the handler itself refused it (e.g. already removed). */
const reachedHandler = (e: { ok: boolean; error?: { code: string } }) => e.ok || !['unknown_command', 'invalid_args', 'forbidden', 'internal'].includes(e.error?.code ?? '');

const tmp = tempDir();
let host: Host;
let web: WebHost;

beforeAll(async () => {
  host = Host.open({ catalogPath: join(tmp.dir, 'c.sqlite'), workspaceName: 'demo', version: '1', demoDir, scheduler: manualScheduler(), tokenizer: quarterTokenizer });
  for (let i = 0; i < 3; i++) await host.stepDemo();
  web = await startWebHost({ host, staticDir: tmp.dir });
});
afterAll(async () => {
  await web.close();
  host.close();
  tmp.remove();
});

describe('contract conformance: every command exists on every side', () => {
  it('has a zod schema for its arguments and its result, and every event has one', () => {
    for (const name of commandNames) {
      expect(typeof Commands[name].args.safeParse, name).toBe('function');
      expect(typeof Commands[name].result.safeParse, name).toBe('function');
      expect(Commands[name].args.safeParse(samples[name]).success, `${name} sample`).toBe(true);
    }
    for (const name of eventNames) expect(typeof Events[name].safeParse, name).toBe('function');
  });

  it('has a host handler', () => {
    const handlers = createHandlers({
      catalog: host.catalog,
      version: '1',
      workspaceName: 'demo',
      uptimeMs: () => 0,
      engine: () => host.engine,
      syncAgent: () => {},
      memory: host.memory,
      view: demoWorktreeView,
      memoryChanged: () => {},
      conversations: host.conversations,
      runs: host.runs,
      now: () => 0,
      traceImported: () => {},
      traceRemoved: () => {},
      comparisons: host.comparisons,
      sessionRoots: {},
      liveSessions: host.liveSessions,
      gateway: host.gateway,
    });
    expect(Object.keys(handlers).sort()).toEqual([...commandNames].sort());
  });

  it('has one preload method on its own IPC channel', async () => {
    const invoked: string[] = [];
    const api = createPreloadApi({
      invoke: async (channel) => {
        invoked.push(channel);
        return { ok: true, value: { events: [] } };
      },
      on: () => undefined,
      removeListener: () => undefined,
    }) as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
    expect(Object.keys(api).sort()).toEqual([...commandNames].sort());
    for (const name of commandNames) {
      await (name === 'subscribe' ? api.subscribe!(['log'], () => {}) : api[name]!(samples[name]));
    }
    expect(invoked).toEqual(commandNames.map(commandChannel));
  });

  it('has an IPC handler in the Electron main adapter that reaches the host', async () => {
    const handlers = new Map<string, (event: unknown, args: unknown) => unknown>();
    registerIpc({ handle: (c, fn) => handlers.set(c, fn as never), removeHandler: (c) => handlers.delete(c) }, host, () => true);
    expect([...handlers.keys()].sort()).toEqual(commandNames.map(commandChannel).sort());
    const sender = { id: 1, send: () => {}, isDestroyed: () => false, once: () => undefined };
    for (const name of commandNames) {
      const envelope = (await handlers.get(commandChannel(name))!({ sender, senderFrame: { url: 'app://strata/index.html' } }, samples[name])) as { ok: boolean; error?: { code: string } };
      expect(reachedHandler(envelope), `${name}: ${JSON.stringify(envelope.error)}`).toBe(true);
    }
  });

  it('has a WebSocket route on the headless host that reaches the host', async () => {
    const client = await WsTestClient.connect(`ws://127.0.0.1:${web.port}/ws`, {}, web.token);
    try {
      for (const name of commandNames) {
        const envelope = await client.call(name, samples[name]);
        expect(reachedHandler(envelope as never), `${name}: ${JSON.stringify(envelope)}`).toBe(true);
        if (envelope.ok) expect(Commands[name].result.safeParse(envelope.value).success, name).toBe(true);
      }
    } finally {
      client.close();
    }
  });

  it('gives the same typed error for a malformed argument on both transports', async () => {
    const handlers = new Map<string, (event: unknown, args: unknown) => unknown>();
    registerIpc({ handle: (c, fn) => handlers.set(c, fn as never), removeHandler: () => {} }, host, () => true);
    const sender = { id: 2, send: () => {}, isDestroyed: () => false, once: () => undefined };
    const viaIpc = await handlers.get(commandChannel('getAgent'))!({ sender, senderFrame: { url: 'app://strata/' } }, { agentId: 3 });
    const client = await WsTestClient.connect(`ws://127.0.0.1:${web.port}/ws`, {}, web.token);
    const viaWs = await client.call('getAgent', { agentId: 3 });
    client.close();
    expect(viaIpc).toEqual(viaWs);
    expect(viaWs).toMatchObject({ ok: false, error: { code: 'invalid_args', issues: [{ path: 'agentId' }] } });
  });
});
