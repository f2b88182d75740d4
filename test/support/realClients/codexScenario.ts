import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { o200kTokens } from './countedPrompt';
import { after, lastUserSaid, type RequestView, type ScriptRule } from './replyScript';
import type { CliStep, RealClientScenario, ScenarioContext } from './RealClientScenario';

/**
 * Codex through three `codex exec` turns against the scripted server:
 * 1. `TURN-1`: the model reads `notes.txt` (exec_command), spawns a subagent (`spawn_agent` of
 *    the `collaboration` namespace, `multi_agent_v2`) that reads `config/settings.ini` and
 *    answers, waits for it (`wait_agent`), then answers;
 * 2. `exec resume <thread>` `TURN-2`: the model prints `big.log`, whose output pushes the prompt
 *    over `model_auto_compact_token_limit` (set from the size of turn 1's largest prompt), so Codex
 *    compacts mid-turn with a compaction call and continues from the summary;
 * 3. `exec resume <thread>` `TURN-3`: one more command, then the final answer.
 *
 * Configuration keeps Codex on the loopback server: the `loop` provider (Responses API at the
 * server), `features.plugins = false` (else it runs `git ls-remote https://github.com/openai/plugins.git`
 * and resolves api.github.com and chatgpt.com), `analytics.enabled = false` (else it resolves
 * ab.chatgpt.com), and `check_for_update_on_startup = false`.
 */

const CODEX_TURN_1 = 'CX-TURN-1';
const CODEX_TURN_2 = 'CX-TURN-2';
const CODEX_TURN_3 = 'CX-TURN-3';
const CODEX_SUBAGENT_MARKER = 'CX-SUBAGENT';
/** Codex's compaction prompt and the first words of the summary message it continues from. */
const CODEX_COMPACTION_PROMPT = 'CONTEXT CHECKPOINT COMPACTION';
const CODEX_SUMMARY_PREFIX = 'Another language model started to solve this problem';

/** `big.log`: 400 lines of batch timings, several thousand tokens of tool output. */
const BIG_LOG = `${Array.from({ length: 400 }, (_, i) => `2026-12-01T10:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')} worker-${i % 7} processed batch ${i * 13} in ${(i * 37) % 1000} ms`).join('\n')}\n`;

const isSubagent = (r: RequestView) => r.userTexts.some((t) => t.includes(CODEX_SUBAGENT_MARKER)) && !r.userTexts.some((t) => t.includes(CODEX_TURN_1));
const isMain = (r: RequestView) => !isSubagent(r);
const isCompaction = (r: RequestView) => (r.userTexts[r.userTexts.length - 1] ?? '').includes(CODEX_COMPACTION_PROMPT);
const both =
  (...ps: ((r: RequestView) => boolean)[]) =>
  (r: RequestView) =>
    ps.every((p) => p(r));

const exec = (id: string, cmd: string) => ({ id, name: 'exec_command', input: { cmd } });

function threadId(ctx: ScenarioContext): string {
  const first = ctx.outcomes[0]?.stdout ?? '';
  const started = first.split('\n').find((l) => l.includes('"thread.started"'));
  const id = started ? (JSON.parse(started) as { thread_id?: string }).thread_id : undefined;
  if (!id) throw new Error(`codex turn 1 printed no thread.started event: ${first.slice(0, 400)}`);
  return id;
}

/** The limit: turn 1's largest main-thread prompt plus half of what big.log adds, so only its output crosses it. */
function compactLimit(ctx: ScenarioContext): number {
  const main = ctx.calls.filter((c) => c.kind === 'openai-responses' && c.agent === 'main' && c.promptTokens !== undefined);
  const largest = Math.max(0, ...main.map((c) => c.promptTokens!));
  return largest + Math.round(o200kTokens(BIG_LOG) / 2);
}

/** One `codex exec` turn with `args`, its home the client's. */
export function codexExec(ctx: ScenarioContext, label: string, args: string[]): CliStep {
  return {
    label,
    argv: [process.execPath, ctx.cli, 'exec', ...args],
    env: { CODEX_HOME: ctx.clientHome, OPENAI_API_KEY: 'sk-harness-dummy-key' },
  };
}

/** Codex's `config.toml` in the client's home: the settings that keep it on the loopback server (above), and a scenario's own at the top and under `[features]`. */
export function writeCodexConfig(ctx: ScenarioContext, own: { settings?: string[]; features?: string[] }): void {
  writeFileSync(
    join(ctx.clientHome, 'config.toml'),
    [
      'model = "gpt-5.5"',
      'model_provider = "loop"',
      'check_for_update_on_startup = false',
      ...(own.settings ?? []),
      '',
      '[model_providers.loop]',
      'name = "loop"',
      `base_url = "${ctx.origin}/v1"`,
      'wire_api = "responses"',
      'env_key = "OPENAI_API_KEY"',
      '',
      '[features]',
      'plugins = false',
      ...(own.features ?? []),
      '',
      '[analytics]',
      'enabled = false',
      '',
    ].join('\n'),
  );
}

