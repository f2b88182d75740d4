import { CatalogError, type CatalogErrorCode } from '../node/catalog/Catalog';
import { ConfigError } from '../config/ConfigError';
import { type ErrorCode, StrataError } from '../contract';
import { type ContextErrorCode, ContextError } from '../conversation/ContextError';
import { isCheckpointError } from '../conversation/checkpoint';
import { EngineError } from '../EngineEvent';
import { MemoryError } from '../node/memoryStore/MemoryError';
import { maskSecrets } from '../privacy/maskSecrets';
import { InvalidRequestError, MalformedResponseError } from '../providers/errors';
import { ProviderError, type ProviderErrorKind } from '../providers/Provider';
import { isContextLimitError } from '../refresh/ContextLimitError';
import { CommitError } from '../runtime/AgentRuntime';
import { CancelledError } from '../runtime/Cancellation';
import { ConfinementError } from '../node/tools/confine';
import { SKILL_ERROR_KINDS, type SkillError } from '../skills/SkillError';
import { TraceImportError } from '../traces/TraceEvent';
import { TraceFileError, type TraceFileErrorCode } from '../traces/TraceFileError';

const ENGINE: Record<EngineError['code'], ErrorCode> = { not_found: 'not_found', duplicate: 'conflict', invalid: 'invalid_args' };
const MEMORY: Record<MemoryError['code'], ErrorCode> = { invalid: 'invalid_args', not_found: 'not_found', conflict: 'conflict', unavailable: 'unavailable' };
const CATALOG: Record<CatalogErrorCode, ErrorCode> = { unavailable: 'unavailable', locked: 'unavailable', refused: 'invalid_args' };
const TRACE_FILE: Record<TraceFileErrorCode, ErrorCode> = { not_found: 'not_found', refused: 'invalid_args' };
// A lease lost to a newer or cancelled turn collides with the conversation's state; the rest is refused input.
const CONTEXT: Record<ContextErrorCode, ErrorCode> = {
  stale_lease: 'conflict',
  cancelled_lease: 'conflict',
  foreign_lease: 'conflict',
  malformed_group: 'invalid_args',
  invalid_argument: 'invalid_args',
  invalid_snapshot: 'invalid_args',
};
const PROVIDER: Record<ProviderErrorKind, ErrorCode> = {
  rate_limited: 'unavailable',
  server: 'unavailable',
  timeout: 'unavailable',
  connection: 'unavailable',
  malformed: 'unavailable',
  auth: 'unavailable',
  bad_request: 'invalid_args',
  cancelled: 'conflict',
};

const isSkillError = (v: unknown): v is SkillError =>
  typeof v === 'object' && v !== null && (SKILL_ERROR_KINDS as readonly unknown[]).includes((v as { kind?: unknown }).kind) && typeof (v as { message?: unknown }).message === 'string';

/**
 * The wire error a failure becomes (`[error-model]`): a `StrataError` as it is, every domain error
 * class of the engine as its one contract code with its own message (secrets masked), and
 * `undefined` for anything else, which the dispatcher reports as a bug and answers `internal`.
 * The one table from domain errors to envelope codes: add a row here when a domain error is added.
 */
export function wireErrorOf(err: unknown): StrataError | undefined {
  const as = (code: ErrorCode, message: string) => new StrataError(code, maskSecrets(message));
  if (err instanceof StrataError) return err;
  if (err instanceof EngineError) return as(ENGINE[err.code], err.message);
  if (err instanceof MemoryError) return as(MEMORY[err.code], err.message);
  if (err instanceof CatalogError) return as(CATALOG[err.code], err.message);
  if (err instanceof ContextError) return as(CONTEXT[err.code], err.message);
  if (err instanceof ConfinementError) return as('forbidden', `Refused: ${err.message}.`);
  if (err instanceof TraceFileError) return as(TRACE_FILE[err.code], err.message);
  if (err instanceof TraceImportError) return as('invalid_args', err.message);
  if (err instanceof CancelledError) return as('conflict', `The turn was cancelled (${err.message}); nothing of it was committed.`);
  if (err instanceof CommitError) return as('unavailable', `${err.message}; the run was stopped.`);
  if (err instanceof ProviderError) return as(PROVIDER[err.kind], err.message);
  if (isContextLimitError(err)) return as('unavailable', err.message);
  if (err instanceof InvalidRequestError) return as('invalid_args', err.message);
  if (err instanceof MalformedResponseError) return as('unavailable', `The model's answer could not be read: ${err.message}`);
  // Refusals that are values (returned where the caller branches) map the same way when one is thrown.
  if (err instanceof ConfigError) return as('invalid_args', err.message);
  if (isSkillError(err) || isCheckpointError(err)) return as('invalid_args', err.message);
  return undefined;
}
