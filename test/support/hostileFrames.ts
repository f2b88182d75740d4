import { resolve } from 'node:path';
import { type CommandArgs, type CommandName, Commands, commandNames, isCommandName, PURGE_CONFIRMATION } from '../../engine/contract';
import { intIn, pick, seededRandom } from './seededRandom';

/**
 * Malformed and hostile WebSocket frames for the headless host, from a seed. Every frame a command
 * with effects would run is checked here against the contract's own schema and fails it, so a host
 * that validates as the contract says changes nothing; the only exceptions are `importTrace` and
 * `importTraceContent` of hostile paths and names, whose content is never a trace.
 */

/** Commands that change nothing (a session's own subscriptions aside): they may answer `ok`. */
export const READ_ONLY: ReadonlySet<CommandName> = new Set<CommandName>([
  'health', 'listAgents', 'getAgent', 'subscribe', 'listGenerations', 'getGeneration', 'diffGenerations', 'listMemory', 'getMemory',
  'getConversation', 'listSkills', 'listRuns', 'getUsage', 'getProviderSettings', 'listTraces', 'getComparison', 'listSessions', 'listAttached', 'getSession', 'listComparisons', 'previewItemChange',
  'getGateway', 'listGatewaySessions', 'getGatewaySession', 'getGatewayRequest',
]);

/**
 * The commands the fuzz aims at: every one but those whose arguments are all optional and which
 * act (start and stop the gateway). No frame for them is malformed enough that the host must refuse
 * it (a dropped or prototype-polluted `args` is still `{}`), so a fuzzed frame would start a
 * server; conformance.test.ts and gatewayHost.test.ts check their arguments and effects.
 */
const FUZZED: readonly CommandName[] = commandNames.filter((n) => n !== 'startGateway' && n !== 'stopGateway');

/** Frames per category (10,121 in all). */
export const FRAME_COUNTS = {
  'not-json': 900,
  'wrong-shape': 1300,
  'unknown-command': 900,
  'wrong-types': 2400,
  'extra-keys': 800,
  'prototype-keys': 800,
  'over-long': 700,
  'deep-nesting': 400,
  'hostile-path': 1400,
  huge: 8,
  binary: 500,
  'invalid-utf8': 10,
  oversize: 3,
} as const;
type FrameCategory = keyof typeof FRAME_COUNTS;

export interface HostileFrame {
  category: FrameCategory;
  /** `text` and `binary` frames are answered; `invalid-utf8` and `oversize` make the server close the socket. */
  kind: 'text' | 'binary' | 'invalid-utf8' | 'oversize';
  data: string | Buffer;
  /** The id its one reply must carry (null: the frame has no usable id). */
  replyId: number | null;
  /** The contract command the frame names, if any. */
  command: CommandName | undefined;
  /** Text the refusal must contain (a hostile path as the host resolves it). */
  mustName?: string | undefined;
}

/** Special files the host machine offers a hostile `importTrace`, made by the test in its temp dir. */
export interface HostileFiles {
  dir: string;
  fifo: string;
  socket: string;
  empty: string;
  sparse: string;
  loop: string;
  zeroLink: string;
}

