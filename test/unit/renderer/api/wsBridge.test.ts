import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOKEN_PROTOCOL_PREFIX, WIRE_PROTOCOL, wirePath, type StrataEvent } from '../../../../engine/contract';
import { createWsBridge, wsProtocols, wsTokenFromLocation, wsUrlFromLocation, type ConnectionStatus } from '../../../../renderer/api/wsBridge';
import { logEvent, makeAgent, makeLogEntry, agentUpdated } from '../fixtures';
import { fakeWebSocketClass, type FakeSocket } from './FakeWebSocket';

const URL_ = 'ws://127.0.0.1:4000/ws';
const TOKEN = '5ec2e7';

function setup(retryMs = 100) {
  const { WebSocketImpl, sockets } = fakeWebSocketClass();
  const statuses: ConnectionStatus[] = [];
  const bridge = createWsBridge({ url: URL_, token: TOKEN, WebSocketImpl, retryMs, onStatus: (s) => statuses.push(s) });
  const socket = (i: number): FakeSocket => {
    const s = sockets[i];
    if (!s) throw new Error(`no socket #${i} (have ${sockets.length})`);
    return s;
  };
  return { bridge, sockets, socket, statuses };
}

/** Subscribe and confirm it, as the host would. */
async function subscribed(t: ReturnType<typeof setup>, events: StrataEvent['name'][], listener: (e: StrataEvent) => void) {
  const done = t.bridge.subscribe(events, listener);
  const call = t.socket(0).calls.at(-1);
  t.socket(0).reply(call?.id ?? -1, { ok: true, value: { events } });
  await done;
}

