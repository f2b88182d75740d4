import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { CatalogError } from '../../../../engine/node/catalog/Catalog';
import { ConfigError } from '../../../../engine/config/ConfigError';
import { type ErrorCode, StrataError } from '../../../../engine/contract';
import { ContextError } from '../../../../engine/conversation/ContextError';
import { makeCheckpoint } from '../../../../engine/conversation/checkpoint';
import { EngineError } from '../../../../engine/EngineEvent';
import { dispatch } from '../../../../engine/host/dispatch';
import { EventHub } from '../../../../engine/host/EventHub';
import type { Handlers } from '../../../../engine/host/handlers';
import { MemoryError } from '../../../../engine/node/memoryStore/MemoryError';
import { InvalidRequestError, MalformedResponseError } from '../../../../engine/providers/errors';
import { ProviderError } from '../../../../engine/providers/Provider';
import { ContextLimitError } from '../../../../engine/refresh/ContextLimitError';
import { CommitError } from '../../../../engine/runtime/AgentRuntime';
import { CancelledError } from '../../../../engine/runtime/Cancellation';
import { ConfinementError } from '../../../../engine/node/tools/confine';
import type { SkillError } from '../../../../engine/skills/SkillError';
import { TraceImportError } from '../../../../engine/traces/TraceEvent';
import { TraceFileError } from '../../../../engine/traces/TraceFileError';

const session = new EventHub().open(() => {});
const ROOT = join(__dirname, '..', '..', '..', '..');

/** `thrown` out of the getAgent handler, through the real dispatcher; the envelope and whether it was reported as internal. */
async function answer(thrown: unknown) {
  const report = vi.fn();
  const handlers = {
    getAgent: () => {
      throw thrown;
    },
  } as Partial<Handlers> as Handlers;
  const envelope = await dispatch(handlers, 'getAgent', { agentId: 'a1' }, session, report);
  return { envelope, reported: report.mock.calls.length > 0 };
}

const skillError: SkillError = { kind: 'cycle', message: 'skills/a.md: dependsOn loops: a -> b -> a', origin: 'skills/a.md' };
const checkpointError = makeCheckpoint({ sourceTurnIds: [], retainedTurnIds: [], telemetryBefore: { tokens: 1 }, telemetryAfter: { tokens: 1 }, summary: 's' });

/** Every domain error class (and refusal value) with the one envelope code it reaches the caller as. */
const TABLE: [label: string, thrown: unknown, code: ErrorCode, message: string | RegExp][] = [
  ['EngineError not_found', new EngineError('not_found', 'No item "x" in the pool.'), 'not_found', 'No item "x" in the pool.'],
  ['EngineError duplicate', new EngineError('duplicate', 'Agent "a1" is already registered.'), 'conflict', 'Agent "a1" is already registered.'],
  ['EngineError invalid', new EngineError('invalid', 'Unknown strategy "x".'), 'invalid_args', 'Unknown strategy "x".'],
  ['MemoryError invalid', new MemoryError('invalid', 'Memory entry m1 is retired; this change needs candidate.'), 'invalid_args', 'Memory entry m1 is retired; this change needs candidate.'],
  ['MemoryError conflict', new MemoryError('conflict', 'Memory entry m1 is at revision 2, not 1.'), 'conflict', 'Memory entry m1 is at revision 2, not 1.'],
  ['MemoryError not_found', new MemoryError('not_found', 'No memory entry m1.'), 'not_found', 'No memory entry m1.'],
  ['CatalogError unavailable', new CatalogError('The catalog at /w/.strata/catalog.sqlite has schema version 9, newer than this Strata (3).'), 'unavailable', /newer than this Strata/],
  ['CatalogError locked', new CatalogError('The catalog at /w/.strata/catalog.sqlite is locked by Strata on host h (pid 7). Close it there first.', 'locked'), 'unavailable', /locked by Strata/],
  ['CatalogError refused', new CatalogError('No table "nope" in the catalog.', 'refused'), 'invalid_args', 'No table "nope" in the catalog.'],
  ['ContextError stale_lease', new ContextError('stale_lease', '[turn-lease] turn 1 is stale: turn 2 owns the conversation now. Nothing appended.'), 'conflict', /turn 1 is stale/],
  ['ContextError cancelled_lease', new ContextError('cancelled_lease', '[turn-lease] turn 1 was cancelled'), 'conflict', /was cancelled/],
  ['ContextError foreign_lease', new ContextError('foreign_lease', '[turn-lease] this lease was not issued by this conversation'), 'conflict', /not issued/],
  ['ContextError malformed_group', new ContextError('malformed_group', '[group-atomic] group refused, nothing appended: no results', ['no results']), 'invalid_args', /group refused/],
  ['ContextError invalid_argument', new ContextError('invalid_argument', 'maxTokens must be a non-negative integer, got -1'), 'invalid_args', /maxTokens/],
  ['ContextError invalid_snapshot', new ContextError('invalid_snapshot', 'snapshot refused, nothing restored: bad'), 'invalid_args', /snapshot refused/],
  ['ConfinementError', new ConfinementError('../etc/passwd', 'outside', 'path "../etc/passwd" is outside the workspace'), 'forbidden', 'Refused: path "../etc/passwd" is outside the workspace.'],
  ['TraceFileError not_found', new TraceFileError('not_found', 'No trace file at t.jsonl.'), 'not_found', 'No trace file at t.jsonl.'],
  ['TraceFileError refused', new TraceFileError('refused', 't.jsonl is empty; give the path of one trace file.'), 'invalid_args', /is empty/],
  ['TraceImportError', new TraceImportError('t.jsonl', 9, 'line is not valid JSON', 4), 'invalid_args', 't.jsonl:9:4: line is not valid JSON'],
  ['CancelledError', new CancelledError('the run was stopped'), 'conflict', 'The turn was cancelled (the run was stopped); nothing of it was committed.'],
  ['CommitError', new CommitError('a1', 3, new Error('SQLITE_FULL: database or disk is full')), 'unavailable', 'turn 3 of a1 could not be committed: SQLITE_FULL: database or disk is full; the run was stopped.'],
  ['ProviderError auth', new ProviderError('auth', 'anthropic: authentication failed (HTTP 401)', 'anthropic', 401), 'unavailable', /authentication failed/],
  ['ProviderError rate_limited', new ProviderError('rate_limited', 'openai: rate limited (HTTP 429)', 'openai', 429), 'unavailable', /rate limited/],
  ['ProviderError bad_request', new ProviderError('bad_request', 'openai: bad request (HTTP 400)', 'openai', 400), 'invalid_args', /bad request/],
  ['ProviderError cancelled', new ProviderError('cancelled', 'openai: cancelled', 'openai'), 'conflict', /cancelled/],
  ['ContextLimitError', new ContextLimitError('prompt is too long: 210000 tokens > 200000 maximum', 'anthropic', 210000, 200000), 'unavailable', /prompt is too long/],
  ['InvalidRequestError', new InvalidRequestError('anthropic: tool call c1 (read) has arguments that are not valid JSON; refusing to send'), 'invalid_args', /refusing to send/],
  ['MalformedResponseError', new MalformedResponseError('message without a content list'), 'unavailable', "The model's answer could not be read: message without a content list"],
  ['ConfigError (a value)', new ConfigError([{ key: 'context.max_tokens', message: 'context.max_tokens must be a whole number (got "x")' }], 'strata.toml').inFile('strata.toml'), 'invalid_args', /context\.max_tokens must be/],
  ['SkillError (a value)', skillError, 'invalid_args', 'skills/a.md: dependsOn loops: a -> b -> a'],
  ['CheckpointError (a value)', checkpointError, 'invalid_args', /at least one turn/],
  ['StrataError', new StrataError('conflict', 'Run r1 is stopped.'), 'conflict', 'Run r1 is stopped.'],
];

