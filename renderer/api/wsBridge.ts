import type { Envelope, EventName, StrataBridge, StrataEvent, TOKEN_PROTOCOL_PREFIX, WIRE_PROTOCOL, WireReply } from '../../engine/contract';

/**
 * Where the WebSocket stands: `closed` is a drop or a failed attempt (it retries); `refused` is a host
 * that answers but refused the socket, which after a host restart means this page's token is stale
 * (it does not retry with it: a new address is needed).
 */
export type ConnectionStatus = 'connecting' | 'open' | 'closed' | 'refused';

/** What comes with a status: for `closed`, when the next attempt is. */
export interface ConnectionInfo {
  retryInMs?: number;
}

export interface WsBridgeOptions {
  /** `ws://127.0.0.1:<port>/ws`, without the token. */
  url: string;
  /** The per-launch token, offered as the subprotocol `strata.token.<token>` (see `wsProtocols`). */
  token: string;
  onStatus?: (status: ConnectionStatus, info?: ConnectionInfo) => void;
  /**
   * True when the host answers plain HTTP at its address. Asked after an attempt that never opened:
   * a host that answers yet refused the socket refused its token (`refused`); without a probe every
   * failed attempt is a drop.
   */
  probe?: () => Promise<boolean>;
  /** Delay before reconnecting after a drop; doubles up to 10 s. */
  retryMs?: number;
  WebSocketImpl?: typeof WebSocket;
}

interface Pending {
  resolve: (e: Envelope<unknown>) => void;
}

const unavailable = (message: string): Envelope<never> => ({ ok: false, error: { code: 'unavailable', message } });

/**
 * The contract over the headless host's WebSocket, as a `StrataBridge`. Calls made while
 * connecting are queued; calls in flight when the socket drops resolve to `unavailable`. After a
 * drop it reconnects with backoff and re-sends the current subscription; a refused token stops it
 * until `reconnect()` (`[host-lost]`).
 */
export function createWsBridge(o: WsBridgeOptions): StrataBridge & { close(): void; reconnect(): void } {
  const WS = o.WebSocketImpl ?? WebSocket;
  let socket: WebSocket | undefined;
  let nextId = 1;
  let closedByUser = false;
  let retry = o.retryMs ?? 500;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  const pending = new Map<number, Pending>();
  const queue: string[] = [];
  let subscription: { events: EventName[]; listener: (e: StrataEvent) => void } | undefined;

  const open = () => {
    o.onStatus?.('connecting');
    const ws = new WS(o.url, wsProtocols(o.token));
    socket = ws;
    let opened = false;
    ws.onopen = () => {
      opened = true;
      retry = o.retryMs ?? 500;
      o.onStatus?.('open');
      for (const frame of queue.splice(0)) ws.send(frame);
    };
    ws.onmessage = (msg) => {
      let reply: WireReply;
      try {
        reply = JSON.parse(String(msg.data)) as WireReply;
      } catch {
        return;
      }
      if (reply.kind === 'event') {
        if (subscription?.events.includes(reply.event.name)) subscription.listener(reply.event);
      } else if (reply.id !== null) {
        pending.get(reply.id)?.resolve(reply.envelope);
        pending.delete(reply.id);
      }
    };
    ws.onclose = () => {
      // Every call not yet answered is answered now; none of them may run after a reconnect.
      for (const p of pending.values()) p.resolve(unavailable('The connection to the Strata host was lost.'));
      pending.clear();
      queue.length = 0;
      if (closedByUser) return o.onStatus?.('closed');
      if (socket !== ws) return;
      if (!opened && o.probe) {
        void o.probe().then(
          (answers) => (answers ? refused(ws) : dropped(ws)),
          () => dropped(ws),
        );
        return;
      }
      dropped(ws);
    };
  };

  const refused = (ws: WebSocket) => {
    if (closedByUser || socket !== ws) return;
    o.onStatus?.('refused');
  };

  const dropped = (ws: WebSocket) => {
    if (closedByUser || socket !== ws) return;
    o.onStatus?.('closed', { retryInMs: retry });
    retryTimer = setTimeout(again, retry);
    retry = Math.min(retry * 2, 10_000);
  };

  const again = () => {
    retryTimer = undefined;
    if (closedByUser) return;
    open();
    if (subscription) void call('subscribe', { events: subscription.events });
  };

  const call = (command: string, args: unknown): Promise<Envelope<unknown>> =>
    new Promise((resolve) => {
      if (closedByUser) return resolve(unavailable('The connection to the Strata host is closed.'));
      const id = nextId++;
      pending.set(id, { resolve });
      const frame = JSON.stringify({ id, command, args });
      if (socket?.readyState === WS.OPEN) socket.send(frame);
      else queue.push(frame);
    });

  open();

  const bridge: Record<string, unknown> = {
    close() {
      closedByUser = true;
      clearTimeout(retryTimer);
      socket?.close();
    },
    /** Try now (after a refusal, or instead of waiting for the next attempt); nothing while open or connecting. */
    reconnect() {
      if (closedByUser || socket?.readyState === WS.OPEN || socket?.readyState === WS.CONNECTING) return;
      clearTimeout(retryTimer);
      retry = o.retryMs ?? 500;
      again();
    },
    async subscribe(events: EventName[], listener: (e: StrataEvent) => void) {
      const envelope = await call('subscribe', { events });
      subscription = envelope.ok && events.length > 0 ? { events, listener } : undefined;
      return envelope;
    },
  };
  return new Proxy(bridge, {
    get(target, name) {
      if (typeof name !== 'string') return undefined;
      if (name in target) return target[name];
      // `then` must stay undefined or the bridge would look like a promise.
      if (name === 'then') return undefined;
      return (args: unknown) => call(name, args);
    },
  }) as unknown as StrataBridge & { close(): void; reconnect(): void };
}

// The contract's values, restated: the renderer imports only types from it, and these types
// make the build fail if the two ever differ.
const WIRE: typeof WIRE_PROTOCOL = 'strata.v1';
const TOKEN_PREFIX: typeof TOKEN_PROTOCOL_PREFIX = 'strata.token.';
/** What a subprotocol may carry (an HTTP token; `new WebSocket` throws on anything else). */
const SUBPROTOCOL_SAFE = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;

/**
 * The subprotocols that present `token`: the wire protocol and `strata.token.<token>`. The token
 * never goes in the URL, since a browser prints a failed WebSocket's URL in its console; without a
 * token only the wire protocol is offered and the host refuses the connection.
 */
export function wsProtocols(token: string): string[] {
  return token.length > 0 ? [WIRE, `${TOKEN_PREFIX}${token}`] : [WIRE];
}

/** The WebSocket address of the host that served this page; the token is not in it. */
export function wsUrlFromLocation(loc: Pick<Location, 'host' | 'search' | 'protocol'>): string {
  const scheme = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${loc.host}/ws`;
}

/** The per-launch token of this page's address (`?token=…`), or '' when there is none a subprotocol can carry. */
export function wsTokenFromLocation(loc: Pick<Location, 'search'>): string {
  const token = new URLSearchParams(loc.search).get('token') ?? '';
  return SUBPROTOCOL_SAFE.test(token) ? token : '';
}