/** A valid argument object of every command: never sent as it is, only broken. */
const TEMPLATES: { [K in CommandName]: CommandArgs<K> } = {
  health: {},
  listAgents: {},
  getAgent: { agentId: 'primary' },
  subscribe: { events: ['log'] },
  listGenerations: { agentId: 'primary' },
  getGeneration: { agentId: 'primary', number: 1, droppedLimit: 10 },
  diffGenerations: { agentId: 'primary', from: 1, to: 2 },
  pin: { itemId: 'item-1' },
  unpin: { itemId: 'item-1' },
  remove: { itemId: 'item-1' },
  verify: { itemId: 'item-1' },
  promote: { itemId: 'item-1', target: 'pool' },
  previewItemChange: { itemId: 'acceptance', change: 'remove' },
  rebuild: { agentId: 'primary' },
  restoreGeneration: { agentId: 'primary', number: 1 },
  refresh: { agentId: 'primary', reason: 'fuzz' },
  listMemory: { states: ['verified'] },
  getMemory: { id: 'mem-1' },
  promoteToMemory: { itemId: 'item-1' },
  verifyMemory: { id: 'mem-1', revision: 1 },
  retireMemory: { id: 'mem-1', revision: 1 },
  unverifyMemory: { id: 'mem-1', revision: 1 },
  editMemory: { id: 'mem-1', revision: 1, title: 'T', body: 'B' },
  addConstraint: { agentId: 'primary', text: 'Keep the API stable.', title: 'API', pinned: true },
  purgeMemory: { confirm: PURGE_CONFIRMATION, states: ['candidate'] },
  getConversation: { agentId: 'primary' },
  listSkills: {},
  startRun: { driver: 'trace', tickMs: 0 },
  pauseRun: { runId: 'run-1' },
  resumeRun: { runId: 'run-1' },
  stepRun: { runId: 'run-1', agentId: 'primary' },
  stopRun: { runId: 'run-1' },
  listRuns: {},
  controlAgent: { agentId: 'primary', action: 'pause' },
  getUsage: { agentId: 'primary', limit: 5 },
  getProviderSettings: {},
  importTrace: { path: '/tmp/session.json' },
  importTraceContent: { name: 'session.json', content: '{"messages":[]}' },
  listTraces: {},
  startComparison: { traceIds: ['tr_0000000000000000'], strategies: ['variable'], budget: 32_000 },
  getComparison: { comparisonId: 'cmp-1' },
  listComparisons: {},
  cancelComparison: { comparisonId: 'cmp-1' },
  removeTrace: { traceId: 'tr_0000000000000000' },
  listSessions: { limit: 5 },
  attachSession: { path: '/tmp/session.jsonl' },
  detachSession: { sessionId: 'ses-1' },
  listAttached: {},
  getSession: { sessionId: 'ses-1' },
  getGateway: {},
  startGateway: { port: 0, mode: 'observe' },
  stopGateway: {},
  listGatewaySessions: {},
  getGatewaySession: { sessionId: 'gws-1' },
  setGatewayMode: { sessionId: 'gws-1', mode: 'manage' },
  gatewayControl: { sessionId: 'gws-1', threadId: 'gwt-1', itemKey: 'toolu_1', action: 'pin' },
  getGatewayRequest: { callId: 'gwc-1' },
};

const WRONG_VALUES: readonly unknown[] = [0, -1, 1.5, 1e308, -1e308, '', 'x', '1', true, false, null, [], [null], {}, { a: 1 }, ['log', 'log'], 'purge project memory '];
const EXTRA_KEYS = ['sql', 'workspace', 'path', 'catalogPath', 'admin', 'token', 'id', 'args', 'command', 'agentId', 'itemId', 'force', 'driver', 'eval', ''];
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'isPrototypeOf'];
const NOT_A_TRACE = ['not a trace\n', '\0\0\0', '{', '[', '{"messages":[]}', '{"trajectory":"no"}', '{"type":"session_meta"}\n'];

/** Hostile file paths for `importTrace`: traversal, devices, /proc, Windows and URL forms, NUL bytes, special files. */
function hostilePaths(f: HostileFiles): string[] {
  return [
    '../../etc/passwd', '../../../../../../../../etc/shadow', '/etc/shadow', '/etc/passwd', '/etc/passwd/child', '/dev/zero', '/dev/stdin',
    '/dev/urandom', '/dev/null', '/dev/tty', '/proc/self/environ', '/proc/self/mem', '/proc/self/fd/0', '/proc/kmsg', '/proc/kcore',
    '/proc/self/cmdline', '/sys/kernel', '/', '.', '..', '\\\\?\\C:\\Windows\\System32\\config\\SAM', 'C:\\Windows\\win.ini',
    'file:///etc/passwd', '~/.ssh/id_rsa', '%2e%2e%2f%2e%2e%2fetc%2fpasswd', '/etc/passwd\0.json', 'session.json\0', `${f.dir}/\0/x`,
    'a'.repeat(4096), `/${'a/'.repeat(2000)}`, f.dir, f.fifo, f.socket, f.empty, f.sparse, f.loop, f.zeroLink, `${f.fifo}/..`,
  ];
}

/** How the host names a path in its refusal (NUL bytes escaped, as JSON writes them). */
function namedAs(path: string): string {
  const file = resolve(path);
  return file.includes('\0') ? JSON.stringify(file).slice(1, -1) : file;
}

/**
 * {@link FRAME_COUNTS} frames of each category in a shuffled order, from `seed`; `maxFrameBytes` is
 * the server's frame limit, which an `oversize` frame exceeds. Ids count up from 1 (some negated).
 */
