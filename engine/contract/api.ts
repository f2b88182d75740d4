import type { CommandArgs, CommandName, CommandResult } from './commands';
import type { Envelope } from './errors';
import type { EventName, StrataEvent } from './events';

/** Commands other than `subscribe`, which carries a listener and so has its own signature. */
export type CallableCommand = Exclude<CommandName, 'subscribe'>;

/**
 * What a transport provides: one method per command resolving to an envelope (never rejecting
 * for a handled error), plus `subscribe`. Electron's preload exposes exactly this as
 * `window.strata`; the renderer's WebSocket client implements the same shape. Envelopes, not
 * thrown errors, cross the bridge because Electron's contextBridge drops an error's class and
 * fields.
 */
export type StrataBridge = {
  [K in CallableCommand]: (args: CommandArgs<K>) => Promise<Envelope<CommandResult<K>>>;
} & {
  /**
   * The `subscribe` command with its listener: deliver `events` to `listener` from now on,
   * replacing this bridge's earlier subscription (`[]` unsubscribes).
   */
  subscribe(events: EventName[], listener: (event: StrataEvent) => void): Promise<Envelope<CommandResult<'subscribe'>>>;
};

/**
 * What views use: the same methods resolving to results and rejecting with `StrataError`. The
 * renderer builds it from whichever `StrataBridge` is present; views never know which.
 */
export type StrataApi = {
  [K in CallableCommand]: (args: CommandArgs<K>) => Promise<CommandResult<K>>;
} & {
  subscribe(events: EventName[], listener: (event: StrataEvent) => void): Promise<CommandResult<'subscribe'>>;
};
