#!/usr/bin/env node
// The `strata` command (package.json "bin"): `npx strata …` in the project, or `strata …` after a
// global install. Builds the app first when its sources changed (the build's output goes to
// stderr, so stdout stays the command's own), then runs the CLI bundle with the same arguments.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureBuilt, root } from './ensureBuilt.mjs';

const why = ensureBuilt({ quiet: true });
if (why) {
  console.error(`strata: ${why}`);
  process.exit(1);
}
const cli = join(root, 'out', 'main', 'cli.js');
process.argv = [process.argv[0], cli, ...process.argv.slice(2)];
await import(pathToFileURL(cli).href);
