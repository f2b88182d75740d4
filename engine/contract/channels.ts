import type { CommandName } from './commands';

/**
 * Channel names shared by the Electron main process and the preload. Each command has its own
 * fixed channel; there is no generic "send anything" channel.
 */
export const commandChannel = (name: CommandName): string => `strata:cmd:${name}`;

/** The one channel on which the main process pushes subscribed events to a window. */
export const eventChannel = 'strata:event';
