import type { Envelope, EventName, StrataBridge, StrataEvent, WireReply } from '../../engine/contract';

export type ConnectionStatus = 'connecting' | 'open' | 'closed';

export interface WsBridgeOptions {
  /** `ws://127.0.0.1:<port>/ws?token=…` */
  url: string;
  onStatus?: (status: ConnectionStatus) => void;
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
 * drop it reconnects with backoff and re-sends the current subscription.
 */
export function createWsBridge(o: WsBridgeOptions): StrataBridge & { close(): void } {
  const WS = o.WebSocketImpl ?? WebSocket;
  let socket: WebSocket | undefined;
  let nextId = 1;
  let closedByUser = false;
  let retry = o.retryMs ?? 500;
  const pending = new Map<number, Pending>();
  const queue: string[] = [];
  let subscription: { events: EventName[]; listener: (e: StrataEvent) => void } | undefined;

  const open = () => {
    o.onStatus?.('connecting');
    const ws = new WS(o.url);
    socket = ws;
    ws.onopen = () => {
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
      o.onStatus?.('closed');
      if (closedByUser) return;
      setTimeout(() => {
        if (closedByUser) return;
        open();
        if (subscription) void call('subscribe', { events: subscription.events });
      }, retry);
      retry = Math.min(retry * 2, 10_000);
    };
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
      socket?.close();
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
  }) as unknown as StrataBridge & { close(): void };
}

/** The WebSocket address of the host that served this page, with the token from its URL. */
export function wsUrlFromLocation(loc: Pick<Location, 'host' | 'search' | 'protocol'>): string {
  const token = new URLSearchParams(loc.search).get('token') ?? '';
  const scheme = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${loc.host}/ws?token=${encodeURIComponent(token)}`;
}
