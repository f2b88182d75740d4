import {
  type CallableCommand,
  commandChannel,
  commandNames,
  type Envelope,
  eventChannel,
  type EventName,
  type StrataBridge,
  type StrataEvent,
} from '../../engine/contract';

/** The part of Electron's ipcRenderer the preload uses (structural, so tests need no Electron). */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

/**
 * Build `window.strata`: one method per contract command, each bound to that command's own
 * channel (no generic send), plus `subscribe`. Only plain data and functions cross the bridge.
 */
export function createPreloadApi(ipc: IpcRendererLike): StrataBridge {
  const api: Record<string, unknown> = {};
  for (const name of commandNames) {
    if (name === 'subscribe') continue;
    api[name] = (args: unknown) => ipc.invoke(commandChannel(name as CallableCommand), args) as Promise<Envelope<unknown>>;
  }

  let current: ((event: unknown, ...args: unknown[]) => void) | undefined;
  // The host applies subscribe calls in the order they are issued, so the last call issued wins:
  // an older call that resolves later must not install its listener.
  let latest = 0;
  api.subscribe = async (events: EventName[], listener: (event: StrataEvent) => void) => {
    const mine = ++latest;
    if (current) ipc.removeListener(eventChannel, current);
    current = undefined;
    const wanted = new Set(events);
    const envelope = (await ipc.invoke(commandChannel('subscribe'), { events })) as Envelope<{ events: EventName[] }>;
    if (mine === latest && envelope.ok && wanted.size > 0) {
      current = (_event, payload) => {
        const ev = payload as StrataEvent;
        if (wanted.has(ev.name)) listener(ev);
      };
      ipc.on(eventChannel, current);
    }
    return envelope;
  };
  return api as StrataBridge;
}
