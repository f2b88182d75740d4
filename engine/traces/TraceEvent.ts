/**
 * One normalized, typed event stream for recorded coding-agent sessions, whatever tool wrote them
 * (OpenAI-style message lists, Claude Code JSONL, Codex rollouts, SWE-agent trajectories). Importers
 * turn a file's text into these events; `replay/walkTrace` pairs their calls and results and
 * `replay/transcript` turns them into the history each request sends.
 *
 * Pure TypeScript: no Node built-ins here or in the importers; only `importTraceFile` reads files.
 *
 * Conventions every importer keeps:
 * - Events are in the order the session recorded them (file order), never re-sorted by time.
 * - `step` is the 0-based index of the LLM call (one model response) an event came from. It is set
 *   on model output only (`assistant_text`, `tool_call`, `usage`); user input, tool results and
 *   markers carry none. Steps are numbered over the whole file (subagent calls included) in order of
 *   first appearance, so one response split over several records keeps one step.
 * - `agentId` is set on every event of a subagent's run (a Claude Code sidechain, a merged subagent
 *   message); main-thread events have none. `subagent_spawn`/`subagent_return` bracket each
 *   contiguous run of one subagent's records, where the format shows them.
 * - `at` is an ISO-8601 timestamp (`Date#toISOString`), normalised from whatever the format records
 *   (ISO text or epoch milliseconds); absent when the record has none.
 * - `source` names the file and the 1-based line of the record (for a JSON document, the line where
 *   the message object starts, and `path` such as `messages[12]`), so every later problem can point
 *   back into the trace.
 */

/** The trace formats an importer exists for (names as in the traces' SOURCES.md). */
export type TraceFormat = 'openai-messages-json' | 'mini-swe-agent-traj-json' | 'claude-code-jsonl' | 'codex-rollout-jsonl' | 'swe-agent-traj' | 'gemini-cli-jsonl' | 'gemini-cli-json' | 'opencode-export-json' | 'opencode-sqlite' | 'atif-trajectory-json';

/** Where an event was read from. */
export interface TraceSource {
  file: string;
  /** 1-based line of the record. */
  line: number;
  /** For JSON documents: the record's place in the document, e.g. `messages[12]`. */
  path?: string;
}

interface EventBase {
  /** ISO-8601 time of the record, when it has one. */
  at?: string;
  /** 0-based index of the LLM call this model output belongs to (model output only). */
  step?: number;
  /** The subagent whose run this event belongs to; absent on the main thread. */
  agentId?: string;
  source: TraceSource;
}

/** Text the model received as the user's turn (typed input, pasted text, injected user-role notices). */
interface UserInputEvent extends EventBase {
  type: 'user_input';
  text: string;
}

/** System or developer instructions (a system prompt, a developer message): not history, kept for inspection. */
interface InstructionsEvent extends EventBase {
  type: 'instructions';
  role: 'system' | 'developer';
  text: string;
}

/** Visible text of a model response (reasoning and thinking are not included). */
interface AssistantTextEvent extends EventBase {
  type: 'assistant_text';
  text: string;
}

/** One tool call of a model response. */
export interface ToolCallEvent extends EventBase {
  type: 'tool_call';
  callId: string;
  name: string;
  /** JSON text of the arguments (a free-form tool's raw input is wrapped as `{"input": "..."}`). */
  arguments: string;
}

/** The recorded result of a tool call. */
interface ToolResultEvent extends EventBase {
  type: 'tool_result';
  callId: string;
  content: string;
  /** True only when the format flags the result as an error (never guessed from its text). */
  isError: boolean;
}

/**
 * Tokens of one LLM call as the provider billed them, normalised to disjoint parts:
 * `input` is the UNCACHED prompt tokens only. Anthropic reports cache reads and writes apart from
 * `input_tokens`, so its figures are taken as they are; OpenAI (Codex, Chat Completions) counts
 * cached tokens INSIDE `input_tokens`/`prompt_tokens`, so the importer subtracts them. The prompt's
 * full size is therefore always `input + cacheRead + cacheWrite`. `output` includes reasoning
 * tokens where the provider counts them as output. A part the format does not record is 0.
 */
export interface UsageEvent extends EventBase {
  type: 'usage';
  input: number;
  cacheRead: number;
  cacheWrite: number;
  /**
   * Of `cacheWrite`, the tokens written with a 1-hour lifetime (Anthropic's
   * `cache_creation.ephemeral_1h_input_tokens`); the rest were written for 5 minutes. Absent when
   * the format does not split the writes by lifetime.
   */
  cacheWrite1h?: number;
  output: number;
  model?: string;
  /**
   * The context window the client said it ran the model with, in tokens, when the recording states
   * one (Codex `model_context_window`, Claude Code's `modelUsage[model].contextWindow`).
   */
  contextWindow?: number;
  /**
   * `'compaction'`: the call that wrote a compaction summary, which the transcript shows only as
   * the summary (its usage found from the client's billed totals, or recorded by the client).
   */
  call?: 'compaction';
  /**
   * What the client adds to its compaction call's request beyond the history, as measured for this
   * client with the real-client harness (`compactionRequest.ts`), since no file records that
   * request: whether the tool schemas are sent, and the instruction's o200k tokens (an estimate).
   */
  compactionRequest?: { toolsSent: boolean; instructionTokens: number };
}