describe('[error-model] one error model', () => {
  it.each(TABLE)('[error-model] %s reaches the caller as its mapped code and is not reported as internal', async (_label, thrown, code, message) => {
    const { envelope, reported } = await answer(thrown);
    expect(envelope.ok).toBe(false);
    if (envelope.ok) return;
    expect(envelope.error.code).toBe(code);
    if (typeof message === 'string') expect(envelope.error.message).toBe(message);
    else expect(envelope.error.message).toMatch(message);
    expect(reported).toBe(false);
  });

  it('[error-model] a plain Error, a RangeError and a thrown non-error stay internal and are reported', async () => {
    for (const thrown of [new Error('boom'), new RangeError('agent a1 is running and cannot take a turn'), { kind: 'not-a-skill-kind', message: 'x' }]) {
      const { envelope, reported } = await answer(thrown);
      expect(envelope).toMatchObject({ ok: false, error: { code: 'internal' } });
      expect(reported).toBe(true);
    }
  });

  it('[error-model] a mapped message has its secrets masked', async () => {
    const key = `sk-ant-api03-${'a1B2c3D4e5'.repeat(8)}`;
    const { envelope } = await answer(new ConfinementError(`${key}.txt`, 'outside', `path "${key}.txt" is outside the workspace`));
    expect(JSON.stringify(envelope)).not.toContain(key);
    expect(envelope).toMatchObject({ ok: false, error: { code: 'forbidden', message: expect.stringContaining('[secret masked:') } });
  });

  const sources = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const p = join(dir, name);
      return statSync(p).isDirectory() ? sources(p) : /\.tsx?$/.test(name) ? [p] : [];
    });

  it('[error-model] StrataError is constructed only in the host and the contract, never in a domain module', () => {
    const offenders = sources(join(ROOT, 'engine'))
      .map((p) => relative(ROOT, p).replace(/\\/g, '/'))
      .filter((p) => !p.startsWith('engine/host/') && !p.startsWith('engine/contract/'))
      .filter((p) => /new StrataError\(/.test(readFileSync(join(ROOT, p), 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('[error-model] every error class the engine and the shells declare is in the table above, or named as one that never leaves its module', () => {
    // Private signals (caught where they are thrown) and the client-side error form.
    const NEVER_LEAVES: Record<string, string> = {
      SliceTimeout: 'engine/node/tools/grep.ts turns it into a tool result',
      SliceCancelled: 'engine/node/tools/grep.ts turns it into a tool result',
      UsageError: 'a shell refuses its command line before any host exists',
      ManageError: 'the gateway turns it into the provider-shaped refusal its client gets (manage mode), never a wire error',
    };
    const declared = [...sources(join(ROOT, 'engine')), ...sources(join(ROOT, 'electron'))].flatMap((p) =>
      [...readFileSync(p, 'utf8').matchAll(/\bclass (\w+) extends Error\b/g)].map((m) => m[1] as string),
    );
    const mapped = new Set(TABLE.map(([label]) => label.split(' ')[0]));
    expect(declared.filter((name) => !mapped.has(name) && !(name in NEVER_LEAVES))).toEqual([]);
  });
});
