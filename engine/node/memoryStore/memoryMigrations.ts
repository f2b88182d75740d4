/**
 * The memory module's own migrations, tracked in the catalog's meta table under `memory.schema`.
 * The table itself is created by the catalog (so its guard can be installed at every open); this
 * module adds what only it needs. The guard is installed again after these run.
 */
export const memoryMigrations: readonly { version: number; sql: string }[] = [
  { version: 1, sql: 'CREATE INDEX IF NOT EXISTS memory_by_state_updated ON memory(state, updated_at);' },
];
