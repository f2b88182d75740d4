import type { MemoryProposal, MemoryRecord } from '../../../../engine/memory/MemoryRecord';

/** A well-formed proposal: a build command observed by a worker. */
export function validProposal(): MemoryProposal {
  return {
    kind: 'build_command',
    title: 'Build the desktop app with npm run build',
    body: 'electron-vite builds main, preload and renderer into out/. Run it before the e2e suite.',
    evidence: {
      paths: ['package.json', 'electron.vite.config.ts', 'engine/memory/intake.ts'],
      commands: [{ command: 'npm run build', ranAt: 1_767_225_600_000, result: 'exit 0; out/main/index.js written' }],
      hashes: { 'package.json': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' },
      commit: '4b825dc642cb6eb9a060e54bf8d69288fbee4904',
    },
    provenance: {
      source: 'worker_finding',
      agentId: 'worker-1',
      taskId: 'task-42',
      itemId: 'item-7',
      observedAt: 1_767_225_600_000,
      confidence: 0.9,
    },
  };
}

/** A well-formed schema-2 record around `validProposal`. */
export function validRecord(): MemoryRecord {
  return {
    schemaVersion: 2,
    id: 'mem_0123456789abcdef',
    partition: 'ws_0123456789abcdef',
    state: 'candidate',
    revision: 1,
    ...validProposal(),
    verified: false,
    createdAt: 1_767_225_600_000,
    updatedAt: 1_767_225_600_000,
  };
}

/** Marks a field for removal in `withField`. */
export const REMOVE = Symbol('remove');

/**
 * A deep copy of `value` with the field at `path` (dot separated, array indexes as numbers) set
 * to `replacement`, or removed: the table tests change one thing at a time.
 */
export function withField(value: unknown, path: string, replacement: unknown): unknown {
  const copy = structuredClone(value) as Record<string, unknown>;
  const keys = path.split('.');
  const last = keys.pop()!;
  let at = copy;
  for (const key of keys) at = at[key] as Record<string, unknown>;
  if (replacement === REMOVE) delete at[last];
  else at[last] = replacement;
  return copy;
}