/**
 * The fixed part of every request the client sent: its system prompt blocks and its tool schemas
 * (one JSON text per tool), as recorded (Claude Code `api-request-shape`). It applies to the
 * calls after it until the next one; a trace without one sent a prefix nobody recorded.
 */
export interface PrefixEvent extends EventBase {
  type: 'prefix';
  system: string[];
  tools: string[];
}

/**
 * Text the client itself put into the conversation, not typed by the user: Claude Code
 * attachments (environment, skill listings, reminders, edited-file snippets, as system- or
 * user-role content), Codex `<environment_context>` and AGENTS.md messages. It was sent, so every
 * replay that sends history sends it, but it is never the task. `estimated` marks text rendered
 * by Strata from an attachment's data where the client did not record what it sent.
 */
export interface ContextEvent extends EventBase {
  type: 'context';
  role: 'system' | 'user';
  /** What kind of injection it was (the attachment type, `environment_context`, `agents_md`). */
  kind: string;
  text: string;
  estimated?: boolean;
}

/**
 * The client's running total of what it was billed so far, over all models and subagents
 * (Claude Code `cost-state`); disjoint parts like {@link UsageEvent}. Calls the transcript does not
 * show (the compaction call) are found from the difference of two totals.
 */
export interface BilledTotalEvent extends EventBase {
  type: 'billed_total';
  input: number;
  cacheRead: number;
  cacheWrite: number;
  cacheWrite1h?: number;
  output: number;
  /** The client's own cost figure in US dollars, when it records one. */
  costUsd?: number;
}

/** The agent replaced its context by a summary (Claude Code compact, Codex `compacted`). */
export interface CompactionEvent extends EventBase {
  type: 'compaction';
  summary?: string;
  /**
   * Lines (1-based, same file) of earlier records the client kept verbatim after the summary
   * (Claude Code `compactMetadata.preservedMessages`): the agent's context after the compaction
   * is the summary followed by what those lines sent.
   */
  keptLines?: number[];
  /**
   * The whole history the agent continued with, when the format records it (Codex
   * `replacement_history`), the summary included; replaces everything before it.
   */
  history?: { role: 'user' | 'assistant' | 'system' | 'developer'; text: string }[];
}

/** A subagent's run begins (its events follow, each with `agentId`). */
interface SubagentSpawnEvent extends EventBase {
  type: 'subagent_spawn';
  agentId: string;
  /** The parent's tool call that launched it, when the format records it (Claude Code `toolUseId`). */
  parentCallId?: string;
  /** The subagent's type or description, when recorded. */
  label?: string;
}

/** A subagent's run ends and the main thread (or another agent) resumes. */
interface SubagentReturnEvent extends EventBase {
  type: 'subagent_return';
  agentId: string;
}

export type TraceEvent =
  | UserInputEvent
  | InstructionsEvent
  | AssistantTextEvent
  | ToolCallEvent
  | ToolResultEvent
  | UsageEvent
  | CompactionEvent
  | PrefixEvent
  | ContextEvent
  | BilledTotalEvent
  | SubagentSpawnEvent
  | SubagentReturnEvent;

/** What an importer read from one file. */
export interface TraceImport {
  format: TraceFormat;
  file: string;
  events: TraceEvent[];
  /** Records (or content blocks) of a known kind deliberately not turned into events, by kind. */
  skipped: Record<string, number>;
  /** Records of a kind the importer does not know, by kind: skipped, never fatal. */
  unknown: Record<string, number>;
  /** Every file the trace was read from, when more than `file` (a session's subagent files). */
  files?: string[];
  /** Lines longer than the line cap, left out unparsed (`[trace-line-cap]`); absent when none were, or when the trace was not read line by line. */
  skippedLines?: SkippedTraceLine[];
}

/** A line left out of an import because it is longer than the line cap (`MAX_TRACE_LINE_BYTES`). */
export interface SkippedTraceLine {
  file: string;
  line: number;
  bytes: number;
}

/**
 * A trace that cannot be read: malformed or truncated JSON, or a record missing what its type
 * requires. The message names the file and the 1-based line (and column, when known), e.g.
 * `session.jsonl:41:17: line is not valid JSON: unterminated string (the file may be truncated)`.
 */
export class TraceImportError extends Error {
  override readonly name = 'TraceImportError';
  /** Stable for programs: every TraceImportError is a trace that cannot be read as its format. */
  readonly code = 'malformed_trace';
  readonly file: string;
  readonly line: number;
  readonly column: number | undefined;
  /** The problem without the location prefix. */
  readonly problem: string;

  constructor(file: string, line: number, problem: string, column?: number) {
    super(`${file}:${line}${column === undefined ? '' : `:${column}`}: ${problem}`);
    this.file = file;
    this.line = line;
    this.column = column;
    this.problem = problem;
  }
}

/** Adds one to `counts[key]`. */
export function countKind(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}
