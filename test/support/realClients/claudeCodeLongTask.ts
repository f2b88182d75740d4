import { join } from 'node:path';
import { contextWindowOf } from '../../../engine/models/contextWindows';
import { claudeEnv } from './claudeCodeScenario';
import { LIST_FAILURES, LONG_TASK_PROMPT, longTaskRules, writeLongTaskFiles } from './longTask';
import type { RealClientScenario } from './RealClientScenario';

/**
 * Claude Code through the long task (`longTask.ts`) in ONE `claude -p` turn: Read for each source
 * file, Bash `cat` for each log, Bash for the failure listing, then the answer. Auto-compaction is
 * off (`DISABLE_AUTO_COMPACT=1`), so the whole task is one uncompacted thread, the shape a
 * gateway's manage mode is measured on. The server validates like Anthropic with the window of
 * the model this Claude Code asks for (Claude Opus 5.5, 1,000,000 tokens, `contextWindows.ts`).
 */

export const claudeCodeLongTask: RealClientScenario = {
  client: 'claude-code',
  validation: { anthropicWindow: contextWindowOf('claude-opus-5-5')!.prompt },
  prepare(ctx) {
    writeLongTaskFiles(ctx.workspace);
  },
  rules(ctx) {
    return longTaskRules((step, i) => {
      const id = `toolu_lt_${String(i).padStart(2, '0')}`;
      if (step.kind === 'read') return { id, name: 'Read', input: { file_path: join(ctx.workspace, step.path) } };
      if (step.kind === 'print') return { id, name: 'Bash', input: { command: `cat ${step.path}`, description: `Print ${step.path}` } };
      return { id, name: 'Bash', input: { command: LIST_FAILURES, description: 'List the failing tests' } };
    });
  },
  steps: [
    (ctx) => ({
      label: 'the long task',
      argv: [ctx.cli, '-p', LONG_TASK_PROMPT, '--permission-mode', 'default', '--allowedTools', 'Bash Read', '--output-format', 'json'],
      env: claudeEnv(ctx, { DISABLE_AUTO_COMPACT: '1' }),
    }),
  ],
};
