import { UsageError } from '../shared/shellOptions';
import { serveControlRoom } from '../web/serveControlRoom';

const gatewayUsage = `strata gateway: put Strata in front of Claude Code, Codex and the provider SDKs

Usage: strata gateway [--port n] [--manage] [--context-window tokens] [--anthropic-upstream url]
                      [--openai-upstream url] [--workspace dir] [--web-port n]

Starts the local gateway on http://127.0.0.1:<port> and the control room watching it, and prints
both addresses and the lines that point each client at the gateway. Model calls go on to the real
providers (or the upstreams given) with the client's own key, which the gateway never stores.

Options:
  --port <n>                the gateway's port (default 8787; 0 takes any free one)
  --manage                  new sessions start in manage mode (the engine rewrites requests);
                            default observe (requests go upstream byte for byte)
  --context-window <tokens> manage mode's window: a generation ends past 40% of it and hides old
                            tool results down to 25% (default 200000, Claude's window)
  --anthropic-upstream <url>  where Anthropic calls go (default https://api.anthropic.com)
  --openai-upstream <url>   where OpenAI calls go, as the OpenAI SDKs take a base URL
                            (default https://api.openai.com/v1)
  --workspace <dir>         a project folder (default: the demo workspace)
  --web-port <n>            the control room's port (default: any free one)
  -h, --help                show this text`;

export interface GatewayArgs {
  port: number;
  manage: boolean;
  /** Manage mode's context window in tokens (the watermarks are shares of it); the host's default when absent. */
  contextWindow?: number;
  upstreams: { anthropic?: string; openai?: string };
  workspace?: string;
  webPort?: number;
  help: boolean;
}

/** The gateway's default port: fixed, so a client's base URL keeps working across restarts. */
const DEFAULT_PORT = 8787;

const portOf = (flag: string, raw: string): number => {
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n > 65535) throw new UsageError(`${flag} must be an integer from 0 to 65535 (got "${raw}").`);
  return n;
};

/** Manage mode's window: whole tokens, from 1,000 (smaller leaves no room to keep the newest results) to 10,000,000. */
const windowOf = (flag: string, raw: string): number => {
  const n = Number(raw.replaceAll('_', ''));
  if (!/^\d[\d_]*$/.test(raw) || n < 1_000 || n > 10_000_000) throw new UsageError(`${flag} must be a whole number of tokens from 1000 to 10000000 (got "${raw}").`);
  return n;
};

const urlOf = (flag: string, raw: string): string => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`${flag} must be an http or https URL (got "${raw}").`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${flag} must be an http or https URL (got "${raw}").`);
  return raw;
};

/** `strata gateway`'s options; an unknown option or a bad value is a `UsageError` naming it. */
export function parseGatewayArgs(argv: readonly string[]): GatewayArgs {
  const out: GatewayArgs = { port: DEFAULT_PORT, manage: false, upstreams: {}, help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '' || (inline === undefined && v.startsWith('--'))) throw new UsageError(`${flag} needs a value.`);
      return v;
    };
    switch (flag) {
      case '-h':
      case '--help':
        out.help = true;
        break;
      case '--manage':
        out.manage = true;
        break;
      case '--port':
        out.port = portOf(flag, value());
        break;
      case '--context-window':
        out.contextWindow = windowOf(flag, value());
        break;
      case '--web-port':
        out.webPort = portOf(flag, value());
        break;
      case '--anthropic-upstream':
        out.upstreams.anthropic = urlOf(flag, value());
        break;
      case '--openai-upstream':
        out.upstreams.openai = urlOf(flag, value());
        break;
      case '--workspace':
        out.workspace = value();
        break;
      default:
        throw new UsageError(flag.startsWith('-') ? `Unknown option ${flag} for gateway.` : `Unexpected argument "${arg}" after "gateway".`);
    }
  }
  return out;
}

/** Runs the gateway and the control room until SIGINT/SIGTERM; prints the addresses and the client lines. */
export async function gatewayCommand(argv: readonly string[]): Promise<number> {
  const args = parseGatewayArgs(argv);
  if (args.help) {
    console.log(gatewayUsage);
    return 0;
  }
  const { host } = await serveControlRoom({
    workspace: args.workspace,
    port: args.webPort,
    gateway: { port: args.port, upstreams: args.upstreams, mode: args.manage ? 'manage' : 'observe', ...(args.contextWindow !== undefined ? { manageOptions: { contextWindow: args.contextWindow } } : {}) },
  });
  const status = await host.gateway.start({});
  console.log(`Strata gateway (${status.mode} mode): ${status.origin}`);
  console.log(`  Anthropic calls go to ${status.upstreams.anthropic}, OpenAI calls to ${status.upstreams.openai}`);
  for (const line of status.clients) console.log(`  ${line.client} (${line.where}):\n    ${line.text.split('\n').join('\n    ')}`);
  return -1;
}
