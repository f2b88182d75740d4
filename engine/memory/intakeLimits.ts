/**
 * The size limits of the memory intake (spec "Project memory storage and erasure", "Legacy
 * import"). Every memory write and every imported legacy row is held to them, so one entry can
 * never crowd the catalog or the recalled block, and an over-limit row is dropped and counted
 * rather than truncated (a truncated observation could say something its author did not).
 *
 * String limits count UTF-16 code units (`string.length`): the same number a person sees in the
 * reason, cheap to check, and never smaller than the count of code points.
 */

/** Longest title: a one-line headline for the inspector and the recalled block. */
export const MAX_TITLE_LENGTH = 200;

/** Longest body: one observation, not a document. */
export const MAX_BODY_LENGTH = 4000;

/** Longest evidence path (a workspace-relative path, also each key of `evidence.hashes`). */
export const MAX_PATH_LENGTH = 300;

/** Most evidence paths per entry. */
export const MAX_PATHS = 50;

/**
 * Most entries in `evidence.hashes`. Each key is an evidence path, so the bound is the path bound:
 * an entry cannot pin more files than it may name. Its own name for the path bound (knip: `@alias`).
 * @alias
 */
export const MAX_HASH_ENTRIES = MAX_PATHS;

/** Longest command line in command evidence. */
export const MAX_COMMAND_LENGTH = 500;

/** Longest recorded command result (a summary, not a log). */
export const MAX_COMMAND_RESULT_LENGTH = 1000;

/** Most commands per entry. */
export const MAX_COMMANDS = 20;

/** Longest content hash in `evidence.hashes` (room for a hex SHA-512 with an algorithm prefix). */
export const MAX_HASH_LENGTH = 128;

/** Longest commit id (a hex SHA-256 object name is 64). */
export const MAX_COMMIT_LENGTH = 64;

/** Longest provenance identifier: `agentId`, `taskId`, `source` and `itemId`. */
export const MAX_IDENTIFIER_LENGTH = 200;

/**
 * Largest record: UTF-8 bytes of `JSON.stringify(record)`, the form the catalog stores. The
 * per-field limits alone would allow more, so this caps the sum.
 */
export const MAX_RECORD_BYTES = 16 * 1024;

/**
 * Bytes reserved for what the store adds to a proposal to make a record (schemaVersion, id,
 * partition, state, revision, verified, createdAt, updatedAt, at their longest). A proposal is
 * held to `MAX_RECORD_BYTES - RECORD_ENVELOPE_BYTES`, so an accepted proposal always fits as a
 * record and the store never has to refuse what the intake let through.
 */
export const RECORD_ENVELOPE_BYTES = 512;

/**
 * Earliest and latest time (milliseconds since the epoch) of every time field of an entry
 * (`ranAt`, `observedAt`, `createdAt`, `updatedAt`): 2000-01-01 and 2100-01-01, UTC. Fixed, so the
 * intake stays pure; wide enough for any real observation, and narrow enough that every accepted
 * time renders as a date (`new Date(1e20)` cannot, and once failed every recalling agent).
 */
export const MIN_TIME_MS = Date.UTC(2000, 0, 1);
export const MAX_TIME_MS = Date.UTC(2100, 0, 1);
