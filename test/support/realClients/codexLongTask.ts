import { join } from 'node:path';
import { contextWindowOf } from '../../../engine/models/contextWindows';
import { codexExec, writeCodexConfig } from './codexScenario';
import { LIST_FAILURES, LONG_TASK_PROMPT, longTaskRules, writeLongTaskFiles } from './longTask';
import type { RealClientScenario } from './RealClientScenario';

/**
 * Codex through the long task (`longTask.ts`) in ONE `codex exec` turn: `exec_command` `cat` for
 * every source file and log, then the failure listing, then the answer. The configuration is the
 * short scenario's (offline, the `loop` provider) with GPT-5's window (400,000 tokens less its
 * 128,000 of output: 272,000 for the prompt, `contextWindows.ts`; GPT-5.5 has no row there) and
 * an auto-compact limit above the task's largest prompt, so the task is one uncompacted thread.
 * The server validates like the Responses API with that window.
 */

const WINDOW = contextWindowOf('gpt-5')!.prompt;

/** Where `codex exec` writes its final message, under the client's home (the turn's JSON events are too long to keep whole). */
export const CODEX_LAST_MESSAGE = 'last-message.txt';

export const codexLongTask: RealClientScenario = {
  client: 'codex',
  validation: { responsesWindow: WINDOW },
  prepare(ctx) {
    writeLongTaskFiles(ctx.workspace);
    writeCodexConfig(ctx, { settings: [`model_context_window = ${WINDOW}`, `model_auto_compact_token_limit = ${WINDOW - 20_000}`] });
  },
  rules() {
    return longTaskRules((step, i) => ({ id: `call_lt_${String(i).padStart(2, '0')}`, name: 'exec_command', input: { cmd: step.kind === 'list-failures' ? LIST_FAILURES : `cat ${step.path}` } }));
  },
  steps: [
    (ctx) => codexExec(ctx, 'the long task', ['--json', '--skip-git-repo-check', '--output-last-message', join(ctx.clientHome, CODEX_LAST_MESSAGE), LONG_TASK_PROMPT]),
  ],
};
