/**
 * Typed failures that cross the contract. A handler throws `StrataError`; the transport turns it
 * into a `{ ok: false, error }` envelope; the client turns that back into a `StrataError`, so
 * callers on both sides switch on `code`, never on message text.
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
  /** The caller is not allowed to use the contract (wrong frame, missing token). */
  | 'forbidden'
  /** The host is closed or not reachable. */
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
