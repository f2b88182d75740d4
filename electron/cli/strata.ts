import { openHost } from '../shared/openHost';
import { parseShellOptions, UsageError } from '../shared/shellOptions';
import { serveControlRoom } from '../web/serveControlRoom';
import { compareCommand, compareUsage } from './compareCommand';
import { gatewayCommand } from './gatewayCommand';
import { importCommand } from './importCommand';

const usage = `strata ${__STRATA_VERSION__}: variable context engine for coding agents

Usage: strata <command> [options]

Commands:
  web            serve the control room on http://127.0.0.1 (prints the address with its token)
  gateway [--port n] [--manage] [--context-window tokens] [--anthropic-upstream url] [--openai-upstream url]
                 start the local gateway for Claude Code, Codex and the provider SDKs (observe
                 mode by default: requests go upstream unchanged) and the control room watching
                 it ('strata gateway --help' for the options)
  health         print the workspace's health as JSON (catalog path, schema version, agents)
  compare <files or folders> [--strategies a,b] [--budget n] [--peers] [--json f] [--csv f]
                 replay recorded agent sessions (Claude Code, Codex, Gemini CLI, OpenCode export
                 or opencode.db[#session], ATIF, SWE-agent, OpenAI-style messages) under
                 each context strategy (and with --peers, from a source checkout, the peer
                 libraries) and print what each would have sent and cost ('strata compare --help'
                 for the options)
  import <files or folders>
                 import recorded sessions (the same formats) into the workspace catalog for the
                 control room's comparisons; one file prints its trace as JSON (id, name, format,
                 steps, tool calls), several files or a folder print one outcome each (a refused
                 file does not stop the rest; exit 1 if any was refused); importing the same bytes
                 again changes nothing and gives the same id
  import-legacy <file>
                 import the project memory of a version-1 catalog through the memory intake
                 (refused rows are dropped and counted; a non-JSON row fails the whole import)
  help           show this text

Options:
  --workspace <dir>   a project folder (its catalog is <dir>/.strata/catalog.sqlite);
                      default: the demo workspace in STRATA_HOME or the user data folder
  --port <n>          port for 'web' (default: a random free port)
  --sessions-dir <dir>  for 'web': another folder of Claude Code or Codex sessions to list
                      (beside ~/.claude/projects and ~/.codex/sessions; repeatable)
  -h, --help          show this text

Environment:
  STRATA_HOME          data folder instead of the user data folder
  STRATA_DEMO_TICK_MS  milliseconds between demo scenario steps (0 pauses; default 1500)`;

async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'compare') {
    if (argv.includes('--help') || argv.includes('-h')) {
      console.log(compareUsage);
      return 0;
    }
    return compareCommand(argv.slice(1));
  }
  if (argv[0] === 'gateway') return gatewayCommand(argv.slice(1));
  const opts = parseShellOptions(argv);
  const [command = 'help', ...rest] = opts.positional;
  if (opts.help || command === 'help') {
    console.log(usage);
    return 0;
  }
  if (command === 'import') {
    if (rest.length === 0) throw new UsageError('import needs at least one trace file or folder.');
    return importCommand(rest, opts.workspace);
  }
  if (command === 'import-legacy') {
    if (rest.length !== 1) throw new UsageError('import-legacy needs exactly one file: the version-1 catalog to import.');
    const { host } = openHost({ workspace: opts.workspace });
    try {
      console.log(JSON.stringify(host.memory.importLegacy(rest[0] as string), null, 2));
      return 0;
    } finally {
      host.close();
    }
  }
  if (rest.length > 0) throw new UsageError(`Unexpected argument "${rest[0]}" after "${command}".`);
  switch (command) {
    case 'web':
      await serveControlRoom(opts);
      return -1;
    case 'health': {
      const { host } = openHost({ workspace: opts.workspace });
      try {
        const conn = host.connect(() => {});
        const envelope = await conn.call('health', {});
        console.log(JSON.stringify(envelope.ok ? envelope.value : envelope.error, null, 2));
        return envelope.ok ? 0 : 1;
      } finally {
        host.close();
      }
    }
    default:
      throw new UsageError(`Unknown command "${command}".`);
  }
}

try {
  const code = await main(process.argv.slice(2));
  if (code >= 0) process.exitCode = code;
} catch (err) {
  console.error(`strata: ${err instanceof UsageError ? `${err.message}\n\n${usage}` : (err as Error).message}`);
  process.exitCode = err instanceof UsageError ? 2 : 1;
}
