/**
 * The headless host's WebSocket under fire: over 10,000 malformed and hostile frames (not JSON,
 * wrong shapes, unknown commands, every command with broken arguments, prototype keys, deep
 * nesting, huge and oversize frames, binary and invalid UTF-8 frames, hostile trace paths) and
 * hundreds of connection attempts without the right token, Origin or Host. Every answered frame
 * gets exactly one clear refusal (or a harmless read), refused frames close their socket, the host
 * keeps serving, and the catalog's memory and items tables are byte-for-byte unchanged.
 */
import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, ftruncateSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect, createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Envelope, ErrorCode, WireReply } from '../../engine/contract';
import { Host } from '../../engine/host';
import { manualScheduler } from '../../engine/ports/Scheduler';
import { MAX_FRAME_BYTES, startWebHost, type WebHost } from '../../electron/web/webHost';
import { quarterTokenizer } from '../support/engineFixtures';
import { FRAME_COUNTS, type HostileFiles, type HostileFrame, hostileFrames, READ_ONLY } from '../support/hostileFrames';
import { markedProposal } from '../support/memoryCatalog';
import { tempDir } from '../support/tempDir';
import { wsProtocols } from '../support/wsClient';

const SEED = 0x5747_2026;
const BATCH = 250;
const CODES: ReadonlySet<ErrorCode> = new Set(['invalid_args', 'unknown_command', 'not_found', 'conflict', 'forbidden', 'unavailable']);

const tmp = tempDir('strata-wsfuzz-');
const catalogPath = join(tmp.dir, 'catalog.sqlite');
const files: HostileFiles = {
  dir: join(tmp.dir, 'folder'),
  fifo: join(tmp.dir, 'trace.fifo'),
  socket: join(tmp.dir, 'trace.sock'),
  empty: join(tmp.dir, 'empty.json'),
  sparse: join(tmp.dir, 'sparse.json'),
  loop: join(tmp.dir, 'loop.json'),
  zeroLink: join(tmp.dir, 'zero.json'),
};
let host: Host;
let web: WebHost;
let unixSocket: Server;

/** SHA-256 over the memory and items tables' rows, ordered by primary key, with their row counts. */
function tablesChecksum(): { sha256: string; rows: Record<string, number> } {
  const db = new Database(catalogPath, { readonly: true, fileMustExist: true });
  try {
    const hash = createHash('sha256');
    const rows: Record<string, number> = {};
    for (const table of ['memory', 'items']) {
      const all = db.prepare(`SELECT * FROM ${table} ORDER BY id`).all();
      rows[table] = all.length;
      hash.update(`${table}\n${JSON.stringify(all)}\n`);
    }
    return { sha256: hash.digest('hex'), rows };
  } finally {
    db.close();
  }
}

