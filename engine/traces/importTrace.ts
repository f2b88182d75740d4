/**
 * Dispatch from trace TEXT to events, in the format given or detected (`detectTraceFormat`). Pure:
 * `importTraceFile` and `readTraceSource` are the only parts that touch the file system.
 */
import { importAtifTrajectory } from './atifTrajectory';
import { importClaudeCode } from './claudeCode';
import { claudeSession } from './claudeSession';
import { importCodexRollout } from './codexRollout';
import { detectTraceFormat } from './detectTraceFormat';
import { importGeminiCli } from './geminiCli';
import { importOpenAIMessages } from './openaiMessages';
import { importOpenCode } from './openCode';
import { importSweAgent } from './sweAgent';
import type { TraceFormat, TraceImport } from './TraceEvent';

export { detectTraceFormat } from './detectTraceFormat';

/** Events of trace `text` (named `file` in errors), in `format` or the detected one. */
export function importTraceText(text: string, file: string, format: TraceFormat = detectTraceFormat(text, file)): TraceImport {
  switch (format) {
    case 'openai-messages-json':
      return importOpenAIMessages(text, file);
    case 'mini-swe-agent-traj-json':
      // mini-swe-agent writes an OpenAI-style message list; only the label differs.
      return { ...importOpenAIMessages(text, file), format };
    case 'claude-code-jsonl':
      return claudeSession(importClaudeCode(text, file));
    case 'codex-rollout-jsonl':
      return importCodexRollout(text, file);
    case 'swe-agent-traj':
      return importSweAgent(text, file);
    case 'gemini-cli-jsonl':
    case 'gemini-cli-json':
      return importGeminiCli(text, file);
    case 'opencode-export-json':
    case 'opencode-sqlite':
      return { ...importOpenCode(text, file), format };
    case 'atif-trajectory-json':
      return importAtifTrajectory(text, file);
  }
}
