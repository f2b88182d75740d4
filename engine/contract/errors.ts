/**
 * Typed failures that cross the contract. The error model, one way per layer (`[error-model]`):
 * - Domain modules (engine, conversation, memory store, catalog, tools, providers, trace readers,
 *   runtime) throw their own typed error class, each with a stable `code` (or `kind`, `reason`) and
 *   a message a person can act on. They never construct `StrataError`, which belongs to the wire.
 * - Pure decision modules that return a result union keep it where the caller must branch on it:
 *   `parseSkillFile` and the skill registry (`SkillError` values, listed by `listSkills`), the
 *   `strata.toml` readers (`ConfigError`), `makeCheckpoint` (`CheckpointError`) and
 *   `restoreReminderState`. Tool calls answer the model with a tool result (`io_error`, …), never a throw.
 * - The host (`engine/host`) throws `StrataError` for its own refusals (no such agent, a run
 *   already active), and the dispatcher is the ONE place a domain error becomes an envelope code:
 *   `wireErrorOf` holds the table. Anything else is a bug: `internal`, reported through `onInternalError`.
 * The transport turns a `StrataError` into a `{ ok: false, error }` envelope; the client turns that
 * back into a typed error, so callers on both sides switch on `code`, never on message text.
 */
export type ErrorCode =
  /** Arguments failed the command's schema; `issues` says where. Nothing was changed. */
  | 'invalid_args'
  /** No such command in the contract. */
  | 'unknown_command'
  /** The named entity does not exist. */
  | 'not_found'
  /** The request collides with existing state (e.g. a duplicate id). Nothing was changed. */
  | 'conflict'
  /** The caller is not allowed to do this: use the contract (wrong frame, missing token), or reach a path outside the workspace. */
  | 'forbidden'
  /** The host, or what it needs (its catalog, a model provider, its storage), is closed, held by another process or not reachable. */
  | 'unavailable'
  /** A bug or an unexpected failure in the host; the message is safe to show. */
  | 'internal';

export interface ErrorIssue {
  /** Dotted path into the arguments, `''` for the arguments object itself. */
  path: string;
  message: string;
}

export interface ErrorDto {
  code: ErrorCode;
  message: string;
  issues?: ErrorIssue[];
}

/** The result of every call on every transport. */
export type Envelope<T> = { ok: true; value: T } | { ok: false; error: ErrorDto };

/** An error with a code a program can act on and a message a person can act on. */
export class StrataError extends Error {
  readonly code: ErrorCode;
  readonly issues: ErrorIssue[] | undefined;

  constructor(code: ErrorCode, message: string, issues?: ErrorIssue[]) {
    super(message);
    this.name = 'StrataError';
    this.code = code;
    this.issues = issues;
  }

  /** The plain form that crosses a transport. */
  toDto(): ErrorDto {
    return this.issues ? { code: this.code, message: this.message, issues: this.issues } : { code: this.code, message: this.message };
  }

  static fromDto(dto: ErrorDto): StrataError {
    return new StrataError(dto.code, dto.message, dto.issues);
  }
}
