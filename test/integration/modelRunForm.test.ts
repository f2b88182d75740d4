import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CommandName, StrataBridge } from '../../engine/contract';
import { Host } from '../../engine/host';
import { modelRunDeps } from '../../engine/host/modelRunDeps';
import { manualScheduler } from '../../engine/ports/Scheduler';
import { createApi } from '../../renderer/api/createApi';
import { createModelRunController, type ModelRunRequest } from '../../renderer/controller/modelRunController';
import { createStrataStore } from '../../renderer/store/store';
import { quarterTokenizer } from '../support/engineFixtures';
import { startOpenAILoopback, type LoopbackServer } from '../support/loopback';
import { tempDir } from '../support/tempDir';

// [run-model-form] The form's round trip through a real host over a project folder: every refusal
// the host gives a model run reaches the form as a sentence a person can act on, and a run it
// accepts has its primary selected.

const KEY = 'sk-loopback-form-0123456789abcdef';
let tmp: ReturnType<typeof tempDir> | undefined;
let host: Host | undefined;
let server: LoopbackServer | undefined;
afterEach(async () => {
  host?.close();
  await server?.close();
  tmp?.remove();
  host = server = tmp = undefined;
});

/** A host over a fresh project folder (with `toml` as its strata.toml when given), and the form's controller wired to it through the renderer's api. */
function open(env: Record<string, string>, toml?: string) {
  tmp = tempDir();
  const dir = join(tmp.dir, 'project');
  mkdirSync(dir);
  writeFileSync(join(dir, 'README.md'), '# a project\n');
  if (toml !== undefined) writeFileSync(join(dir, 'strata.toml'), toml);
  const h = Host.open({ catalogPath: join(dir, '.strata', 'catalog.sqlite'), workspaceName: 'project', version: '1', workspaceDir: dir, scheduler: manualScheduler(), tokenizer: quarterTokenizer, runDeps: modelRunDeps(dir, env) });
  host = h;
  const conn = h.connect(() => {});
  const bridge = new Proxy({}, { get: (_t, name) => (args: unknown) => conn.call(name as CommandName, args) }) as StrataBridge;
  const store = createStrataStore();
  const selected: string[] = [];
  const controller = createModelRunController(createApi(bridge), store, async (agentId) => void selected.push(agentId));
  return { host: h, store, controller, selected };
}

const request = (over: Partial<ModelRunRequest> = {}): ModelRunRequest => ({ provider: 'openai', model: 'gpt-5-mini', task: 'Read the README and say what the project is.', ...over });
/** Wording of the wire, the schema or the code that must never reach the form. */
const RAW = /startRun|Invalid arguments|Too (small|big)|expected string|task:|model:|driver/;

describe('[run-model-form] the model-run form against a real host', () => {
  it('[run-model-form] without a key the settings say so and a start is refused naming the variable, nothing started', async () => {
    const { host: h, controller } = open({});
    const settings = await controller.loadProviderSettings();
    expect(settings).toEqual({ providers: [expect.objectContaining({ provider: 'openai', keyPresent: false }), expect.objectContaining({ provider: 'anthropic', keyPresent: false })] });
    for (const [provider, variable, label] of [['openai', 'OPENAI_API_KEY', 'OpenAI'], ['anthropic', 'ANTHROPIC_API_KEY', 'Anthropic']] as const) {
      const r = await controller.startModelRun(request({ provider }));
      expect(r).toEqual({ error: `Not started: the host has no ${label} key. Set ${variable} in the environment Strata is started from, then restart Strata (a key is never typed here).` });
    }
    expect(h.runs.list()).toEqual([]);
    expect(h.catalog.countAgents()).toBe(0);
  });

  it('[run-model-form] fields the host refuses are named as the form names them, never in zod\'s words', async () => {
    const { host: h, controller } = open({ OPENAI_API_KEY: KEY });
    const said = async (over: Partial<ModelRunRequest>) => {
      const r = await controller.startModelRun(request(over));
      if (!('error' in r)) throw new Error('the host started a run it should refuse');
      expect(r.error).not.toMatch(RAW);
      return r.error;
    };
    expect(await said({ task: '' })).toBe('The task is empty: type what the run should do.');
    expect(await said({ task: 'x'.repeat(4001) })).toBe('The task is too long: a run takes up to 4,000 characters. Shorten it and start again.');
    expect(await said({ model: '' })).toBe('The model name is empty: name the model to run.');
    expect(await said({ model: 'm'.repeat(201) })).toBe('The model name is too long (at most 200 characters).');
    expect(h.runs.list()).toEqual([]);
  });

  it('[run-model-form] a broken strata.toml is said to be the folder\'s file at fault, with the host\'s own sentence', async () => {
    const { controller } = open({ OPENAI_API_KEY: KEY }, '[providers]\nturn_timeout_ms = 5\n');
    const r = await controller.startModelRun(request());
    expect(r).toEqual({ error: expect.stringMatching(/^Not started: the folder's strata\.toml has a problem\. .*strata\.toml: providers\.turn_timeout_ms .*\(got 5\)/) });
    expect((r as { error: string }).error).not.toMatch(RAW);
  });

  it('[run-model-form] a run the host starts is in the store with its primary selected; a second start while it runs is refused in words', async () => {
    server = await startOpenAILoopback({ expectedKey: KEY, defaultReply: { kind: 'text', text: 'It is a project.' } });
    const { host: h, store, controller, selected } = open({ OPENAI_API_KEY: KEY, OPENAI_BASE_URL: server.url });
    expect(await controller.loadProviderSettings()).toEqual({ providers: [expect.objectContaining({ provider: 'openai', keyPresent: true, baseUrl: server.url }), expect.objectContaining({ provider: 'anthropic', keyPresent: false })] });
    const r = await controller.startModelRun(request({ model: '  gpt-5-mini  ' }));
    if (!('run' in r)) throw new Error(r.error);
    expect(r.run).toMatchObject({ driver: 'model', status: 'running', label: request().task });
    expect(h.catalog.getAgent(`${r.run.runId}.primary`)).toMatchObject({ role: 'primary', model: 'gpt-5-mini' });
    expect(selected).toEqual([`${r.run.runId}.primary`]);
    expect(store.getState().runs.list.map((x) => x.runId)).toEqual([r.run.runId]);
    expect(store.getState().agents.order).toEqual([`${r.run.runId}.primary`]);
    expect(store.getState().controls.byKey['run']).toMatchObject({ status: 'ok', message: `Run ${r.run.runId} started with OpenAI gpt-5-mini.` });

    const again = await controller.startModelRun(request());
    expect(again).toEqual({ error: `Not started: Run ${r.run.runId} is running; stop it before starting another.` });
    expect(h.runs.list()).toHaveLength(1);
  });
});
