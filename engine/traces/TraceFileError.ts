/** Why a trace file (or an OpenCode database) was refused before any of it was parsed. */
export type TraceFileErrorCode =
  /** No such file (or no such session in the database). */
  | 'not_found'
  /** The file is there but cannot be imported as it is: not a regular file, empty, too large, not OpenCode's, unreadable. */
  | 'refused';

/**
 * A trace file refused by the reader: `code` for programs, `message` (naming the file and what to
 * do) for people. Nothing was read into the catalog. The host maps it to a wire error (`[error-model]`).
 */
export class TraceFileError extends Error {
  constructor(
    readonly code: TraceFileErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'TraceFileError';
  }
}
