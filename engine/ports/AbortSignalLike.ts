/**
 * The part of the platform `AbortSignal` the pure engine relies on. The engine compiles without
 * DOM or Node types, so it names this shape; a real `AbortSignal` satisfies it and is what callers pass.
 */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}
