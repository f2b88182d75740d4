import { describe, expect, it } from 'vitest';
import { createPreloadApi, type IpcRendererLike } from '../../../electron/preload/createPreloadApi';
import {
  type CallableCommand,
  commandChannel,
  commandNames,
  type Envelope,
  eventChannel,
  type StrataBridge,
  type StrataEvent,
} from '../../../engine/contract';

type Listener = (event: unknown, ...args: unknown[]) => void;

/** ipcRenderer as the preload sees it: records invokes, holds listeners per channel. */
class FakeIpcRenderer implements IpcRendererLike {
  readonly invoked: { channel: string; args: unknown[] }[] = [];
  readonly removed: { channel: string; listener: Listener }[] = [];
  private readonly listeners = new Map<string, Listener[]>();
  /** What the next invokes answer; by default an ok envelope echoing the call. */
  reply: (channel: string, args: unknown[]) => Promise<unknown> = async (channel, args) => ({ ok: true, value: { channel, args } });

  invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    this.invoked.push({ channel, args });
    return this.reply(channel, args);
  }
  on(channel: string, listener: Listener): this {
    this.listeners.set(channel, [...(this.listeners.get(channel) ?? []), listener]);
    return this;
  }
  removeListener(channel: string, listener: Listener): this {
    this.removed.push({ channel, listener });
    this.listeners.set(channel, (this.listeners.get(channel) ?? []).filter((l) => l !== listener));
    return this;
  }
  listenersOn(channel: string): readonly Listener[] {
    return this.listeners.get(channel) ?? [];
  }
  /** Deliver a message from main, as `webContents.send(channel, payload)` would. */
  emit(channel: string, payload: unknown): void {
    for (const l of this.listenersOn(channel)) l({ sender: 'ipc-event' }, payload);
  }
}

const logEvent: StrataEvent = {
  name: 'log',
  payload: { entry: { seq: 1, at: '2025-01-01T00:00:00.000Z', level: 'info', agentId: null, message: 'hi' } },
};
const agentEvent = {
  name: 'agent.updated',
  payload: { agent: { agentId: 'primary' } },
} as unknown as StrataEvent;

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

const callable = commandNames.filter((n): n is CallableCommand => n !== 'subscribe');

