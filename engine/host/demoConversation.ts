import type { GroupInput } from '../conversation/readGroup';
import type { DemoItem, DemoScenario, DemoStep } from './demoScenario';

type DemoAgent = DemoScenario['agents'][number];

/** Item kinds that are the output of a tool the agent ran (they become tool calls with their results). */
const TOOL_KINDS: ReadonlySet<DemoItem['kind']> = new Set(['tool_output', 'failure', 'code', 'transcript']);

/** The tool a demo item came from: tests for test results, grep or read for repository source. */
function toolOf(item: DemoItem): string {
  if (item.source === 'test_result') return 'run_tests';
  return /^grep\b/i.test(item.title) ? 'grep' : 'read';
}

/**
 * One demo build step as conversation groups (pure): on the agent's first turn its task as the
 * user message (with the step's input), later an input as a user message; then one assistant
 * group whose text is the step's log line plus the findings, decisions, notes and reports the
 * agent produced since its last turn, and whose tool calls are the tool outputs among them, each
 * answered by its result (a failure is an error result). The ids come from the items, so the
 * same scenario always gives the same conversation.
 */
export function demoTurnGroups(step: DemoStep, agent: DemoAgent, first: boolean, items: readonly DemoItem[], index: number): GroupInput[] {
  const groups: GroupInput[] = [];
  const input = step.build?.input?.trim();
  if (first) groups.push([{ role: 'user', content: `Task: ${agent.task}${input ? `\n${input}` : ''}` }]);
  else if (input) groups.push([{ role: 'user', content: input }]);
  const tools = items.filter((i) => TOOL_KINDS.has(i.kind));
  const notes = items.filter((i) => !TOOL_KINDS.has(i.kind));
  const text = [step.log, ...notes.map((n) => `- ${n.kind} · ${n.title}: ${n.content}`)].join('\n');
  groups.push([
    { role: 'assistant', content: text, toolCalls: tools.map((t) => ({ id: `call:${index}:${t.id}`, name: toolOf(t), arguments: JSON.stringify({ target: t.title }) })) },
    ...tools.map((t) => ({ role: 'tool' as const, toolCallId: `call:${index}:${t.id}`, content: t.content, isError: t.kind === 'failure' })),
  ]);
  return groups;
}
