/** A refused memory operation; nothing was written. `code` for programs, `message` for people. */
export class MemoryError extends Error {
  constructor(
    readonly code: 'invalid' | 'not_found' | 'conflict' | 'unavailable',
    message: string,
  ) {
    super(message);
    this.name = 'MemoryError';
  }
}
