import type { GatewayCallUpdate } from '../gateway/CallExchange';
import type { UnobservedRequest } from '../gateway/observeHandler';
import type { GatewayMode, GatewayProvider } from '../gateway/types';
import { startGatewayServer } from '../node/gateway/startGatewayServer';
import { sequentialIds } from '../ports/IdSource';
import { memoTokenizer } from '../tokens/memoTokenizer';
import type { Tokenizer } from '../tokens/Tokenizer';
import { GatewayBook, type SessionEntry } from './GatewayBook';
import { createModeHandler, type ManagedRequest, type ManageSettings, type ModeHandler, type RefusedRequest } from './gatewayHandler';

export interface StartGatewayOptions {
  /** Port on 127.0.0.1 (0 or absent: any free one). */
  port?: number;
  /** Base URL per provider (absent: the real providers). */
  upstreams?: Partial<Record<GatewayProvider, string>>;
  /** The mode of every new session (switchable per session through `handler.setMode`). */
  mode: GatewayMode;
  manageOptions?: ManageSettings;
  onCall?: (update: GatewayCallUpdate) => void;
  onUnobserved?: (request: UnobservedRequest) => void;
  onManaged?: (request: ManagedRequest) => void;
  onRefused?: (request: RefusedRequest) => void;
  /** Counts manage mode's tokens (default o200k, memoised). */
  tokenizer?: Tokenizer;
  maxBodyBytes?: number;
}

export interface RunningGateway {
  /** `http://127.0.0.1:<port>` (`ANTHROPIC_BASE_URL`; `<origin>/v1` for OpenAI's clients). */
  origin: string;
  port: number;
  close(): Promise<void>;
  /** Sessions → threads → their newest calls and totals, as recorded so far. */
  sessions(): SessionEntry[];
  /** The original and rewritten request of a managed call, while kept. */
  request(callId: string): { original: string; rewritten?: string } | undefined;
  readonly handler: ModeHandler;
  readonly book: GatewayBook;
}

/**
 * The whole gateway without a Host (`[gateway-host-start]`): the server on 127.0.0.1 with the mode
 * handler (observe or manage, per session) and a book of what it saw. Tests of real clients and the
 * host's Gateway service both start it this way. Bad options reject before anything listens.
 */
export async function startGateway(options: StartGatewayOptions): Promise<RunningGateway> {
  if (options.mode !== 'observe' && options.mode !== 'manage') throw new Error(`gateway: mode must be "observe" or "manage" (got ${JSON.stringify(options.mode)})`);
  const book = new GatewayBook(() => Date.now());
  const decoder = new TextDecoder();
  const handler = createModeHandler({
    ids: sequentialIds(),
    defaultMode: options.mode,
    tokenizer: options.tokenizer ?? memoTokenizer('o200k_base'),
    ...(options.manageOptions ? { manage: options.manageOptions } : {}),
    decodeUtf8: (bytes) => decoder.decode(bytes),
    onCall: (u) => {
      book.record(u);
      options.onCall?.(u);
    },
    onManaged: (r) => {
      book.keepRequest(r);
      options.onManaged?.(r);
    },
    ...(options.onUnobserved ? { onUnobserved: options.onUnobserved } : {}),
    ...(options.onRefused ? { onRefused: options.onRefused } : {}),
  });
  const server = await startGatewayServer({
    handler,
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.upstreams ? { upstreams: options.upstreams } : {}),
    ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
  });
  return { origin: server.origin, port: server.port, close: () => server.close(), sessions: () => book.sessions(), request: (id) => book.request(id), handler, book };
}
