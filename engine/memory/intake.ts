import { z } from 'zod';
import { utf8Length } from '../text/utf8';
import { detectUnsafe } from './detectUnsafe';
import * as limit from './intakeLimits';
import {
  MemoryEvidenceSchema,
  MemoryKindSchema,
  MemoryProvenanceSchema,
  MemoryRecordSchema,
  type MemoryEvidence,
  type MemoryProposal,
  type MemoryRecord,
} from './MemoryRecord';

/** What the intake made of a proposal: the checked copy to store, or why it is refused. */
export type ProposalIntake = { ok: true; proposal: MemoryProposal } | { ok: false; reason: string };
/** What the intake made of a whole record (a write, or a legacy row being imported). */
export type RecordIntake = { ok: true; record: MemoryRecord } | { ok: false; reason: string };

const MemoryProposalSchema = z
  .object({ kind: MemoryKindSchema, title: z.string(), body: z.string(), evidence: MemoryEvidenceSchema, provenance: MemoryProvenanceSchema })
  .strict();

/**
 * The one gate of every memory write (spec "Project memory storage and erasure"): the exact
 * shape (unknown keys refused), every string within its limit in `intakeLimits`, every evidence
 * path workspace-relative, no string that `detectUnsafe` refuses, confidence in 0..1, every
 * time from 2000-01-01 to 2100-01-01 (`MIN_TIME_MS`..`MAX_TIME_MS`) and the whole small enough
 * to fit as a record. Returns a fresh copy with a leading `./` removed from paths, or the first reason it fails. Pure and total: it never throws, and a
 * reason names the field and the rule but never repeats the content, so it is safe to log.
 */
export function intakeProposal(p: unknown): ProposalIntake {
  const checked = intake(p, MemoryProposalSchema, 'proposal', limit.MAX_RECORD_BYTES - limit.RECORD_ENVELOPE_BYTES);
  return checked.ok ? { ok: true, proposal: checked.value } : checked;
}

/**
 * `intakeProposal` for a whole schema-2 record, as the store writes it and the legacy import
 * reads it (a refused row is dropped and counted): also the id and partition patterns, the
 * state, revision >= 1, created/updated times in range and `MAX_RECORD_BYTES` of JSON.
 */
export function intakeRecord(r: unknown): RecordIntake {
  const checked = intake(r, MemoryRecordSchema, 'record', limit.MAX_RECORD_BYTES);
  return checked.ok ? { ok: true, record: checked.value } : checked;
}

/** What the intake made of text a person typed: the trimmed title and text, or why it is refused. */
export type TypedTextIntake = { ok: true; title: string | undefined; text: string } | { ok: false; reason: string };

/**
 * The intake of text a person types into the control room (a new constraint, an edit of a memory
 * entry): `text` not empty once trimmed and within `MAX_BODY_LENGTH`, `title` (optional, one line)
 * within `MAX_TITLE_LENGTH`, and neither holding what `detectUnsafe` refuses (control, bidi or
 * invisible characters, secrets). `label` names the text field in the reason (`text`, `body`).
 * Pure and total; the reason names the field and the rule, never the content.
 */
export function intakeTypedText(raw: { title?: unknown; text: unknown }, label = 'text'): TypedTextIntake {
  if (typeof raw.text !== 'string') return { ok: false, reason: `${label} must be text` };
  if (raw.title !== undefined && typeof raw.title !== 'string') return { ok: false, reason: 'title must be text' };
  const text = raw.text.trim();
  const title = raw.title?.trim() || undefined;
  if (text === '') return { ok: false, reason: `${label} is empty` };
  if (text.length > limit.MAX_BODY_LENGTH) return { ok: false, reason: `${label} is ${text.length} characters (limit ${limit.MAX_BODY_LENGTH})` };
  const unsafeText = detectUnsafe(text);
  if (unsafeText !== undefined) return { ok: false, reason: `${label}: ${unsafeText}` };
  if (title !== undefined) {
    if (title.length > limit.MAX_TITLE_LENGTH) return { ok: false, reason: `title is ${title.length} characters (limit ${limit.MAX_TITLE_LENGTH})` };
    if (/[\r\n\u2028\u2029]/.test(title)) return { ok: false, reason: 'title has a line break (a title is one line)' };
    const unsafeTitle = detectUnsafe(title);
    if (unsafeTitle !== undefined) return { ok: false, reason: `title: ${unsafeTitle}` };
  }
  return { ok: true, title, text };
}

type Checked<T> = { ok: true; value: T } | { ok: false; reason: string };

