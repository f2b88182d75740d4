/**
 * How a refresh forced by a provider's context-limit refusal is named: the engine writes this
 * reason into the new generation's boundary (`Engine.maybeRefresh`), and the control room reads it
 * back from the agent's current generation to flag the agent as refreshed (`[agent-boundary]`).
 * Defined once, so the writer and the reader never drift apart.
 */
const PREFIX = 'provider context-limit error: ';

/** The boundary reason of a refresh forced by the provider's context-limit refusal `message`. */
export const contextLimitReason = (message: string): string => `${PREFIX}${message}`;

/** The provider's refusal a context-limit refresh reason quotes; null for a reason of any other refresh or rebuild. */
export const contextLimitMessage = (reason: string): string | null => (reason.startsWith(PREFIX) ? reason.slice(PREFIX.length) : null);
