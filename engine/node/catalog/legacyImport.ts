import Database from 'better-sqlite3';
import type { Catalog } from './Catalog';
import { memoryConnection } from './memoryAccess';
import { dropMemoryGuardSql, memoryGuardSql } from './memoryGuard';

/** A schema-2 row the memory intake made from a legacy row. */
export interface IntakeRow {
  id: string;
  partition: string;
  state: string;
  revision: number;
  payload: string;
  updatedAt: number;
}

/** The memory module's intake for legacy rows: a schema-2 row, or why the row is refused. */
export type LegacyMemoryIntake = (payload: unknown, legacy: { id: string; workspace: string }) => { ok: true; row: IntakeRow } | { ok: false; reason: string };

let registered: LegacyMemoryIntake | undefined;

/** The memory module registers its intake here (spec `EnsureLegacyMemoryIntake`); nothing else does. */
export function registerLegacyMemoryIntake(intake: LegacyMemoryIntake | undefined): void {
  registered = intake;
}

export interface LegacyImportReport {
  imported: number;
  dropped: number;
  /** Why rows were dropped, with counts. */
  reasons: Record<string, number>;
}

/**
 * Import a version-1 catalog's memory (a SQLite file with `memory(id, workspace, payload)`) into
 * this catalog (`[legacy-import]`): never by copying rows, only through the registered memory
 * intake, inside one transaction. Rows the intake refuses are dropped and counted; a payload that
 * is not JSON fails the whole import (nothing is written); without a registered intake the import
 * fails. The guard is lifted for that transaction only and reinstalled before it commits.
 */
export function importLegacyCatalog(catalog: Catalog, legacyPath: string): LegacyImportReport {
  const intake = registered;
  if (!intake) throw new Error('Legacy import refused: no memory intake is registered (open the memory store first); raw rows are never copied.');
  let legacy: Database.Database;
  try {
    legacy = new Database(legacyPath, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw new Error(`Cannot open the legacy catalog ${legacyPath}: ${(err as Error).message}`);
  }
  let rows: { id: string; workspace: string; payload: string }[];
  try {
    rows = legacy.prepare('SELECT id, workspace, payload FROM memory ORDER BY rowid').all() as typeof rows;
  } catch (err) {
    throw new Error(`${legacyPath} is not a version-1 Strata catalog (no memory table): ${(err as Error).message}`);
  } finally {
    legacy.close();
  }

  const db = memoryConnection(catalog);
  const report: LegacyImportReport = { imported: 0, dropped: 0, reasons: {} };
  const insert = db.prepare('INSERT INTO memory (id, partition, state, revision, payload, updated_at) VALUES (@id, @partition, @state, @revision, @payload, @updatedAt)');
  const exists = db.prepare('SELECT 1 FROM memory WHERE id = ?');
  db.transaction(() => {
    db.exec(dropMemoryGuardSql);
    rows.forEach((row, n) => {
      let payload: unknown;
      try {
        payload = JSON.parse(row.payload);
      } catch {
        throw new Error(`Legacy import failed: row ${n + 1} (id ${JSON.stringify(row.id)}) is not JSON; nothing was imported.`);
      }
      const checked = intake(payload, { id: row.id, workspace: row.workspace });
      const reason = !checked.ok ? checked.reason : exists.get(checked.row.id) ? 'already imported' : undefined;
      if (reason !== undefined || !checked.ok) {
        report.dropped++;
        const key = (reason ?? 'refused').replace(/\s*\(.*$/, '');
        report.reasons[key] = (report.reasons[key] ?? 0) + 1;
        return;
      }
      insert.run(checked.row);
      report.imported++;
    });
    db.exec(memoryGuardSql);
  })();
  return report;
}
