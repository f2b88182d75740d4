/**
 * A second Strata process for the single-writer tests: opens the catalog at argv[2] with
 * `Catalog.open` and prints `opened` or `refused: <message>`. With `hold` as argv[3] it keeps the
 * catalog open until killed. Run with `node --import tsx test/support/openCatalogChild.ts <path>`.
 */
import { Catalog } from '../../engine/node/catalog/Catalog';

const [, , path, mode] = process.argv;
if (!path) throw new Error('usage: openCatalogChild.ts <catalog path> [hold]');

try {
  const catalog = Catalog.open(path);
  process.stdout.write(`opened pid=${process.pid}\n`);
  if (mode === 'hold') setInterval(() => undefined, 60_000);
  else catalog.close();
} catch (err) {
  process.stdout.write(`refused: ${(err as Error).message}\n`);
  process.exitCode = 3;
}