function intake<T extends MemoryProposal>(raw: unknown, schema: z.ZodType<T>, root: string, maxBytes: number): Checked<T> {
  try {
    const parsed = schema.safeParse(raw);
    if (!parsed.success) return { ok: false, reason: describeIssue(parsed.error.issues[0], raw, root) };
    const value = parsed.data;
    // zod drops an own `__proto__` key of a record; refusing keeps "accepted" meaning "kept whole".
    if (Object.keys(child(raw, ['evidence', 'hashes']) ?? {}).length !== Object.keys(value.evidence.hashes).length) {
      return { ok: false, reason: 'evidence.hashes has a key that cannot be stored ("__proto__")' };
    }
    const evidence = normalizeEvidence(value.evidence);
    // Removing `./` can fold `./a` onto `a`; two hashes for one file would make freshness ambiguous.
    if (Object.keys(evidence.hashes).length !== Object.keys(value.evidence.hashes).length) {
      return { ok: false, reason: "evidence.hashes names one path twice (once with a leading './')" };
    }
    const reason = checkContent({ ...value, evidence });
    if (reason !== undefined) return { ok: false, reason };
    const result = { ...value, evidence };
    const bytes = utf8Length(JSON.stringify(result));
    if (bytes > maxBytes) return { ok: false, reason: `${root} is ${bytes} bytes as JSON (limit ${maxBytes})` };
    return { ok: true, value: result };
  } catch {
    return { ok: false, reason: `${root} could not be read as plain data` };
  }
}

const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const TIME_RANGE = `${day(limit.MIN_TIME_MS)} to ${day(limit.MAX_TIME_MS)}`;

const normalizePath = (path: string): string => path.replace(/^(?:\.\/)+/, '');

function normalizeEvidence(e: MemoryEvidence): MemoryEvidence {
  const hashes = Object.fromEntries(Object.entries(e.hashes).map(([path, hash]) => [normalizePath(path), hash]));
  return { ...e, paths: e.paths.map(normalizePath), hashes };
}

/** The first broken rule of an already well-shaped, normalized proposal or record. */
function checkContent(v: MemoryProposal & Partial<Pick<MemoryRecord, 'createdAt' | 'updatedAt'>>): string | undefined {
  const { paths, commands, hashes, commit } = v.evidence;
  const hashEntries = Object.entries(hashes);
  if (paths.length > limit.MAX_PATHS) return `evidence.paths has ${paths.length} entries (limit ${limit.MAX_PATHS})`;
  if (commands.length > limit.MAX_COMMANDS) return `evidence.commands has ${commands.length} entries (limit ${limit.MAX_COMMANDS})`;
  if (hashEntries.length > limit.MAX_HASH_ENTRIES) return `evidence.hashes has ${hashEntries.length} entries (limit ${limit.MAX_HASH_ENTRIES})`;
  const fields: [label: string, value: string, max: number, isPath?: boolean][] = [
    ['title', v.title, limit.MAX_TITLE_LENGTH],
    ['body', v.body, limit.MAX_BODY_LENGTH],
    ...paths.map((p, i): [string, string, number, boolean] => [`evidence.paths[${i}]`, p, limit.MAX_PATH_LENGTH, true]),
    ...commands.flatMap((c, i): [string, string, number][] => [
      [`evidence.commands[${i}].command`, c.command, limit.MAX_COMMAND_LENGTH],
      [`evidence.commands[${i}].result`, c.result, limit.MAX_COMMAND_RESULT_LENGTH],
    ]),
    ...hashEntries.flatMap(([path, hash], i): [string, string, number, boolean][] => [
      [`evidence.hashes[${i}].key`, path, limit.MAX_PATH_LENGTH, true],
      [`evidence.hashes[${i}].value`, hash, limit.MAX_HASH_LENGTH, false],
    ]),
    ['evidence.commit', commit ?? '', limit.MAX_COMMIT_LENGTH],
    ['provenance.source', v.provenance.source, limit.MAX_IDENTIFIER_LENGTH],
    ['provenance.agentId', v.provenance.agentId, limit.MAX_IDENTIFIER_LENGTH],
    ['provenance.taskId', v.provenance.taskId, limit.MAX_IDENTIFIER_LENGTH],
    ['provenance.itemId', v.provenance.itemId ?? '', limit.MAX_IDENTIFIER_LENGTH],
  ];
  for (const [label, value, max, isPath] of fields) {
    if (value.length > max) return `${label} is ${value.length} characters (limit ${max})`;
    const problem = isPath ? pathProblem(value) : undefined;
    if (problem !== undefined) return `${label} ${problem}`;
    const unsafe = detectUnsafe(value);
    if (unsafe !== undefined) return `${label}: ${unsafe}`;
  }
  const times: [string, number | undefined][] = [
    ...commands.map((c, i): [string, number] => [`evidence.commands[${i}].ranAt`, c.ranAt]),
    ['provenance.observedAt', v.provenance.observedAt],
    ['createdAt', v.createdAt],
    ['updatedAt', v.updatedAt],
  ];
  for (const [label, time] of times) {
    if (time !== undefined && !(time >= limit.MIN_TIME_MS && time <= limit.MAX_TIME_MS)) return `${label} must be a time from ${TIME_RANGE} (got ${time})`;
  }
  return undefined;
}

