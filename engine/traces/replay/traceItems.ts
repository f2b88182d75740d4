/**
 * What a replay adds to the engine pool for each thing the recorded agent observed or did (pure):
 * - user input: the first is the OBJECTIVE (tier 1, L1; mandatory unless larger than a quarter of
 *   the budget, which would overflow it), each later one a TASK item (tier 1), both `task_state`
 *   from `user_requirement`, agent `user`;
 * - assistant text: `raw_history` transcript (observability; only `full_history` packs it);
 * - a tool call WITH its result: one item whose title names the call (`call <id>: <tool> <main
 *   argument>`) and whose content starts with `[result of call <id>]`, so a result is never
 *   rendered without its call. Its class follows the call: reads and edits `ephemeral` code,
 *   searches and other commands `ephemeral` tool output, a failing test run `task_state` failure
 *   from `test_result` (a passing one ephemeral), plan updates `task_state` decisions, a
 *   subagent's answer a `finding` report;
 * - a compaction summary: `task_state` note from `generated_summary`;
 * - client-injected context (attachments, environment context): an ephemeral note, never the
 *   objective.
 * Ids are stable (`user:000004`, `tool:<call id>`, `text:<step>:<k>`, `compaction:000012`), so
 * the same trace always gives the same pool.
 */
import type { ItemInput } from '../../items/createItem';
import { estimateTokens } from '../../tokens/estimateTokens';
import { actionPaths, pathsIn } from './actionPaths';
import { classifyToolCall, testFailed } from './classifyToolCall';
import { argumentsObject, parsedArguments } from '../jsonText';

export interface ItemContext {
  agentId: string;
  taskId: string;
  /** When it was observed (ms since the epoch). */
  at: number;
}

/** The marker that opens every tool-result item's content; `orphanedResults` looks for it. */
export const resultMarker = (callId: string) => `[result of call ${callId}`;
/** How a tool-result item's title names its call (rendered as `### call <id>: …`). */
const callTitle = (callId: string, name: string, summary: string) => `call ${callId}: ${name}${summary ? ` ${summary}` : ''}`;

const pad = (n: number) => String(n).padStart(6, '0');

export function userInputItem(text: string, index: number, first: boolean, budget: number, ctx: ItemContext): ItemInput {
  const base = { content: text, class: 'task_state' as const, source: 'user_requirement' as const, agentId: 'user', taskId: ctx.taskId, at: ctx.at, confidence: 1, relevance: 1, durability: 'task' as const };
  const files = pathsIn(text);
  if (first) return { ...base, id: `user:${pad(index)}`, kind: 'objective', title: 'Objective (first user input)', files, mandatory: estimateTokens(text) <= budget / 4 };
  return { ...base, id: `user:${pad(index)}`, kind: 'task', title: `User input ${pad(index)}`, files };
}

/**
 * Text the client injected into the conversation (an attachment, the environment context): an
 * ephemeral note the agent saw (tier 4, in L2, never the objective or a stable L1 item, since
 * reminders and listings change from turn to turn); `kind` names where it came from.
 */
export function contextItem(text: string, kind: string, index: number, ctx: ItemContext): ItemInput {
  return {
    id: `context:${pad(index)}`,
    kind: 'note',
    class: 'ephemeral',
    title: `Client context (${kind})`,
    content: text,
    source: 'user_requirement',
    agentId: 'client',
    taskId: ctx.taskId,
    at: ctx.at,
    confidence: 0.8,
    relevance: 0.3,
    durability: 'transient',
    files: pathsIn(text),
  };
}

export function assistantTextItem(text: string, step: number, k: number, ctx: ItemContext): ItemInput {
  return {
    id: `text:${step}:${k}`,
    kind: 'transcript',
    class: 'raw_history',
    title: `Assistant text (step ${step})`,
    content: text,
    source: 'unverified_hypothesis',
    agentId: ctx.agentId,
    taskId: ctx.taskId,
    at: ctx.at,
    confidence: 0.5,
    relevance: 0.4,
    files: pathsIn(text),
  };
}