describe('createWsBridge', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('connects to the url and reports connecting, then open', () => {
    const t = setup();
    expect(t.sockets.map((s) => s.url)).toEqual([URL_]);
    expect(t.statuses).toEqual(['connecting']);
    t.socket(0).accept();
    expect(t.statuses).toEqual(['connecting', 'open']);
  });

  it('queues calls made before open and sends them, in order, on open', async () => {
    const t = setup();
    const health = t.bridge.health({});
    const agent = t.bridge.getAgent({ agentId: 'a' });
    expect(t.socket(0).calls).toEqual([]);
    t.socket(0).accept();
    expect(t.socket(0).calls).toEqual([
      { id: 1, command: 'health', args: {} },
      { id: 2, command: 'getAgent', args: { agentId: 'a' } },
    ]);
    t.socket(0).reply(1, { ok: true, value: 'health-value' });
    t.socket(0).reply(2, { ok: true, value: 'agent-value' });
    await expect(health).resolves.toEqual({ ok: true, value: 'health-value' });
    await expect(agent).resolves.toEqual({ ok: true, value: 'agent-value' });
  });

  it('sends at once when already open', () => {
    const t = setup();
    t.socket(0).accept();
    void t.bridge.listAgents({});
    expect(t.socket(0).calls).toEqual([{ id: 1, command: 'listAgents', args: {} }]);
  });

  it('matches replies to calls by id, whatever the reply order', async () => {
    const t = setup();
    t.socket(0).accept();
    const first = t.bridge.getAgent({ agentId: 'first' });
    const second = t.bridge.getAgent({ agentId: 'second' });
    const [a, b] = t.socket(0).calls;
    t.socket(0).reply(b?.id ?? -1, { ok: true, value: 'for second' });
    t.socket(0).reply(a?.id ?? -1, { ok: false, error: { code: 'not_found', message: 'No agent first.' } });
    await expect(second).resolves.toEqual({ ok: true, value: 'for second' });
    await expect(first).resolves.toEqual({ ok: false, error: { code: 'not_found', message: 'No agent first.' } });
  });

  it('ignores unparseable frames and replies with id null', async () => {
    const t = setup();
    t.socket(0).accept();
    const health = t.bridge.health({});
    t.socket(0).raw('{not json');
    t.socket(0).reply(null, { ok: false, error: { code: 'not_found', message: 'bad frame' } });
    t.socket(0).reply(1, { ok: true, value: 'fine' });
    await expect(health).resolves.toEqual({ ok: true, value: 'fine' });
  });

  it('calls in flight when the socket closes resolve to an unavailable envelope', async () => {
    const t = setup();
    t.socket(0).accept();
    const inFlight = [t.bridge.health({}), t.bridge.listAgents({})];
    t.socket(0).drop();
    for (const envelope of await Promise.all(inFlight)) {
      expect(envelope).toEqual({ ok: false, error: { code: 'unavailable', message: expect.stringMatching(/lost/) } });
    }
    expect(t.statuses.at(-1)).toBe('closed');
  });

  it('delivers events only for subscribed names', async () => {
    const t = setup();
    t.socket(0).accept();
    const listener = vi.fn();
    await subscribed(t, ['log'], listener);
    expect(t.socket(0).calls[0]).toEqual({ id: 1, command: 'subscribe', args: { events: ['log'] } });
    const line = logEvent(makeLogEntry(1));
    t.socket(0).push(agentUpdated(makeAgent('a')));
    t.socket(0).push(line);
    expect(listener.mock.calls).toEqual([[line]]);
  });

  it('delivers nothing before a subscription is confirmed, or when it was refused', async () => {
    const t = setup();
    t.socket(0).accept();
    const listener = vi.fn();
    const refused = t.bridge.subscribe(['log'], listener);
    t.socket(0).push(logEvent(makeLogEntry(1)));
    t.socket(0).reply(1, { ok: false, error: { code: 'not_found', message: 'no' } });
    await refused;
    t.socket(0).push(logEvent(makeLogEntry(2)));
    expect(listener).not.toHaveBeenCalled();
  });

  it('subscribe([]) stops delivery', async () => {
    const t = setup();
    t.socket(0).accept();
    const listener = vi.fn();
    await subscribed(t, ['log', 'agent.updated'], listener);
    await subscribed(t, [], listener);
    expect(t.socket(0).calls.at(-1)).toMatchObject({ command: 'subscribe', args: { events: [] } });
    t.socket(0).push(logEvent(makeLogEntry(1)));
    expect(listener).not.toHaveBeenCalled();
  });

  it('a new subscription replaces the listener and the names', async () => {
    const t = setup();
    t.socket(0).accept();
    const old = vi.fn();
    const current = vi.fn();
    await subscribed(t, ['log'], old);
    await subscribed(t, ['agent.updated'], current);
    const update = agentUpdated(makeAgent('a'));
    t.socket(0).push(logEvent(makeLogEntry(1)));
    t.socket(0).push(update);
    expect(old).not.toHaveBeenCalled();
    expect(current.mock.calls).toEqual([[update]]);
  });

  describe('after a drop', () => {
    beforeEach(() => {
      vi.useFakeTimers();
    });

    it('reconnects after retryMs and re-sends the subscription', async () => {
      const t = setup(100);
      t.socket(0).accept();
      const listener = vi.fn();
      await subscribed(t, ['log'], listener);
      t.socket(0).drop();

      vi.advanceTimersByTime(99);
      expect(t.sockets).toHaveLength(1);
      vi.advanceTimersByTime(1);
      expect(t.sockets).toHaveLength(2);
      expect(t.socket(1).url).toBe(URL_);
      expect(t.statuses).toEqual(['connecting', 'open', 'closed', 'connecting']);

      t.socket(1).accept();
      expect(t.socket(1).calls).toEqual([{ id: expect.any(Number), command: 'subscribe', args: { events: ['log'] } }]);
      const line = logEvent(makeLogEntry(7));
      t.socket(1).push(line);
      expect(listener.mock.calls).toEqual([[line]]);
    });

    it('does not subscribe again when nothing was subscribed', () => {
      const t = setup(100);
      t.socket(0).accept();
      t.socket(0).drop();
      vi.advanceTimersByTime(100);
      t.socket(1).accept();
      expect(t.socket(1).calls).toEqual([]);
    });

    it('backs off, doubling the delay, and resets it once a connection opens', () => {
      const t = setup(100);
      t.socket(0).drop();
      vi.advanceTimersByTime(100);
      expect(t.sockets).toHaveLength(2);
      t.socket(1).drop();
      vi.advanceTimersByTime(199);
      expect(t.sockets).toHaveLength(2);
      vi.advanceTimersByTime(1);
      expect(t.sockets).toHaveLength(3);
      t.socket(2).accept();
      t.socket(2).drop();
      vi.advanceTimersByTime(100);
      expect(t.sockets).toHaveLength(4);
    });

    it('caps the backoff at 10 s', () => {
      const t = setup(8_000);
      t.socket(0).drop();
      vi.advanceTimersByTime(8_000);
      t.socket(1).drop();
      vi.advanceTimersByTime(9_999);
      expect(t.sockets).toHaveLength(2);
      vi.advanceTimersByTime(1);
      expect(t.sockets).toHaveLength(3);
    });

    it('a call answered `unavailable` by a drop is not sent again after reconnecting', async () => {
      const t = setup(100);
      const health = t.bridge.health({});
      t.socket(0).drop();
      await expect(health).resolves.toMatchObject({ ok: false, error: { code: 'unavailable' } });
      vi.advanceTimersByTime(100);
      t.socket(1).accept();
      // The caller was told the call failed; the host must not run it anyway.
      expect(t.socket(1).calls).toEqual([]);
    });
  });

  describe('[host-lost] a host that is gone, back, or refuses the token', () => {
    beforeEach(() => {
      vi.useFakeTimers();
    });

    function probed(answers: () => boolean) {
      const { WebSocketImpl, sockets } = fakeWebSocketClass();
      const statuses: [ConnectionStatus, number | undefined][] = [];
      const probe = vi.fn(async () => answers());
      const bridge = createWsBridge({ url: URL_, token: TOKEN, WebSocketImpl, retryMs: 100, probe, onStatus: (s, info) => statuses.push([s, info?.retryInMs]) });
      return { bridge, sockets, statuses, probe };
    }

    it('a failed attempt while the host does not answer is a drop: it says when it tries again, and reconnects when the host is back', async () => {
      let up = false;
      const t = probed(() => up);
      t.sockets[0]!.drop();
      await vi.waitFor(() => expect(t.statuses).toEqual([['connecting', undefined], ['closed', 100]]));
      vi.advanceTimersByTime(100);
      t.sockets[1]!.drop();
      await vi.waitFor(() => expect(t.statuses.at(-1)).toEqual(['closed', 200]));
      up = true;
      vi.advanceTimersByTime(200);
      t.sockets[2]!.accept();
      expect(t.statuses.at(-1)).toEqual(['open', undefined]);
    });

    it('a socket that was open and drops is not probed: the host went away, it retries', () => {
      const t = probed(() => true);
      t.sockets[0]!.accept();
      t.sockets[0]!.drop();
      expect(t.probe).not.toHaveBeenCalled();
      expect(t.statuses.at(-1)).toEqual(['closed', 100]);
    });

    it('a host that answers but refused the socket refused the token: no more attempts with it until reconnect()', async () => {
      const t = probed(() => true);
      t.sockets[0]!.drop();
      await vi.waitFor(() => expect(t.statuses.at(-1)).toEqual(['refused', undefined]));
      vi.advanceTimersByTime(60_000);
      expect(t.sockets).toHaveLength(1);
      t.bridge.reconnect();
      expect(t.sockets).toHaveLength(2);
      t.bridge.reconnect();
      expect(t.sockets).toHaveLength(2);
      t.sockets[1]!.accept();
      expect(t.statuses.at(-1)).toEqual(['open', undefined]);
    });

    it('reconnect() while waiting for the next attempt tries at once, once', async () => {
      const t = probed(() => false);
      t.sockets[0]!.drop();
      await vi.waitFor(() => expect(t.statuses.at(-1)).toEqual(['closed', 100]));
      t.bridge.reconnect();
      expect(t.sockets).toHaveLength(2);
      vi.advanceTimersByTime(1_000);
      expect(t.sockets).toHaveLength(2);
    });
  });

  describe('close()', () => {
    it('stops reconnecting and answers later calls unavailable without sending', async () => {
      vi.useFakeTimers();
      const t = setup(100);
      t.socket(0).accept();
      const inFlight = t.bridge.health({});
      (t.bridge as unknown as { close(): void }).close();
      await expect(inFlight).resolves.toMatchObject({ ok: false, error: { code: 'unavailable' } });
      vi.advanceTimersByTime(60_000);
      expect(t.sockets).toHaveLength(1);
      await expect(t.bridge.health({})).resolves.toEqual({ ok: false, error: { code: 'unavailable', message: expect.stringMatching(/closed/) } });
      expect(t.socket(0).calls).toHaveLength(1);
    });
  });

  it('is not a thenable, so awaiting it yields the bridge itself', async () => {
    const t = setup();
    expect((t.bridge as unknown as Record<string, unknown>).then).toBeUndefined();
    await expect(Promise.resolve(t.bridge)).resolves.toBe(t.bridge);
  });
});

