import { newMemoryId } from '../../engine/memory/partitionId';

/** What the crash-safety writer (`crashChild.ts`) writes per turn, shared with the test that checks it. */
export const CRASH_AGENT = 'crash-writer';
/** A memory entry is proposed in the turn's transaction every this many turns. */
export const MEMORY_EVERY = 4;
export const crashTurnLog = (turn: number): string => `turn ${turn} committed`;
export const crashTurnItemId = (turn: number): string => `turn:${turn}`;
export const crashMemorySeed = (turn: number): string => `crash-safety:${turn}`;
/** The id the store gives the entry of `turn` (its seed is fixed, so a retried turn gets the same id). */
export const crashMemoryId = (turn: number): string => newMemoryId(crashMemorySeed(turn));
