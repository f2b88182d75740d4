/** Options every shell (desktop, web host, CLI) understands. */
export interface ShellOptions {
  workspace?: string | undefined;
  port?: number | undefined;
  /** `--sessions-dir <dir>` (repeatable): more folders to look for Claude Code and Codex sessions in. */
  sessionsDirs: string[];
  help: boolean;
  /** Arguments that are not options, in order (a CLI subcommand and its operands). */
  positional: string[];
}

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * Parse `--workspace <dir>`, `--port <n>`, `--sessions-dir <dir>` (also `--x=v`) and `--help`. Unknown options are an
 * error naming the option, never ignored. Electron/Chromium switches are skipped when `lenient`.
 */
export function parseShellOptions(argv: readonly string[], lenient = false): ShellOptions {
  const out: ShellOptions = { help: false, positional: [], sessionsDirs: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string => {
      if (inline !== undefined) {
        if (inline === '') throw new UsageError(`${flag} needs a value.`);
        return inline;
      }
      const v = argv[i + 1];
      if (v === undefined || v === '' || v.startsWith('--')) throw new UsageError(`${flag} needs a value.`);
      i++;
      return v;
    };
    switch (flag) {
      case '--help':
      case '-h':
        out.help = true;
        break;
      case '--workspace':
        out.workspace = value();
        break;
      case '--sessions-dir':
        out.sessionsDirs.push(value());
        break;
      case '--port': {
        const raw = value();
        const port = Number(raw);
        if (!/^\d+$/.test(raw) || port > 65535) throw new UsageError(`--port must be an integer from 0 to 65535 (got "${raw}").`);
        out.port = port;
        break;
      }
      default:
        if (flag.startsWith('-')) {
          if (lenient) break;
          throw new UsageError(`Unknown option ${flag}. Run with --help for the options.`);
        }
        out.positional.push(arg);
    }
  }
  return out;
}