describe('wsUrlFromLocation', () => {
  it.each([
    { case: 'http -> ws', protocol: 'http:', host: '127.0.0.1:4000', search: '?token=abc', url: 'ws://127.0.0.1:4000/ws' },
    { case: 'https -> wss', protocol: 'https:', host: 'strata.example', search: '?token=abc', url: 'wss://strata.example/ws' },
    { case: 'other params dropped', protocol: 'http:', host: 'localhost:1', search: '?x=1&token=a', url: 'ws://localhost:1/ws' },
    { case: 'no token', protocol: 'http:', host: 'localhost:1', search: '', url: 'ws://localhost:1/ws' },
  ])('$case', ({ url, case: _case, ...loc }) => {
    expect(wsUrlFromLocation(loc)).toBe(url);
  });

  it('uses the contract wirePath and never carries the token (a failed connection prints its URL in the console)', () => {
    const parsed = new URL(wsUrlFromLocation({ protocol: 'http:', host: '127.0.0.1:4000', search: '?token=s3cr3t' }));
    expect(parsed.pathname).toBe(wirePath);
    expect(parsed.search).toBe('');
    expect(parsed.href).not.toContain('s3cr3t');
  });
});

describe('the token as a subprotocol', () => {
  it('offers strata.v1 and strata.token.<token> on every connection, the reconnects too, and never in the URL', async () => {
    vi.useFakeTimers();
    const t = setup(100);
    t.socket(0).accept();
    t.socket(0).drop();
    await vi.advanceTimersByTimeAsync(100);
    expect(t.sockets).toHaveLength(2);
    for (const s of t.sockets) {
      expect(s.protocols).toEqual([WIRE_PROTOCOL, `${TOKEN_PROTOCOL_PREFIX}${TOKEN}`]);
      expect(s.url).not.toContain(TOKEN);
    }
    t.bridge.close();
  });

  it.each([
    { case: 'the page token', search: '?token=abc123', token: 'abc123' },
    { case: 'no token', search: '', token: '' },
    { case: 'a token with characters a subprotocol cannot carry', search: '?token=a%20b', token: '' },
    { case: 'a token with a comma', search: '?token=a,b', token: '' },
  ])('reads $case from the page address', ({ search, token }) => {
    expect(wsTokenFromLocation({ search })).toBe(token);
  });

  it('offers only strata.v1 without a token, so the host refuses it instead of the browser throwing', () => {
    expect(wsProtocols('')).toEqual([WIRE_PROTOCOL]);
  });
});
