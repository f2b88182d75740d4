import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, lastUserSaid, type RequestView, type ScriptRule } from './replyScript';
import type { CliStep, RealClientScenario, ScenarioContext } from './RealClientScenario';

/**
 * Claude Code through three `claude -p` turns against the scripted server:
 * 1. `TURN-1`: the model reads `notes.txt` (Read), lists the folder (Bash), launches a subagent
 *    (Agent, in the foreground) that reads `config/settings.ini` and answers, then answers itself;
 * 2. `--continue "/compact"`: Claude Code's compaction call, answered with a summary;
 * 3. `--continue` `TURN-3`: one more Read, then the final answer.
 *
 * The subagent's calls are told apart by their first user message (the Agent prompt, carrying
 * `SUBAGENT_MARKER`), the compaction call by its instruction to summarize the conversation.
 */

const CLAUDE_TURN_1 = 'H2-TURN-1';
const CLAUDE_TURN_3 = 'H2-TURN-3';
const SUBAGENT_MARKER = 'H2-SUBAGENT';

const isSubagent = (r: RequestView) => (r.userTexts[0] ?? '').includes(SUBAGENT_MARKER);
const isMain = (r: RequestView) => !isSubagent(r);
const isCompaction = (r: RequestView) => /summary of the conversation/i.test(r.userTexts[r.userTexts.length - 1] ?? '');
const both =
  (...ps: ((r: RequestView) => boolean)[]) =>
  (r: RequestView) =>
    ps.every((p) => p(r));

/** Claude Code's environment for a run: the server's origin, a dummy key, its own config folder, no traffic but the model's; and a scenario's own settings. */
export function claudeEnv(ctx: ScenarioContext, own: Record<string, string>): Record<string, string> {
  return {
    ANTHROPIC_BASE_URL: ctx.origin,
    ANTHROPIC_API_KEY: 'sk-ant-harness-dummy-key',
    CLAUDE_CONFIG_DIR: ctx.clientHome,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    ...own,
  };
}

const claude = (ctx: ScenarioContext, label: string, ...args: string[]): CliStep => ({
  label,
  argv: [ctx.cli, '-p', ...args, '--permission-mode', 'default', '--allowedTools', 'Bash Read Agent', '--output-format', 'json'],
  // The main thread's breakpoints then ask for a 1-hour TTL; subagents keep 5 minutes, so a run has both.
  env: claudeEnv(ctx, { CLAUDE_CODE_PROMPT_CACHE_TTL: '1h' }),
});

export const claudeCodeScenario: RealClientScenario = {
  client: 'claude-code',
  prepare(ctx) {
    mkdirSync(join(ctx.workspace, 'config'), { recursive: true });
    writeFileSync(join(ctx.workspace, 'notes.txt'), 'Build with `make all`; the release branch is cut on Fridays.\n');
    writeFileSync(join(ctx.workspace, 'config', 'settings.ini'), '[client]\nretries = 3\ntimeout_ms = 2500\n');
  },
  rules(ctx): ScriptRule[] {
    const notes = join(ctx.workspace, 'notes.txt');
    const settings = join(ctx.workspace, 'config', 'settings.ini');
    return [
      { id: 'main-read-notes', agent: 'main', when: both(isMain, lastUserSaid(CLAUDE_TURN_1)), reply: { text: 'I will read the notes first.', calls: [{ id: 'toolu_h2_read_notes', name: 'Read', input: { file_path: notes } }] } },
      { id: 'main-list', agent: 'main', when: both(isMain, after('toolu_h2_read_notes')), reply: { text: 'Now the folder.', calls: [{ id: 'toolu_h2_list', name: 'Bash', input: { command: 'ls', description: 'List files in the folder' } }] } },
      {
        id: 'main-spawn',
        agent: 'main',
        when: both(isMain, after('toolu_h2_list')),
        reply: {
          text: 'A helper will read the settings.',
          calls: [{ id: 'toolu_h2_agent', name: 'Agent', input: { description: 'Read the settings', prompt: `${SUBAGENT_MARKER}: read ${settings} and report the retries value.`, subagent_type: 'general-purpose', run_in_background: false } }],
        },
      },
      { id: 'sub-read', agent: 'subagent', when: both(isSubagent, (r) => !r.endsWithResult), reply: { text: 'Reading the settings.', calls: [{ id: 'toolu_h2_sub_read', name: 'Read', input: { file_path: settings } }] } },
      { id: 'sub-answer', agent: 'subagent', when: both(isSubagent, after('toolu_h2_sub_read')), reply: { text: 'The settings say retries = 3 and timeout_ms = 2500.' } },
      { id: 'main-answer-1', agent: 'main', when: both(isMain, after('toolu_h2_agent')), reply: { text: 'Done: the notes say to build with make all, the folder has notes.txt and config, and retries is 3.' } },
      {
        id: 'compaction',
        agent: 'compaction',
        when: both(isMain, isCompaction),
        reply: { text: '<summary>\nThe user asked to read notes.txt, list the folder and have a helper read config/settings.ini. Build with make all; retries = 3.\n</summary>' },
      },
      { id: 'main-read-again', agent: 'main', when: both(isMain, lastUserSaid(CLAUDE_TURN_3)), reply: { text: 'Checking the notes again.', calls: [{ id: 'toolu_h2_read_again', name: 'Read', input: { file_path: notes } }] } },
      { id: 'main-answer-3', agent: 'main', when: both(isMain, after('toolu_h2_read_again')), reply: { text: 'The release branch is cut on Fridays.' } },
    ];
  },
  steps: [
    (ctx) => claude(ctx, 'turn 1: tools and a subagent', `${CLAUDE_TURN_1}: read notes.txt, list the folder, then have a helper agent read config/settings.ini.`),
    (ctx) => claude(ctx, 'turn 2: /compact', '--continue', '/compact'),
    (ctx) => claude(ctx, 'turn 3: after the compaction', '--continue', `${CLAUDE_TURN_3}: when is the release branch cut?`),
  ],
};