/** Why `path` (with `./` already removed) is not a workspace-relative POSIX path, if it is not. */
function pathProblem(path: string): string | undefined {
  if (path === '') return 'is empty';
  if (path.includes('\0')) return 'contains a NUL character';
  // One line: a break here would end the recalled header line and stand outside its quote.
  const control = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.exec(path);
  if (control) return `contains a line break or control character ${codePointOf(control[0])} (a path is one line)`;
  if (path.includes('\\')) return "contains a backslash (use '/')";
  if (path.startsWith('/')) return "is absolute (starts with '/')";
  if (/^[A-Za-z]:/.test(path)) return 'starts with a drive letter';
  if (path.startsWith('~')) return "starts with '~' (a home directory)";
  for (const segment of path.split('/')) {
    if (segment === '') return 'has an empty segment';
    if (segment === '..') return "has a '..' segment";
    if (segment === '.') return "has a '.' segment";
  }
  return undefined;
}

const codePointOf = (ch: string): string => `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

type Issue = z.ZodError['issues'][number];

/** A zod issue as a sentence with the field path; never the value, which may be the secret. */
function describeIssue(issue: Issue | undefined, raw: unknown, root: string): string {
  if (!issue) return `${root} is invalid`;
  const label = labelOf(issue.path, raw, root);
  switch (issue.code) {
    case 'invalid_type': {
      const got = kindOf(child(raw, issue.path));
      if (got === 'undefined') return `${label} is missing (expected ${issue.expected})`;
      return issue.expected === 'int' ? `${label} must be a safe integer (got ${got})` : `${label}: expected ${issue.expected}, got ${got}`;
    }
    case 'too_big':
      return `${label} must be ${issue.inclusive ? 'at most' : 'less than'} ${String(issue.maximum)}`;
    case 'too_small':
      return `${label} must be ${issue.inclusive ? 'at least' : 'greater than'} ${String(issue.minimum)}`;
    case 'invalid_value':
      if (child(raw, issue.path) === undefined) return `${label} is missing`;
      return `${label} must be ${issue.values.length === 1 ? '' : 'one of '}${issue.values.map(String).join(', ')}`;
    case 'invalid_format':
      return `${label} does not match ${'pattern' in issue && issue.pattern ? issue.pattern : issue.format}`;
    case 'unrecognized_keys': {
      // Only word-like keys are named (no digits, nothing `detectUnsafe` refuses): key material
      // nearly always holds digits, so a secret sent as a key is counted, never repeated.
      const named = issue.keys.every((k) => /^[A-Za-z_]{1,40}$/.test(k) && detectUnsafe(k) === undefined);
      const n = issue.keys.length;
      if (!named) return `${label} has ${n} unknown key${n === 1 ? '' : 's'}`;
      return `${label} has unknown key${n === 1 ? '' : 's'} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
    }
    default:
      return `${label} is invalid (${issue.code})`;
  }
}

/** `evidence.commands[2].ranAt`; a key of `evidence.hashes` is named by its position. */
function labelOf(path: readonly PropertyKey[], raw: unknown, root: string): string {
  if (path.length === 0) return root;
  const inHashes = path[0] === 'evidence' && path[1] === 'hashes';
  return path
    .map((segment, i) => {
      if (inHashes && i === 2) return `[${Object.keys(child(raw, ['evidence', 'hashes']) ?? {}).indexOf(String(segment))}].value`;
      if (typeof segment === 'number') return `[${segment}]`;
      return i === 0 ? String(segment) : `.${String(segment)}`;
    })
    .join('');
}

function child(raw: unknown, path: readonly PropertyKey[]): unknown {
  let at = raw;
  for (const segment of path) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<PropertyKey, unknown>)[segment];
  }
  return at;
}

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  return typeof v;
}