export function* hostileFrames(seed: number, files: HostileFiles, maxFrameBytes: number): Generator<HostileFrame> {
  const r = seededRandom(seed);
  const order = (Object.entries(FRAME_COUNTS) as [FrameCategory, number][]).flatMap(([c, n]) => Array<FrameCategory>(n).fill(c));
  for (let i = order.length - 1; i > 0; i--) {
    const j = intIn(r, 0, i);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const paths = hostilePaths(files);
  let nextId = 1;
  for (const [n, category] of order.entries()) {
    const id = nextId++ * (r() < 0.05 ? -1 : 1);
    yield build(category, r, id, FUZZED[n % FUZZED.length]!, paths, maxFrameBytes);
  }
}

function build(category: FrameCategory, r: () => number, id: number, command: CommandName, paths: string[], maxFrameBytes: number): HostileFrame {
  switch (category) {
    case 'not-json':
      return { category, kind: 'text', data: notJson(r, id), replyId: null, command: undefined };
    case 'wrong-shape':
      return wrongShape(r, id);
    case 'unknown-command': {
      const name = unknownName(r);
      return call(category, id, name, r() < 0.2 ? undefined : pick(r, [{}, TEMPLATES.purgeMemory, { path: '/etc/passwd' }, [1]]));
    }
    case 'wrong-types':
      return call(category, id, command, wrongTypes(r, command));
    case 'extra-keys': {
      const args: Record<string, unknown> = { ...TEMPLATES[command] };
      for (let k = intIn(r, 1, 40); k > 0; k--) args[pick(r, EXTRA_KEYS) + (r() < 0.5 ? '' : String(intIn(r, 0, 99)))] = pick(r, WRONG_VALUES);
      return call(category, id, command, args);
    }
    case 'prototype-keys':
      return prototypeKeys(r, id, command);
    case 'over-long':
      return call(category, id, command, overLong(r, command));
    case 'deep-nesting': {
      // Built as text: JSON.stringify overflows the stack on values this deep, JSON.parse does not.
      const deep = nested(r, intIn(r, 16, 20_000));
      const keys = Object.keys(TEMPLATES[command]);
      const args = keys.length === 0 || r() < 0.3 ? deep : JSON.stringify({ ...TEMPLATES[command], [pick(r, keys)]: '<deep>' }).replace('"<deep>"', deep);
      return call(category, id, command, undefined, undefined, `{"id":${id},"command":${JSON.stringify(command)},"args":${args}}`);
    }
    case 'hostile-path':
      return hostilePath(r, id, command, paths);
    case 'huge': {
      const size = intIn(r, 1, 8) * 2 ** 20;
      const [name, args] = pick(r, [
        ['importTraceContent', { name: 'huge.json', content: `${pick(r, NOT_A_TRACE)}${'x'.repeat(size)}` }],
        ['getAgent', { agentId: 'a'.repeat(size) }],
        ['pin', Object.fromEntries(Array.from({ length: size >> 6 }, (_, k) => [`k${k}`, k]))],
      ] as const);
      return call(category, id, name, args);
    }
    case 'binary': {
      const bytes = r() < 0.5 ? Buffer.from(Array.from({ length: intIn(r, 0, 512) }, () => intIn(r, 0, 255))) : Buffer.from(JSON.stringify({ id, command: 'purgeMemory', args: TEMPLATES.purgeMemory }));
      return { category, kind: 'binary', data: bytes, replyId: null, command: undefined };
    }
    case 'invalid-utf8': {
      const text = Buffer.from(JSON.stringify({ id, command: 'health', args: {} }));
      // A stray byte, an overlong encoding, a UTF-16 surrogate, a 5-byte form, a lone continuation byte.
      const invalid = pick(r, [[0xff], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0x80]]);
      return { category, kind: 'invalid-utf8', data: Buffer.concat([text.subarray(0, 5), Buffer.from(invalid), text.subarray(5)]), replyId: null, command: undefined };
    }
    case 'oversize':
      return { category, kind: 'oversize', data: Buffer.alloc(maxFrameBytes + 1, 0x20), replyId: null, command: undefined };
  }
}

/** A call frame; a command with effects must fail its schema (asserted here, so the fuzz cannot change the catalog by accident). */
function call(category: FrameCategory, id: number, command: string, args: unknown, mustName?: string, text?: string): HostileFrame {
  const data = text ?? JSON.stringify({ id, command, args });
  const known = isCommandName(command) ? command : undefined;
  // Hostile paths and huge non-trace content may pass the import schemas: they can never import (the checksum proves it).
  const importsNothing = (category === 'hostile-path' || category === 'huge') && (known === 'importTrace' || known === 'importTraceContent');
  if (known && !READ_ONLY.has(known) && !importsNothing) {
    const sent = (JSON.parse(data) as { args?: unknown }).args;
    if (Commands[known].args.safeParse(sent === undefined ? {} : sent).success) throw new Error(`the fuzz would send valid arguments to "${known}": ${data.slice(0, 300)}`);
  }
  return { category, kind: 'text', data, replyId: id, command: known, mustName };
}

