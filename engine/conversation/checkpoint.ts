/**
 * Conversation compaction checkpoints (`[checkpoint-disjoint]`, `[no-fabricated-checkpoint]`): a
 * local checkpoint written when the runtime cannot compact natively, and the native lifecycle in
 * which the runtime compacts and may or may not hand a checkpoint back.
 */

/** How much context a conversation occupied, as the runtime measured it. */
interface ContextTelemetry {
  /** Tokens of the context. */
  tokens: number;
  /** The context window, when known. */
  contextWindow?: number;
}

/** A summary of some turns and the turns kept verbatim beside it. */
export interface ContextCheckpoint {
  /** Turns the summary stands for; they left the active context. */
  sourceTurnIds: readonly string[];
  /** Turns kept as original messages. */
  retainedTurnIds: readonly string[];
  telemetryBefore: ContextTelemetry;
  telemetryAfter: ContextTelemetry;
  summary: string;
}

/** Which checkpoint rule was broken. */
export type CheckpointErrorCode = 'overlapping_turns' | 'telemetry_grew' | 'invalid_telemetry' | 'no_source_turns' | 'blank_summary';

/** A checkpoint that was refused; no checkpoint exists. */
export interface CheckpointError {
  kind: 'checkpoint_error';
  code: CheckpointErrorCode;
  message: string;
}

/** Tells a refused checkpoint from a made one. */
export function isCheckpointError(value: unknown): value is CheckpointError {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'checkpoint_error';
}

const validTokens = (t: ContextTelemetry): boolean => Number.isSafeInteger(t.tokens) && t.tokens >= 0;
const fail = (code: CheckpointErrorCode, message: string): CheckpointError => ({ kind: 'checkpoint_error', code, message });

/**
 * A checkpoint from its parts, or why there is none. Invariants: a summarized turn is never also
 * retained (the ids are disjoint, else the same turn would be in the context twice, once verbatim
 * and once summarized), and compaction never makes the context larger (`telemetryAfter.tokens <=
 * telemetryBefore.tokens`, else it bought nothing and lost detail). The result is a copy, so later
 * edits of the inputs cannot break a checkpoint that was validated.
 */
export function makeCheckpoint(input: ContextCheckpoint): ContextCheckpoint | CheckpointError {
  if (input.sourceTurnIds.length === 0) return fail('no_source_turns', '[checkpoint-disjoint] a checkpoint must summarize at least one turn');
  const retained = new Set(input.retainedTurnIds);
  const both = [...new Set(input.sourceTurnIds.filter((id) => retained.has(id)))];
  if (both.length > 0) {
    return fail('overlapping_turns', `[checkpoint-disjoint] turns both summarized and retained: ${both.slice(0, 10).join(', ')}${both.length > 10 ? ` (+${both.length - 10} more)` : ''}`);
  }
  if (!validTokens(input.telemetryBefore) || !validTokens(input.telemetryAfter)) {
    return fail('invalid_telemetry', `[checkpoint-disjoint] telemetry tokens must be integers >= 0 (got before ${input.telemetryBefore.tokens}, after ${input.telemetryAfter.tokens})`);
  }
  if (input.telemetryAfter.tokens > input.telemetryBefore.tokens) {
    return fail('telemetry_grew', `[checkpoint-disjoint] telemetry after (${input.telemetryAfter.tokens} tokens) exceeds telemetry before (${input.telemetryBefore.tokens} tokens)`);
  }
  if (input.summary.trim() === '') return fail('blank_summary', '[checkpoint-disjoint] a checkpoint needs a non-blank summary');
  return {
    sourceTurnIds: [...input.sourceTurnIds],
    retainedTurnIds: [...input.retainedTurnIds],
    telemetryBefore: { ...input.telemetryBefore },
    telemetryAfter: { ...input.telemetryAfter },
    summary: input.summary,
  };
}

/** What the runtime's compact API answered; many runtimes return no checkpoint at all. */
export interface CompactApiResult {
  checkpoint?: ContextCheckpoint;
}

/** The runtime's event that a compaction finished, for one context. */
export interface CompactionCompletedEvent {
  kind: 'compaction_completed';
  contextId: string;
  checkpoint?: ContextCheckpoint;
}

/** Waiting for the completion of the compaction of `contextId`. */
export interface NativeCompactionWait {
  contextId: string;
  /** The checkpoint the compact API returned, if any. */
  apiCheckpoint: ContextCheckpoint | undefined;
  /** Completion events of other contexts seen (and ignored) meanwhile. */
  ignoredEvents: number;
}

/** After one event: still waiting (maybe after ignoring another context's event), or completed. */
export type NativeCompactionStep =
  | { status: 'waiting'; wait: NativeCompactionWait; mismatch?: { expected: string; got: string } }
  | { status: 'completed'; contextId: string; checkpoint: ContextCheckpoint | undefined; rejected?: CheckpointError };

/**
 * The native compaction lifecycle as plain values: after the pre hook, the controller calls the
 * session's compact API, `begin`s with its answer, and feeds each CompactionCompleted event to
 * `receive` until the step is `completed`; only then does the post hook run.
 * Invariants (`[no-fabricated-checkpoint]`): the checkpoint is the one the runtime provided (the
 * event's, else the API's) or `undefined`, never one made up to fill the field; a provided one
 * that breaks {@link makeCheckpoint}'s rules is rejected, not repaired; an event of another
 * context never completes the wait, it is reported as a mismatch and waiting goes on.
 */
export const NativeCompaction = {
  begin(contextId: string, api: CompactApiResult): NativeCompactionWait {
    return { contextId, apiCheckpoint: api.checkpoint, ignoredEvents: 0 };
  },
  receive(wait: NativeCompactionWait, event: CompactionCompletedEvent): NativeCompactionStep {
    if (event.contextId !== wait.contextId) {
      return { status: 'waiting', wait: { ...wait, ignoredEvents: wait.ignoredEvents + 1 }, mismatch: { expected: wait.contextId, got: event.contextId } };
    }
    const provided = event.checkpoint ?? wait.apiCheckpoint;
    if (provided === undefined) return { status: 'completed', contextId: wait.contextId, checkpoint: undefined };
    const checked = makeCheckpoint(provided);
    return isCheckpointError(checked)
      ? { status: 'completed', contextId: wait.contextId, checkpoint: undefined, rejected: checked }
      : { status: 'completed', contextId: wait.contextId, checkpoint: checked };
  },
} as const;
