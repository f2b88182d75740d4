import { extractiveSummary } from '../conversation/extractiveSummarizer';
import type { HistoryMessage } from '../conversation/Message';
import type { ItemInput } from '../items/createItem';

/** Tokens of a report a worker sends up; the parent never sees the raw transcript. */
export const REPORT_MAX_TOKENS = 400;

/**
 * A finished child's transcript compressed into one report for its parent (`[parent-report]`):
 * the extractive summary (decisions, constraints, open tasks, named entities; no raw tool output)
 * of everything the child said and saw, capped at {@link REPORT_MAX_TOKENS}, addressed to the
 * parent only, with the child's last words as the title line.
 */
export function parentReport(input: {
  child: { agentId: string; taskId: string; task: string };
  parentId: string;
  transcript: readonly HistoryMessage[];
  finalText: string;
  files: readonly string[];
  at: number;
  countTokens: (text: string) => number;
}): ItemInput {
  const summary = extractiveSummary({ messages: [...input.transcript], maxTokens: REPORT_MAX_TOKENS }, input.countTokens);
  return {
    id: `report:${input.child.agentId}`,
    kind: 'report',
    class: 'finding',
    source: 'parent_report',
    title: `Report of ${input.child.agentId}: ${input.finalText.split('\n')[0]?.slice(0, 120) ?? ''}`,
    content: `Task: ${input.child.task}\n${summary}`,
    agentId: input.child.agentId,
    taskId: input.child.taskId,
    at: input.at,
    audience: input.parentId,
    files: [...new Set(input.files)].slice(0, 20),
  };
}