export function compactionItem(summary: string, index: number, ctx: ItemContext): ItemInput {
  return {
    id: `compaction:${pad(index)}`,
    kind: 'note',
    class: 'task_state',
    title: 'Compaction summary',
    content: summary,
    source: 'generated_summary',
    agentId: ctx.agentId,
    taskId: ctx.taskId,
    at: ctx.at,
    confidence: 0.6,
    relevance: 0.9,
    durability: 'task',
    files: pathsIn(summary),
  };
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The arguments as `key: value` lines (string values as they are), or the raw text when not a JSON object. */
function argumentLines(text: string): string {
  try {
    const v = argumentsObject(text);
    if (!v) return text;
    return Object.entries(v)
      .map(([k, x]) => `${k}: ${typeof x === 'string' ? x : JSON.stringify(x)}`)
      .join('\n');
  } catch {
    return text;
  }
}

export interface RecordedCall {
  callId: string;
  name: string;
  arguments: string;
}

export function toolItem(call: RecordedCall, result: { content: string; isError: boolean }, ctx: ItemContext): ItemInput {
  const info = classifyToolCall(call.name, call.arguments);
  let signature: string;
  try {
    const args = parsedArguments(call.arguments);
    // The text itself back: not JSON (or too deep), so the text is the signature.
    signature = args === call.arguments ? `${call.name} ${call.arguments.trim()}` : `${call.name} ${canonicalJson(args)}`;
  } catch {
    signature = `${call.name} ${call.arguments.trim()}`;
  }
  // The title carries the main argument; the rest of a longer call (an edit, a script) is content.
  const showArgs = info.kind === 'edit' || info.kind === 'plan' || info.kind === 'agent' || call.arguments.length > info.summary.length + 40;
  const output = result.content.trim() === '' ? '(no output)' : result.content;
  const content = `${resultMarker(call.callId)}${result.isError ? ' (error)' : ''}]\n${showArgs ? `arguments:\n${argumentLines(call.arguments)}\n---\n` : ''}${output}`;
  const argPaths = actionPaths([], [call]);
  const outPaths = info.kind === 'search' || info.kind === 'shell' || info.kind === 'test' ? pathsIn(output) : [];
  const base = {
    id: `tool:${call.callId}`,
    title: callTitle(call.callId, call.name, info.summary),
    content,
    agentId: ctx.agentId,
    taskId: ctx.taskId,
    at: ctx.at,
    signature,
    confidence: 0.9,
    files: [...new Set([...argPaths, ...outPaths])].slice(0, 50),
  };
  switch (info.kind) {
    case 'read':
    case 'edit':
      return { ...base, kind: 'code', class: 'ephemeral', source: 'repository_source', durability: 'transient', relevance: info.kind === 'edit' ? 0.7 : 0.6 };
    case 'test':
      return testFailed(output, result.isError)
        ? { ...base, kind: 'failure', class: 'task_state', source: 'test_result', durability: 'task', relevance: 0.8, title: `${base.title} (tests failed)` }
        : { ...base, kind: 'tool_output', class: 'ephemeral', source: 'test_result', durability: 'transient', relevance: 0.5 };
    case 'plan':
      return { ...base, kind: 'decision', class: 'task_state', source: 'unverified_hypothesis', durability: 'task', relevance: 0.6 };
    case 'agent':
      return { ...base, kind: 'report', class: 'finding', source: 'parent_report', durability: 'task', relevance: 0.7 };
    case 'search':
      return { ...base, kind: 'tool_output', class: 'ephemeral', source: 'repository_source', durability: 'transient', relevance: 0.5 };
    default:
      return { ...base, kind: 'tool_output', class: 'ephemeral', source: 'repository_source', durability: 'transient', relevance: 0.4 };
  }
}