function notJson(r: () => number, id: number): string {
  const valid = JSON.stringify({ id, command: 'purgeMemory', args: { confirm: PURGE_CONFIRMATION } });
  return pick(r, [
    () => valid.slice(0, intIn(r, 0, valid.length - 1)),
    () => Array.from({ length: intIn(r, 1, 200) }, () => String.fromCharCode(intIn(r, 32, 126))).join('').replace(/^[\s\d"[{tfn-]/, '~'),
    () => Array.from({ length: intIn(r, 1, 64) }, () => String.fromCharCode(intIn(r, 0xd800, 0xdfff))).join(''),
    () => `${valid} trailing`,
    () => `${valid.slice(0, -1)},}`,
    () => `\uFEFF${valid}`,
    () => `/* comment */${valid}`,
    () => valid.replace(/"/g, "'"),
    () => valid.replace(/"(\w+)":/g, '$1:'),
    () => pick(r, ['', ' ', '\n', 'NaN', 'undefined', 'Infinity', '{', '}', '[', '"unterminated', '\0', '{"id":1 "command":"health"}']),
  ])();
}

function wrongShape(r: () => number, id: number): HostileFrame {
  const category = 'wrong-shape';
  const purge = { command: 'purgeMemory', args: { confirm: PURGE_CONFIRMATION } };
  const variant = intIn(r, 0, 5);
  if (variant === 0) return { category, kind: 'text', data: JSON.stringify(pick(r, [[], [id, 'health', {}], [purge], 0, id, -1.5, true, false, null, 'health', { length: 1 }])), replyId: null, command: undefined };
  if (variant === 1) {
    const badId = pick(r, [String(id), id + 0.5, null, true, [], [id], {}, 2 ** 53, 1e21, -(2 ** 60), `${id}n`]);
    return { category, kind: 'text', data: JSON.stringify(r() < 0.5 ? { ...purge, id: badId } : { ...purge }), replyId: null, command: undefined };
  }
  if (variant === 2) return { category, kind: 'text', data: `{"id":1e400,"command":"purgeMemory","args":{"confirm":"${PURGE_CONFIRMATION}"}}`, replyId: null, command: undefined };
  if (variant === 3) {
    const command = pick(r, [7, null, true, [], ['health'], { name: 'health' }, 'purgeMemory'.length]);
    return { category, kind: 'text', data: JSON.stringify({ id, command, args: purge.args }), replyId: id, command: undefined };
  }
  if (variant === 4) return { category, kind: 'text', data: `{"id":"first","command":"health","args":{},"id":${id}}`, replyId: id, command: 'health' };
  return { category, kind: 'text', data: JSON.stringify({ id, cmd: 'purgeMemory', arguments: purge.args }), replyId: id, command: undefined };
}

function unknownName(r: () => number): string {
  const real = pick(r, commandNames);
  const name = pick(r, [
    () => real.toUpperCase(),
    () => `${real} `,
    () => ` ${real}`,
    () => `${real}\0`,
    () => real.replace(/[a-z]/, 'һ'),
    () => `../${real}`,
    () => pick(r, PROTO_KEYS),
    () => pick(r, ['', 'eval', 'require', 'exec', 'purge', 'import_trace', '/etc/passwd', 'Commands', 'handlers', 'dispatch']),
    () => 'x'.repeat(intIn(r, 201, 100_000)),
    () => Array.from({ length: intIn(r, 1, 30) }, () => String.fromCharCode(intIn(r, 33, 0x2fff))).join(''),
  ])();
  return isCommandName(name) ? `${name}!` : name;
}

function wrongTypes(r: () => number, command: CommandName): unknown {
  const template: Record<string, unknown> = { ...TEMPLATES[command] };
  const keys = Object.keys(template);
  if (keys.length === 0 || r() < 0.3) return pick(r, [0, 1, -1, 1.5, 'args', '', true, false, null, [], [template]]);
  const key = pick(r, keys);
  if (r() < 0.2) delete template[key];
  else template[key] = pick(r, WRONG_VALUES.filter((v) => typeof v !== typeof template[key] || (typeof v === 'number' && !Number.isSafeInteger(v))));
  return breakIfValid(r, command, template);
}

/** Args that still pass the schema of a command with effects get one unknown key (every schema is strict). */
function breakIfValid(r: () => number, command: CommandName, args: Record<string, unknown>): Record<string, unknown> {
  if (READ_ONLY.has(command) || !Commands[command].args.safeParse(args).success) return args;
  return { ...args, [`unexpected${intIn(r, 0, 999)}`]: pick(r, WRONG_VALUES) };
}

/** Own `__proto__`/`constructor` keys (as `JSON.parse` makes them) in the arguments, the message or a value. */
function prototypeKeys(r: () => number, id: number, command: CommandName): HostileFrame {
  const category = 'prototype-keys';
  const pollute = JSON.parse('{"polluted":"yes","isAdmin":true}') as Record<string, unknown>;
  const own = (target: Record<string, unknown>, key: string, value: unknown) => {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
    return target;
  };
  const template: Record<string, unknown> = { ...TEMPLATES[command] };
  const key = pick(r, PROTO_KEYS);
  const keys = Object.keys(template);
  switch (intIn(r, 0, 5)) {
    case 0:
      return call(category, id, command, own({}, '__proto__', template));
    case 1:
      return call(category, id, command, own(template, key, key === 'constructor' ? { prototype: pollute } : pollute));
    case 2:
      return call(category, id, command, keys.length > 0 ? { ...template, [pick(r, keys)]: own({}, '__proto__', pollute) } : own({}, key, 1));
    case 3:
      return call(category, id, command, undefined, undefined, JSON.stringify(own({ id, command }, '__proto__', { args: TEMPLATES.purgeMemory })));
    case 4:
      return call(category, id, 'purgeMemory', undefined, undefined, JSON.stringify(own({ id }, '__proto__', { command: 'purgeMemory', args: TEMPLATES.purgeMemory })));
    default: {
      const data = JSON.stringify(own({ command: 'health', args: {} }, '__proto__', { id }));
      return { category, kind: 'text', data, replyId: null, command: undefined };
    }
  }
}

function overLong(r: () => number, command: CommandName): unknown {
  const template: Record<string, unknown> = { ...TEMPLATES[command] };
  const stringKeys = Object.keys(template).filter((k) => typeof template[k] === 'string' && !(command === 'importTraceContent' && k === 'content'));
  const long = (min: number) => pick(r, ['../', 'a', 'é', '\u{1F4A5}', '\\', '%00']).repeat(intIn(r, min, min + pick(r, [10, 5000, 70_000])));
  if (stringKeys.length > 0 && r() < 0.7) template[pick(r, stringKeys)] = long(4097);
  else if (r() < 0.5) template[long(200)] = 1;
  else template[Object.keys(template)[0] ?? 'events'] = Array.from({ length: intIn(r, 30, 20_000) }, () => 'log');
  return breakIfValid(r, command, template);
}

/** JSON text of an object or array nested `depth` levels. */
function nested(r: () => number, depth: number): string {
  const array = r() < 0.5;
  return `${(array ? '[' : '{"a":').repeat(depth)}${pick(r, ['1', '"x"', 'null', '{}'])}${(array ? ']' : '}').repeat(depth)}`;
}

function hostilePath(r: () => number, id: number, command: CommandName, paths: string[]): HostileFrame {
  const category = 'hostile-path';
  const path = pick(r, paths);
  const roll = r();
  if (roll < 0.6) return call(category, id, 'importTrace', { path }, namedAs(path));
  if (roll < 0.75) return call(category, id, 'importTraceContent', { name: path.slice(0, 255) || '..', content: pick(r, NOT_A_TRACE) });
  if (roll < 0.9) {
    if (command === 'startRun') return call(category, id, command, { driver: 'model', provider: 'openai', model: path.slice(0, 200), task: path.slice(0, 4000) || 'x', workspace: path });
    if (command === 'startComparison') return call(category, id, command, { traceIds: [path.slice(0, 200) || 'x'], strategies: ['variable'], budget: 1, workspaceDir: path });
    return call(category, id, command, breakIfValid(r, command, { ...TEMPLATES[command], [pick(r, ['workspace', 'path', 'catalogPath', 'workspaceDir', 'cwd'])]: path }));
  }
  const readOnly: [CommandName, string][] = [['getAgent', 'agentId'], ['getMemory', 'id'], ['getComparison', 'comparisonId'], ['listGenerations', 'agentId'], ['getUsage', 'agentId'], ['getConversation', 'agentId'], ['getGeneration', 'agentId']];
  const [name, key] = pick(r, readOnly);
  return call(category, id, name, { [key]: path.slice(0, 200) || '..' });
}
