import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type HostLike,
  type InvokeEventLike,
  type IpcMainLike,
  registerIpc,
  type SenderLike,
} from '../../../electron/main/ipcAdapter';
import { isTrustedRendererUrl } from '../../../electron/main/rendererProtocol';
import { commandChannel, commandNames, type Envelope, eventChannel, type StrataEvent } from '../../../engine/contract';
import { Host, type HostConnection } from '../../../engine/host';
import type { ClientSession } from '../../../engine/host';
import { manualClock } from '../../../engine/ports/Clock';

type Handler = (event: InvokeEventLike, ...args: unknown[]) => unknown;

/** ipcMain as the adapter sees it; refuses a second handler on a channel, as Electron does. */
class FakeIpcMain implements IpcMainLike {
  readonly handlers = new Map<string, Handler>();
  handle(channel: string, listener: Handler): void {
    if (this.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  /** Invoke a channel as a renderer would: `ipcRenderer.invoke(channel, args)`. */
  async invoke(channel: string, event: InvokeEventLike, args?: unknown): Promise<unknown> {
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    return handler(event, args);
  }
}

class FakeSender implements SenderLike {
  readonly sent: { channel: string; args: unknown[] }[] = [];
  destroyed = false;
  private readonly destroyedListeners: (() => void)[] = [];
  constructor(readonly id: number) {}
  send(channel: string, ...args: unknown[]): void {
    if (this.destroyed) throw new Error('Object has been destroyed');
    this.sent.push({ channel, args });
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  once(event: 'destroyed', listener: () => void): this {
    expect(event).toBe('destroyed');
    this.destroyedListeners.push(listener);
    return this;
  }
  listenerCount(): number {
    return this.destroyedListeners.length;
  }
  destroy(): void {
    this.destroyed = true;
    for (const l of this.destroyedListeners.splice(0)) l();
  }
}

interface FakeConnection extends HostConnection {
  readonly calls: { name: unknown; args: unknown }[];
  closes: number;
  deliver: (event: StrataEvent) => void;
}

/** A host whose connections record their calls and answer `{ ok: true, value: { name, args, conn } }`. */
class FakeHost implements HostLike {
  readonly connections: FakeConnection[] = [];
  connect(deliver: (event: StrataEvent) => void): HostConnection {
    const index = this.connections.length;
    const conn: FakeConnection = {
      session: { id: index + 1 } as ClientSession,
      calls: [],
      closes: 0,
      deliver,
      call: async (name, args) => {
        conn.calls.push({ name, args });
        return { ok: true, value: { name, args, conn: index } };
      },
      close: () => {
        conn.closes += 1;
      },
    };
    this.connections.push(conn);
    return conn;
  }
}

const TRUSTED = 'app://strata/index.html';
const eventFrom = (sender: SenderLike, url: string | null = TRUSTED): InvokeEventLike => ({
  sender,
  senderFrame: url === null ? null : { url },
});
const agentEvent: StrataEvent = {
  name: 'log',
  payload: { entry: { seq: 1, at: '2025-01-01T00:00:00.000Z', level: 'info', agentId: null, message: 'hello' } },
};

describe('registerIpc with a fake host', () => {
  let ipc: FakeIpcMain;
  let host: FakeHost;
  let unregister: () => void;

  beforeEach(() => {
    ipc = new FakeIpcMain();
    host = new FakeHost();
    unregister = registerIpc(ipc, host, isTrustedRendererUrl);
  });

  it('registers exactly one handler per contract command, on its own channel', () => {
    expect([...ipc.handlers.keys()].sort()).toEqual(commandNames.map((n) => commandChannel(n)).sort());
    expect(ipc.handlers.size).toBe(commandNames.length);
    expect(ipc.handlers.has(eventChannel)).toBe(false);
  });

  it.each([['app://evil/index.html'], ['file:///index.html'], ['http://127.0.0.1:5173/'], ['']])(
    'answers a call from the untrusted frame %j with forbidden and opens no connection',
    async (url) => {
      const sender = new FakeSender(1);
      const reply = (await ipc.invoke(commandChannel('health'), eventFrom(sender, url), {})) as Envelope<unknown>;
      expect(reply.ok).toBe(false);
      expect(!reply.ok && reply.error.code).toBe('forbidden');
      if (url) expect(!reply.ok && reply.error.message).toContain(url);
      expect(host.connections).toHaveLength(0);
      expect(sender.listenerCount()).toBe(0);
    },
  );

  it('answers a call with no sender frame with forbidden and opens no connection', async () => {
    const sender = new FakeSender(1);
    for (const name of commandNames) {
      const reply = (await ipc.invoke(commandChannel(name), eventFrom(sender, null), {})) as Envelope<unknown>;
      expect(reply).toEqual({ ok: false, error: { code: 'forbidden', message: expect.stringContaining('no frame') } });
    }
    expect(host.connections).toHaveLength(0);
  });

  it('uses the trust predicate it was given', async () => {
    const ipc2 = new FakeIpcMain();
    const host2 = new FakeHost();
    const seen: string[] = [];
    registerIpc(ipc2, host2, (url) => {
      seen.push(url);
      return url === 'custom://ok';
    });
    const sender = new FakeSender(1);
    expect(await ipc2.invoke(commandChannel('health'), eventFrom(sender, TRUSTED), {})).toMatchObject({ ok: false });
    expect(await ipc2.invoke(commandChannel('health'), eventFrom(sender, 'custom://ok'), {})).toMatchObject({ ok: true });
    expect(seen).toEqual([TRUSTED, 'custom://ok']);
  });

  it('dispatches a trusted call under its own command name and returns the host envelope', async () => {
    const sender = new FakeSender(1);
    for (const name of commandNames) {
      const args = { probe: name };
      const reply = await ipc.invoke(commandChannel(name), eventFrom(sender), args);
      expect(reply).toEqual({ ok: true, value: { name, args, conn: 0 } });
    }
    expect(host.connections).toHaveLength(1);
    expect(host.connections[0]?.calls.map((c) => c.name)).toEqual(commandNames);
  });

  it('opens one connection per sender and reuses it for that sender', async () => {
    const a = new FakeSender(10);
    const b = new FakeSender(20);
    await ipc.invoke(commandChannel('health'), eventFrom(a), {});
    await ipc.invoke(commandChannel('listAgents'), eventFrom(a), {});
    await ipc.invoke(commandChannel('health'), eventFrom(b), {});
    await ipc.invoke(commandChannel('getAgent'), eventFrom(a), { agentId: 'x' });
    expect(host.connections).toHaveLength(2);
    expect(host.connections[0]?.calls.map((c) => c.name)).toEqual(['health', 'listAgents', 'getAgent']);
    expect(host.connections[1]?.calls.map((c) => c.name)).toEqual(['health']);
    expect(a.listenerCount()).toBe(1);
    expect(b.listenerCount()).toBe(1);
  });

  it("closes a sender's connection when it is destroyed, and opens a fresh one for a new sender with the next call", async () => {
    const a = new FakeSender(1);
    const b = new FakeSender(2);
    await ipc.invoke(commandChannel('health'), eventFrom(a), {});
    await ipc.invoke(commandChannel('health'), eventFrom(b), {});
    a.destroy();
    expect(host.connections[0]?.closes).toBe(1);
    expect(host.connections[1]?.closes).toBe(0);

    const a2 = new FakeSender(1);
    const reply = await ipc.invoke(commandChannel('health'), eventFrom(a2), {});
    expect(reply).toMatchObject({ ok: true, value: { conn: 2 } });
    expect(host.connections).toHaveLength(3);
  });

  it('sends host events to the sender on the event channel, and stops once the sender is destroyed', async () => {
    const sender = new FakeSender(1);
    await ipc.invoke(commandChannel('subscribe'), eventFrom(sender), { events: ['log'] });
    const conn = host.connections[0];
    expect(conn).toBeDefined();
    conn?.deliver(agentEvent);
    expect(sender.sent).toEqual([{ channel: eventChannel, args: [agentEvent] }]);

    sender.destroyed = true; // destroyed, but the 'destroyed' event has not fired yet
    expect(() => conn?.deliver(agentEvent)).not.toThrow();
    expect(sender.sent).toHaveLength(1);
  });

  it('sends each sender only the events of its own connection', async () => {
    const a = new FakeSender(1);
    const b = new FakeSender(2);
    await ipc.invoke(commandChannel('health'), eventFrom(a), {});
    await ipc.invoke(commandChannel('health'), eventFrom(b), {});
    host.connections[1]?.deliver(agentEvent);
    expect(a.sent).toEqual([]);
    expect(b.sent).toEqual([{ channel: eventChannel, args: [agentEvent] }]);
  });

  it('unregister removes every channel and closes the open connections', async () => {
    const a = new FakeSender(1);
    const b = new FakeSender(2);
    await ipc.invoke(commandChannel('health'), eventFrom(a), {});
    await ipc.invoke(commandChannel('health'), eventFrom(b), {});
    unregister();
    expect(ipc.handlers.size).toBe(0);
    expect(host.connections.map((c) => c.closes)).toEqual([1, 1]);
    await expect(ipc.invoke(commandChannel('health'), eventFrom(a), {})).rejects.toThrow(/No handler/);
    // The adapter can be registered again on the same ipcMain (no channel left behind).
    expect(() => registerIpc(ipc, host, isTrustedRendererUrl)).not.toThrow();
    expect(ipc.handlers.size).toBe(commandNames.length);
  });
});

describe('registerIpc over the real Host', () => {
  const demoDir = resolve(fileURLToPath(new URL('../../../resources/demo', import.meta.url)));
  let dir: string;
  let host: Host;
  let ipc: FakeIpcMain;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'strata-ipc-'));
    host = Host.open({
      catalogPath: join(dir, 'catalog.sqlite'),
      workspaceName: 't',
      version: '0.0.0',
      demoDir,
      demoTickMs: 0,
      clock: manualClock(Date.UTC(2025, 0, 1)),
    });
    ipc = new FakeIpcMain();
    registerIpc(ipc, host, isTrustedRendererUrl);
  });

