import { commandChannel, commandNames, type Envelope, eventChannel, type StrataEvent } from '../../engine/contract';
import type { HostConnection } from '../../engine/host';

/** The part of a WebContents the adapter uses (structural, so tests need no Electron). */
export interface SenderLike {
  readonly id: number;
  send(channel: string, ...args: unknown[]): void;
  isDestroyed(): boolean;
  once(event: 'destroyed', listener: () => void): unknown;
}

export interface InvokeEventLike {
  readonly sender: SenderLike;
  readonly senderFrame: { readonly url: string } | null;
}

export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEventLike, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

export interface HostLike {
  connect(deliver: (event: StrataEvent) => void): HostConnection;
}

const forbidden = (url: string | undefined): Envelope<never> => ({
  ok: false,
  error: { code: 'forbidden', message: `Refused a Strata call from an untrusted frame (${url || 'no frame'}).` },
});

/**
 * Register every contract command on its own IPC channel. Each call is checked against the sender
 * frame (only Strata's own renderer may call), then validated and run by the host's dispatcher,
 * which answers with an envelope. One host connection per WebContents carries its event
 * subscription and is closed when the WebContents is destroyed. Returns an unregister function.
 */
export function registerIpc(ipcMain: IpcMainLike, host: HostLike, isTrustedUrl: (url: string) => boolean): () => void {
  const connections = new Map<number, HostConnection>();

  const connectionFor = (sender: SenderLike): HostConnection => {
    let conn = connections.get(sender.id);
    if (!conn) {
      const created = host.connect((event) => {
        if (!sender.isDestroyed()) sender.send(eventChannel, event);
      });
      connections.set(sender.id, created);
      sender.once('destroyed', () => {
        created.close();
        connections.delete(sender.id);
      });
      conn = created;
    }
    return conn;
  };

  for (const name of commandNames) {
    ipcMain.handle(commandChannel(name), (event, args) => {
      const url = event.senderFrame?.url;
      if (!url || !isTrustedUrl(url)) return forbidden(url);
      return connectionFor(event.sender).call(name, args);
    });
  }

  return () => {
    for (const name of commandNames) ipcMain.removeHandler(commandChannel(name));
    for (const conn of connections.values()) conn.close();
    connections.clear();
  };
}