describe('createPreloadApi', () => {
  it('exposes exactly one function per contract command and nothing else', () => {
    const api = createPreloadApi(new FakeIpcRenderer());
    expect(Object.keys(api).sort()).toEqual([...commandNames].sort());
    for (const name of commandNames) expect(typeof api[name]).toBe('function');
    expect(api).not.toHaveProperty('send');
    expect(api).not.toHaveProperty('invoke');
  });

  it('registers no event listener until subscribe is called', () => {
    const ipc = new FakeIpcRenderer();
    createPreloadApi(ipc);
    expect(ipc.listenersOn(eventChannel)).toHaveLength(0);
    expect(ipc.invoked).toEqual([]);
  });

  it.each(callable.map((n) => [n]))('%s invokes its own channel with the args', async (name) => {
    const ipc = new FakeIpcRenderer();
    const api = createPreloadApi(ipc);
    const args = { marker: name };
    const method = api[name] as (a: unknown) => Promise<Envelope<unknown>>;
    await method(args);
    expect(ipc.invoked).toEqual([{ channel: commandChannel(name), args: [args] }]);
  });

  it.each(callable.map((n) => [n]))('%s returns the envelope from main unchanged (ok and error alike)', async (name) => {
    const ipc = new FakeIpcRenderer();
    const ok = { ok: true, value: { anything: [1, 2, 3] } };
    const failed = { ok: false, error: { code: 'invalid_args', message: 'bad', issues: [{ path: 'agentId', message: 'x' }] } };
    const api = createPreloadApi(ipc);
    const method = api[name] as (a: unknown) => Promise<Envelope<unknown>>;
    ipc.reply = async () => ok;
    expect(await method({})).toBe(ok);
    ipc.reply = async () => failed;
    expect(await method({})).toBe(failed);
  });

  it('subscribe invokes the subscribe channel with { events } and returns its envelope', async () => {
    const ipc = new FakeIpcRenderer();
    const answer = { ok: true, value: { events: ['log'] } };
    ipc.reply = async () => answer;
    const api = createPreloadApi(ipc);
    expect(await api.subscribe(['log'], () => {})).toBe(answer);
    expect(ipc.invoked).toEqual([{ channel: commandChannel('subscribe'), args: [{ events: ['log'] }] }]);
  });

  it('subscribe registers one listener on the event channel that passes only subscribed events', async () => {
    const ipc = new FakeIpcRenderer();
    const api = createPreloadApi(ipc);
    const got: StrataEvent[] = [];
    await api.subscribe(['log'], (e) => got.push(e));
    expect(ipc.listenersOn(eventChannel)).toHaveLength(1);
    expect(ipc.listenersOn('strata:other')).toHaveLength(0);

    ipc.emit(eventChannel, agentEvent);
    ipc.emit(eventChannel, logEvent);
    expect(got).toEqual([logEvent]);
    // The listener gets the payload only, never Electron's IpcRendererEvent.
    expect(got[0]).toBe(logEvent);
  });

  it('a second subscribe replaces the first listener', async () => {
    const ipc = new FakeIpcRenderer();
    const api = createPreloadApi(ipc);
    const first: StrataEvent[] = [];
    const second: StrataEvent[] = [];
    await api.subscribe(['log'], (e) => first.push(e));
    const firstListener = ipc.listenersOn(eventChannel)[0];
    await api.subscribe(['log', 'agent.updated'], (e) => second.push(e));

    expect(ipc.removed).toEqual([{ channel: eventChannel, listener: firstListener }]);
    expect(ipc.listenersOn(eventChannel)).toHaveLength(1);
    ipc.emit(eventChannel, logEvent);
    ipc.emit(eventChannel, agentEvent);
    expect(first).toEqual([]);
    expect(second).toEqual([logEvent, agentEvent]);
  });

  it('subscribe([]) unsubscribes: no listener is left', async () => {
    const ipc = new FakeIpcRenderer();
    const api = createPreloadApi(ipc);
    const got: StrataEvent[] = [];
    await api.subscribe(['log'], (e) => got.push(e));
    const envelope = await api.subscribe([], () => {});
    expect(envelope.ok).toBe(true);
    expect(ipc.invoked.at(-1)).toEqual({ channel: commandChannel('subscribe'), args: [{ events: [] }] });
    expect(ipc.listenersOn(eventChannel)).toHaveLength(0);
    ipc.emit(eventChannel, logEvent);
    expect(got).toEqual([]);
  });

  it('subscribe([]) as the first call registers no listener', async () => {
    const ipc = new FakeIpcRenderer();
    await createPreloadApi(ipc).subscribe([], () => {});
    expect(ipc.listenersOn(eventChannel)).toHaveLength(0);
  });

  it('a failed subscribe leaves no listener and returns the error envelope', async () => {
    const ipc = new FakeIpcRenderer();
    const api = createPreloadApi(ipc);
    const got: StrataEvent[] = [];
    await api.subscribe(['log'], (e) => got.push(e));
    const failed = { ok: false, error: { code: 'forbidden', message: 'no' } };
    ipc.reply = async () => failed;
    expect(await api.subscribe(['log'], (e) => got.push(e))).toBe(failed);
    expect(ipc.listenersOn(eventChannel)).toHaveLength(0);
    ipc.emit(eventChannel, logEvent);
    expect(got).toEqual([]);
  });

  it('a failed first subscribe registers no listener', async () => {
    const ipc = new FakeIpcRenderer();
    ipc.reply = async () => ({ ok: false, error: { code: 'invalid_args', message: 'bad' } });
    await createPreloadApi(ipc).subscribe(['log'], () => {});
    expect(ipc.listenersOn(eventChannel)).toHaveLength(0);
  });

  it('two bridges keep separate subscriptions', async () => {
    const ipc = new FakeIpcRenderer();
    const a: StrataBridge = createPreloadApi(ipc);
    const b: StrataBridge = createPreloadApi(ipc);
    await a.subscribe(['log'], () => {});
    await b.subscribe(['agent.updated'], () => {});
    await a.subscribe([], () => {});
    expect(ipc.listenersOn(eventChannel)).toHaveLength(1);
  });

  // [bug] The previous listener is removed before the await and the new one added after it, so two
  // overlapping subscribe calls both add a listener and the first is never removed.
  it('overlapping subscribe calls leave only the last listener active', async () => {
    const ipc = new FakeIpcRenderer();
    const replies = [deferred<unknown>(), deferred<unknown>()];
    let n = 0;
    ipc.reply = () => (replies[n++] as { promise: Promise<unknown> }).promise;
    const api = createPreloadApi(ipc);
    const first: StrataEvent[] = [];
    const second: StrataEvent[] = [];

    const p1 = api.subscribe(['log'], (e) => first.push(e));
    const p2 = api.subscribe(['log'], (e) => second.push(e));
    replies[0]?.resolve({ ok: true, value: { events: ['log'] } });
    replies[1]?.resolve({ ok: true, value: { events: ['log'] } });
    await Promise.all([p1, p2]);

    ipc.emit(eventChannel, logEvent);
    expect(ipc.listenersOn(eventChannel)).toHaveLength(1);
    expect(first).toEqual([]);
    expect(second).toEqual([logEvent]);
  });

  // [bug] Same race: subscribe([]) issued while an earlier subscribe is in flight does not unsubscribe.
  it('subscribe([]) issued while a subscribe is in flight still leaves no listener', async () => {
    const ipc = new FakeIpcRenderer();
    const replies = [deferred<unknown>(), deferred<unknown>()];
    let n = 0;
    ipc.reply = () => (replies[n++] as { promise: Promise<unknown> }).promise;
    const api = createPreloadApi(ipc);
    const got: StrataEvent[] = [];

    const p1 = api.subscribe(['log'], (e) => got.push(e));
    const p2 = api.subscribe([], () => {});
    replies[0]?.resolve({ ok: true, value: { events: ['log'] } });
    replies[1]?.resolve({ ok: true, value: { events: [] } });
    await Promise.all([p1, p2]);

    ipc.emit(eventChannel, logEvent);
    expect(ipc.listenersOn(eventChannel)).toHaveLength(0);
    expect(got).toEqual([]);
  });
});
