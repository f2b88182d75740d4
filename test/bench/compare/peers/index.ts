/**
 * The peer context-management libraries the benchmark runs beside Strata, all behind one
 * signature (`PeerAdapter`). Dev-only: never import from engine/, electron/ or renderer/.
 */
import { fullHistory } from './fullHistory';
import { langchainTrim } from './langchainTrim';
import { mastraTokenLimiter, mastraTokenLimiterOwnEncoder } from './mastraTokenLimiter';
import type { PeerAdapter } from './PeerAdapter';
import { vercelPruneMessages } from './vercelPruneMessages';

export { conversationTokens, type PeerAdapter } from './PeerAdapter';
export { fullHistory, langchainTrim, mastraTokenLimiter, mastraTokenLimiterOwnEncoder, vercelPruneMessages };

/** Every adapter, the baseline first. */
export const peerAdapters: readonly PeerAdapter[] = [fullHistory, langchainTrim, mastraTokenLimiter, mastraTokenLimiterOwnEncoder, vercelPruneMessages];
