/**
 * The peer context-management libraries the benchmark runs beside Strata, all behind one
 * signature (`PeerAdapter`). Dev-only: never import from engine/, electron/ or renderer/.
 */
import { fullHistory } from './fullHistory';
import { langchainTrim, langchainTrimValidTail } from './langchainTrim';
import { mastraTokenLimiter, mastraTokenLimiterOwnEncoder } from './mastraTokenLimiter';
import type { PeerAdapter } from './PeerAdapter';
import { vercelPrepareStep, vercelPruneMessages } from './vercelPruneMessages';

export { conversationTokens, type PeerAdapter } from './PeerAdapter';
export { fullHistory, langchainTrim, langchainTrimValidTail, mastraTokenLimiter, mastraTokenLimiterOwnEncoder, vercelPrepareStep, vercelPruneMessages };

/** Every adapter, the baseline first. */
export const peerAdapters: readonly PeerAdapter[] = [fullHistory, langchainTrim, langchainTrimValidTail, mastraTokenLimiter, mastraTokenLimiterOwnEncoder, vercelPruneMessages, vercelPrepareStep];

/**
 * The peers `bench:compare` runs by default: every adapter on the same transcripts and OUR
 * tokenizer, as the issue compares them. Not `mastraTokenLimiterOwnEncoder`: it counts with its own
 * encoder (another comparison) and costs more than all the rest together (up to a minute per trace
 * and budget), so the bench runs it only when asked (`--mastra-own-encoder`).
 */
export const benchPeerAdapters: readonly PeerAdapter[] = peerAdapters.filter((p) => p !== mastraTokenLimiterOwnEncoder);