export const codexScenario: RealClientScenario = {
  client: 'codex',
  prepare(ctx) {
    mkdirSync(join(ctx.workspace, 'config'), { recursive: true });
    writeFileSync(join(ctx.workspace, 'notes.txt'), 'Build with `make all`; the release branch is cut on Fridays.\n');
    writeFileSync(join(ctx.workspace, 'config', 'settings.ini'), '[client]\nretries = 3\ntimeout_ms = 2500\n');
    writeFileSync(join(ctx.workspace, 'big.log'), BIG_LOG);
    writeCodexConfig(ctx, { features: ['multi_agent_v2 = true'] });
  },
  rules(): ScriptRule[] {
    return [
      { id: 'main-cat-notes', agent: 'main', when: both(isMain, lastUserSaid(CODEX_TURN_1)), reply: { text: 'Reading the notes.', calls: [exec('call_h2_cat_notes', 'cat notes.txt')] } },
      {
        id: 'main-spawn',
        agent: 'main',
        when: both(isMain, after('call_h2_cat_notes')),
        reply: {
          text: 'A helper will read the settings.',
          calls: [{ id: 'call_h2_spawn', name: 'spawn_agent', namespace: 'collaboration', input: { task_name: 'reader', message: `${CODEX_SUBAGENT_MARKER}: read config/settings.ini and report the retries value.`, fork_turns: 'none' } }],
        },
      },
      { id: 'sub-cat', agent: 'subagent', when: both(isSubagent, (r) => !r.endsWithResult), reply: { text: 'Reading the settings.', calls: [exec('call_h2_sub_cat', 'cat config/settings.ini')] } },
      { id: 'sub-answer', agent: 'subagent', when: both(isSubagent, after('call_h2_sub_cat')), reply: { text: 'The settings say retries = 3 and timeout_ms = 2500.' } },
      { id: 'main-wait', agent: 'main', when: both(isMain, after('call_h2_spawn')), reply: { calls: [{ id: 'call_h2_wait', name: 'wait_agent', namespace: 'collaboration', input: { timeout_ms: 120000 } }] } },
      // The subagent's answer comes after the wait's result, as an `agent_message` (FINAL_ANSWER).
      { id: 'main-answer-1', agent: 'main', when: both(isMain, (r) => r.results[r.results.length - 1]?.callId === 'call_h2_wait', lastUserSaid('FINAL_ANSWER')), reply: { text: 'Done: build with make all; the helper says retries = 3.' } },
      { id: 'main-cat-big', agent: 'main', when: both(isMain, lastUserSaid(CODEX_TURN_2)), reply: { text: 'Printing the log.', calls: [exec('call_h2_cat_big', 'cat big.log')] } },
      {
        id: 'compaction',
        agent: 'compaction',
        when: both(isMain, isCompaction),
        reply: { text: 'The user asked for notes.txt (build with make all), a helper read settings.ini (retries = 3), then big.log was printed (400 lines of worker batches).' },
      },
      // Codex compacts before sending the big output (its estimate of the next prompt crosses the
      // limit), then continues from the summary; were it to send the output first, this answers that.
      { id: 'main-answer-2', agent: 'main', when: both(isMain, (r) => !isCompaction(r) && (lastUserSaid(CODEX_SUMMARY_PREFIX)(r) || after('call_h2_cat_big')(r))), reply: { text: 'big.log has 400 lines of batch timings.' } },
      { id: 'main-cat-settings', agent: 'main', when: both(isMain, lastUserSaid(CODEX_TURN_3)), reply: { text: 'Checking the settings.', calls: [exec('call_h2_cat_settings', 'cat config/settings.ini')] } },
      { id: 'main-answer-3', agent: 'main', when: both(isMain, after('call_h2_cat_settings')), reply: { text: 'retries is 3 and the timeout is 2500 ms.' } },
    ];
  },
  steps: [
    (ctx) => codexExec(ctx, 'turn 1: a command and a subagent', ['--json', '--skip-git-repo-check', `${CODEX_TURN_1}: read notes.txt, then ask a helper agent to read config/settings.ini.`]),
    (ctx) => codexExec(ctx, 'turn 2: a large output and a compaction', ['resume', threadId(ctx), '--json', '--skip-git-repo-check', '-c', `model_auto_compact_token_limit=${compactLimit(ctx)}`, `${CODEX_TURN_2}: print big.log and count its lines.`]),
    (ctx) => codexExec(ctx, 'turn 3: after the compaction', ['resume', threadId(ctx), '--json', '--skip-git-repo-check', '-c', `model_auto_compact_token_limit=${compactLimit(ctx) * 4}`, `${CODEX_TURN_3}: and how many retries?`]),
  ],
};
