/**
 * Identifiers as a port, so builds and tests are deterministic. `kind` says what the id is for
 * (`msg`, `group`, `turn`, `summary`, `transient`) and may become part of it; an id must never be
 * the empty string. Callers that need uniqueness against existing state check it themselves and
 * ask again, so a source restarted after a restore cannot silently collide.
 */
export interface IdSource {
  next(kind: string): string;
}

/** `${kind}-1`, `${kind}-2`, … with one counter per kind: deterministic and readable in tests. */
export function sequentialIds(): IdSource {
  const counters = new Map<string, number>();
  return {
    next: (kind) => {
      const n = (counters.get(kind) ?? 0) + 1;
      counters.set(kind, n);
      return `${kind}-${n}`;
    },
  };
}
