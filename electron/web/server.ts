import { parseShellOptions, UsageError } from '../shared/shellOptions';
import { serveControlRoom } from './serveControlRoom';

const usage = `Usage: node out/main/web.js [--port <n>] [--workspace <dir>] [--sessions-dir <dir>]…

Serves the Strata control room on http://127.0.0.1 (a random free port unless --port) and
prints its address, which carries a per-launch token. Without --workspace it opens the demo
workspace in STRATA_HOME or the user data folder. --sessions-dir adds a folder to look for Claude
Code and Codex sessions in, beside ~/.claude/projects and ~/.codex/sessions (repeatable).`;

try {
  const opts = parseShellOptions(process.argv.slice(2));
  if (opts.help) {
    console.log(usage);
  } else {
    await serveControlRoom(opts);
  }
} catch (err) {
  console.error(`strata: ${err instanceof UsageError ? `${err.message}\n\n${usage}` : (err as Error).message}`);
  process.exit(err instanceof UsageError ? 2 : 1);
}