  afterEach(() => {
    host.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers health from the host', async () => {
    const reply = await ipc.invoke(commandChannel('health'), eventFrom(new FakeSender(1)), {});
    expect(reply).toMatchObject({ ok: true, value: { ok: true, version: '0.0.0', workspace: { name: 't' } } });
  });

  it("returns the host's invalid_args and not_found envelopes unchanged", async () => {
    const sender = new FakeSender(1);
    const bad = await ipc.invoke(commandChannel('getAgent'), eventFrom(sender), { agentId: '' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_args' } });
    const missing = await ipc.invoke(commandChannel('getAgent'), eventFrom(sender), { agentId: 'nobody' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('refuses an untrusted frame before the host validates anything', async () => {
    const reply = await ipc.invoke(commandChannel('getAgent'), eventFrom(new FakeSender(1), 'https://evil.example/'), { agentId: '' });
    expect(reply).toMatchObject({ ok: false, error: { code: 'forbidden' } });
  });

  it('delivers subscribed host events to the window, and none after it is destroyed', async () => {
    const sender = new FakeSender(1);
    const other = new FakeSender(2);
    await ipc.invoke(commandChannel('subscribe'), eventFrom(sender), { events: ['log'] });
    await ipc.invoke(commandChannel('health'), eventFrom(other), {});
    await host.stepDemo();
    expect(sender.sent.length).toBeGreaterThan(0);
    expect(sender.sent.every((m) => m.channel === eventChannel && (m.args[0] as StrataEvent).name === 'log')).toBe(true);
    expect(other.sent).toEqual([]);

    const before = sender.sent.length;
    sender.destroy();
    await host.stepDemo();
    expect(sender.sent).toHaveLength(before);
  });
});