/** One WebSocket of the fuzz: replies by id, replies without one, and how it closed. */
class FuzzSocket {
  readonly byId = new Map<number, Envelope<unknown>[]>();
  readonly unidentified: Envelope<unknown>[] = [];
  /** Frames sent whose reply carries no id. */
  expectedUnidentified = 0;
  readonly closed: Promise<number>;
  private wake: (() => void) | undefined;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const reply = JSON.parse(String(data)) as WireReply;
      if (reply.kind !== 'result') return;
      if (reply.id === null) this.unidentified.push(reply.envelope);
      else this.byId.set(reply.id, [...(this.byId.get(reply.id) ?? []), reply.envelope]);
      this.wake?.();
    });
    // Sending an oversize frame fails once the server has closed the socket on its header.
    ws.on('error', () => {});
    this.closed = new Promise((resolve) => ws.once('close', (code) => resolve(code)));
  }

  static open(): Promise<FuzzSocket> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${web.port}/ws`, wsProtocols(web.token));
      ws.once('open', () => resolve(new FuzzSocket(ws)));
      ws.once('error', reject);
    });
  }

  send(frame: HostileFrame): void {
    if (frame.replyId === null) this.expectedUnidentified++;
    this.ws.send(frame.data, { binary: frame.kind === 'binary' });
  }

  /** Resolves when every frame of `batch` has been answered (at least once). */
  async answered(batch: readonly HostileFrame[], timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const done = () => this.unidentified.length >= this.expectedUnidentified && batch.every((f) => f.replyId === null || this.byId.has(f.replyId));
    while (!done()) {
      if (Date.now() > deadline) throw new Error(`no reply within ${timeoutMs} ms to ${batch.filter((f) => f.replyId !== null && !this.byId.has(f.replyId)).length} frames`);
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        setTimeout(resolve, 100);
      });
    }
  }

  async health(): Promise<Envelope<unknown>> {
    const frame: HostileFrame = { category: 'wrong-shape', kind: 'text', data: JSON.stringify({ id: 0, command: 'health', args: {} }), replyId: 0, command: 'health' };
    this.byId.delete(0);
    this.send(frame);
    await this.answered([frame]);
    return this.byId.get(0)![0]!;
  }
}

/** What is wrong with the replies to `frame` (empty when it got exactly one clear one). */
function problems(frame: HostileFrame, replies: readonly Envelope<unknown>[] | undefined): string[] {
  const what = `${frame.category} ${String(frame.data).slice(0, 160)}`;
  if (replies?.length !== 1) return [`${replies?.length ?? 0} replies to ${what}`];
  const envelope = replies[0]!;
  if (envelope.ok) return frame.command && READ_ONLY.has(frame.command) ? [] : [`ok for ${what}`];
  const { code, message } = envelope.error;
  const out: string[] = [];
  if (!CODES.has(code)) out.push(`code ${code} (${message}) for ${what}`);
  if (typeof message !== 'string' || message.trim() === '') out.push(`no message for ${what}`);
  if (frame.category === 'unknown-command' && code !== 'unknown_command') out.push(`${code} for ${what}`);
  if (frame.mustName !== undefined && !message.includes(frame.mustName)) out.push(`"${message}" does not name ${frame.mustName}`);
  return out;
}

/** An upgrade request's answer: the HTTP status of a refusal, or 101 when the server upgraded. */
function upgrade(path: string, headers: Record<string, string | undefined>): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = Object.fromEntries(Object.entries({ Host: `127.0.0.1:${web.port}`, ...headers }).filter(([, v]) => v !== undefined)) as Record<string, string>;
    const req = request({
      host: '127.0.0.1',
      port: web.port,
      path,
      setHost: false,
      headers: { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Version': '13', ...sent },
    });
    req.on('upgrade', (_res, socket) => {
      socket.destroy();
      resolve(101);
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  mkdirSync(files.dir);
  mkdirSync(join(tmp.dir, 'renderer'));
  writeFileSync(join(tmp.dir, 'renderer', 'index.html'), '<!doctype html><title>Strata</title>');
  execFileSync('mkfifo', [files.fifo]);
  unixSocket = createServer().listen(files.socket);
  writeFileSync(files.empty, '');
  const fd = openSync(files.sparse, 'w');
  ftruncateSync(fd, 300 * 2 ** 20);
  closeSync(fd);
  symlinkSync(files.loop, files.loop);
  symlinkSync('/dev/zero', files.zeroLink);

  host = Host.open({ catalogPath, workspaceName: 'fuzz', version: '1.0.0', workspaceDir: tmp.dir, tokenizer: quarterTokenizer, scheduler: manualScheduler() });
  // Real rows for the checksum, and real targets: an item command that slipped through would change them.
  for (let n = 0; n < 40; n++) {
    host.engine.addItem({ id: `item-${n}`, kind: 'note', class: 'finding', content: `Seeded finding ${n}`, source: 'worker_finding', agentId: 'worker-1', taskId: 'task-1', at: n });
  }
  for (let n = 0; n < 12; n++) {
    const entry = host.memory.propose(markedProposal('FUZZ-SEED', n));
    if (n % 3 === 1) host.memory.verify(entry.id, entry.revision);
    if (n % 3 === 2) host.memory.retire(entry.id, entry.revision);
  }
  web = await startWebHost({ host, staticDir: join(tmp.dir, 'renderer') });
});

afterAll(async () => {
  await web?.close();
  host?.close();
  unixSocket?.close();
  tmp.remove();
});

describe('headless web host under hostile input', () => {
  it('answers 10,000+ malformed and hostile frames with one clear refusal each, keeps serving and changes nothing', { timeout: 120_000 }, async () => {
    const before = tablesChecksum();
    expect(before.rows).toEqual({ memory: 12, items: 40 });
    const prototypeKeys = Object.getOwnPropertyNames(Object.prototype);
    const counts = Object.fromEntries(Object.keys(FRAME_COUNTS).map((c) => [c, 0])) as Record<keyof typeof FRAME_COUNTS, number>;
    const found: string[] = [];
    const sockets: FuzzSocket[] = [];
    let socket = await FuzzSocket.open();
    let batch: HostileFrame[] = [];
    const settle = async () => {
      await socket.answered(batch);
      for (const frame of batch) if (frame.replyId !== null) found.push(...problems(frame, socket.byId.get(frame.replyId)));
      batch = [];
    };

    for (const frame of hostileFrames(SEED, files, MAX_FRAME_BYTES)) {
      counts[frame.category]++;
      if (frame.kind === 'text' || frame.kind === 'binary') {
        socket.send(frame);
        batch.push(frame);
        if (batch.length >= BATCH) await settle();
        continue;
      }
      // A frame the server refuses by closing the socket: everything before it is answered first.
      await settle();
      sockets.push(socket);
      socket.ws.send(frame.data, { binary: false });
      expect(await socket.closed).toBe(frame.kind === 'oversize' ? 1009 : 1007);
      socket = await FuzzSocket.open();
    }
    await settle();
    sockets.push(socket);

    // Nothing late: one more call per open socket, then every reply is counted again.
    expect(await socket.health()).toMatchObject({ ok: true, value: { ok: true } });
    for (const s of sockets) {
      for (const [id, replies] of s.byId) if (id !== 0 && replies.length !== 1) found.push(`${replies.length} replies to id ${id}`);
      if (s.unidentified.length !== s.expectedUnidentified) found.push(`${s.unidentified.length} replies without an id to ${s.expectedUnidentified} frames without one`);
      for (const e of s.unidentified) if (e.ok || e.error.code !== 'invalid_args' || !e.error.message) found.push(`unidentified reply ${JSON.stringify(e)}`);
    }
    socket.ws.close();
    expect(found.length === 0 ? [] : [`${found.length} problems, the first:`, ...found.slice(0, 20)]).toEqual([]);

    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    expect(counts).toEqual(FRAME_COUNTS);
    expect(total).toBeGreaterThanOrEqual(10_000);

    const fresh = await FuzzSocket.open();
    expect(await fresh.health()).toMatchObject({ ok: true, value: { ok: true, agents: 0 } });
    fresh.ws.close();
    expect(tablesChecksum()).toEqual(before);
    expect(host.catalog.listTraces()).toEqual([]);
    expect(host.runs.list()).toEqual([]);
    expect(Object.getOwnPropertyNames(Object.prototype)).toEqual(prototypeKeys);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('refuses every upgrade without the token, from another Origin or for another Host, without upgrading', { timeout: 60_000 }, async () => {
    const before = tablesChecksum();
    const port = web.port;
    const t = web.token;
    const P = 'Sec-WebSocket-Protocol';
    const ok = { [P]: `strata.v1, strata.token.${t}` };
    const variants: [string, string, Record<string, string | undefined>, number][] = [
      ['no token', '/ws', {}, 401],
      ['no token beside the wire protocol', '/ws', { [P]: 'strata.v1' }, 401],
      ['an empty token', '/ws', { [P]: 'strata.v1, strata.token.' }, 401],
      ['a wrong token', '/ws', { [P]: `strata.v1, strata.token.${'0'.repeat(48)}` }, 401],
      ['the token without its last digit', '/ws', { [P]: `strata.v1, strata.token.${t.slice(0, -1)}` }, 401],
      ['the token and one more digit', '/ws', { [P]: `strata.v1, strata.token.${t}0` }, 401],
      ['the token in capitals', '/ws', { [P]: `strata.v1, strata.token.${t.toUpperCase()}` }, 401],
      ['the token with an escaped NUL', '/ws', { [P]: `strata.v1, strata.token.${t}%00` }, 401],
      ['the token under another name', '/ws', { [P]: `strata.v1, strata.tok.${t}` }, 401],
      ['the token second after a wrong one', '/ws', { [P]: `strata.v1, strata.token.x, strata.token.${t}` }, 401],
      ['the token twice', '/ws', { [P]: `strata.v1, strata.token.${t}, strata.token.${t}` }, 401],
      ['the token in the URL', `/ws?token=${t}`, {}, 401],
      ['the token in the URL beside the wire protocol', `/ws?token=${t}`, { [P]: 'strata.v1' }, 401],
      ['the token without the wire protocol', '/ws', { [P]: `strata.token.${t}` }, 400],
      ['the token in the path', `/ws/${t}`, {}, 404],
      ['another path', '/api', ok, 404],
      ['a request target that is not a URL', '//a:99999/ws', ok, 400],
      ['another page origin', '/ws', { ...ok, Origin: 'http://evil.example' }, 403],
      ['the null origin', '/ws', { ...ok, Origin: 'null' }, 403],
      ['an empty origin', '/ws', { ...ok, Origin: '' }, 403],
      ['another local port as origin', '/ws', { ...ok, Origin: `http://127.0.0.1:${port + 1}` }, 403],
      ['an https origin', '/ws', { ...ok, Origin: `https://127.0.0.1:${port}` }, 403],
      ['localhost as origin of a 127.0.0.1 host', '/ws', { ...ok, Origin: `http://localhost:${port}` }, 403],
      ['a look-alike origin', '/ws', { ...ok, Origin: `http://127.0.0.1:${port}.evil.example` }, 403],
      ['a rebinding Host', '/ws', { ...ok, Host: 'evil.example' }, 421],
      ['a Host without the port', '/ws', { ...ok, Host: '127.0.0.1' }, 421],
      ['a Host with another port', '/ws', { ...ok, Host: `127.0.0.1:${port + 1}` }, 421],
      ['a Host of all interfaces', '/ws', { ...ok, Host: `0.0.0.0:${port}` }, 421],
      ['an IPv6 Host', '/ws', { ...ok, Host: `[::1]:${port}` }, 421],
      ['a Host with user info', '/ws', { ...ok, Host: `evil@127.0.0.1:${port}` }, 421],
      ['no Host', '/ws', { ...ok, Host: undefined }, 421],
      ['no token and another origin', '/ws', { Origin: 'http://evil.example' }, 403],
      ['no token and a rebinding Host', '/ws', { Host: 'evil.example' }, 421],
    ];
    let attempts = 0;
    const statuses: string[] = [];
    for (let round = 0; round < 10; round++) {
      for (const [what, path, headers, status] of variants) {
        const got = await upgrade(path, headers);
        attempts++;
        if (got !== status) statuses.push(`${what}: ${got}, expected ${status}`);
      }
    }
    expect(statuses).toEqual([]);
    expect(await upgrade('/ws', { ...ok, Origin: `http://127.0.0.1:${port}` })).toBe(101);
    expect(attempts).toBeGreaterThanOrEqual(300);
    expect(tablesChecksum()).toEqual(before);
  });

  it('survives clients that reset the connection while their upgrade is refused', { timeout: 60_000 }, async () => {
    for (let n = 0; n < 200; n++) {
      await new Promise<void>((resolve) => {
        const s = connect(web.port, '127.0.0.1', () => {
          s.write(`GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${web.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`);
          if (n % 2 === 0) s.resetAndDestroy();
          else setImmediate(() => s.resetAndDestroy());
        });
        s.on('error', () => {});
        s.on('close', () => resolve());
      });
    }
    const client = await FuzzSocket.open();
    expect(await client.health()).toMatchObject({ ok: true });
    client.ws.close();
  });

  it('answers a page request whose target is not a URL with 400', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: web.port, path: '//a:99999/', headers: { Host: `127.0.0.1:${web.port}` } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(400);
    const client = await FuzzSocket.open();
    expect(await client.health()).toMatchObject({ ok: true });
    client.ws.close();
  });
});
