/**
 * Every network address a traced client tried, read from an `strace -f -xx` log of `connect`,
 * `sendto`, `sendmsg` and `sendmmsg` (so DNS queries over unconnected UDP count too, not only
 * TCP connects). An address is on loopback when it is in 127.0.0.0/8, `::1` or `::ffff:127.x.x.x`;
 * Unix-domain and netlink sockets stay on the machine and are listed apart; `AF_UNSPEC` (a
 * disconnect) is no address. For a query to port 53 the name asked for is decoded from the packet.
 */

/** The strace options the runner traces each client with (every process, every address, hex strings for exact parsing). */
export const STRACE_NETWORK_ARGS = ['-f', '-qq', '-e', 'trace=connect,sendto,sendmsg,sendmmsg', '-e', 'signal=none', '-xx', '-s', '512'];

export interface NetworkAttempt {
  pid: number;
  syscall: string;
  family: 'AF_INET' | 'AF_INET6';
  address: string;
  port: number;
  /** The DNS name queried, when the payload is a DNS question to port 53. */
  dnsName?: string;
  /** The syscall's result as strace printed it (`= 0`, `= -1 ENETUNREACH (…)`, `<unfinished ...>`). */
  result: string;
}

export interface LocalSocket {
  pid: number;
  syscall: string;
  family: string;
  /** A Unix socket's path (`@…` for the abstract namespace). */
  path?: string;
}

export interface TracedNetwork {
  attempts: NetworkAttempt[];
  local: LocalSocket[];
}

const unhex = (s: string): Buffer => Buffer.from(s.replace(/\\x/g, ''), 'hex');

/** The question name of a DNS packet (after the 12-byte header), or undefined. */
export function dnsQuestion(packet: Buffer): string | undefined {
  const labels: string[] = [];
  let i = 12;
  while (i < packet.length && packet[i] !== 0) {
    const n = packet[i]!;
    if (n > 63 || i + 1 + n > packet.length) return undefined;
    labels.push(packet.subarray(i + 1, i + 1 + n).toString('latin1'));
    i += 1 + n;
  }
  return labels.length > 0 ? labels.join('.') : undefined;
}

export const isLoopback = (address: string): boolean => /^127\./.test(address) || address === '::1' || /^::ffff:127\./i.test(address);

const SOCKADDR = /\{sa_family=(AF_[A-Z0-9]+)([^{}]*)\}/g;

export function parseStraceNetwork(log: string): TracedNetwork {
  const attempts: NetworkAttempt[] = [];
  const local: LocalSocket[] = [];
  const connected = new Map<string, { address: string; port: number }>();
  for (const line of log.split('\n')) {
    const m = /^(\d+)\s+(connect|sendto|sendmsg|sendmmsg)\((\d+),(.*)$/.exec(line);
    if (!m) continue;
    const pid = Number(m[1]);
    const syscall = m[2]!;
    const fd = m[3]!;
    const rest = m[4]!;
    const result = /(= .*|<unfinished \.\.\.>)\s*$/.exec(rest)?.[1] ?? '';
    const payloadHex = /^\s*"((?:\\x[0-9a-f]{2})*)"/.exec(rest)?.[1] ?? /iov_base="((?:\\x[0-9a-f]{2})*)"/.exec(rest)?.[1];
    let sawAddress = false;
    for (const s of rest.matchAll(SOCKADDR)) {
      const family = s[1]!;
      const fields = s[2]!;
      sawAddress = true;
      if (family === 'AF_INET' || family === 'AF_INET6') {
        const port = Number(/sin6?_port=htons\((\d+)\)/.exec(fields)?.[1] ?? NaN);
        const raw = /inet_addr\("((?:\\x[0-9a-f]{2})*)"\)/.exec(fields)?.[1] ?? /inet_pton\(AF_INET6, "((?:\\x[0-9a-f]{2})*)"/.exec(fields)?.[1] ?? '';
        const address = unhex(raw).toString('latin1');
        const dnsName = port === 53 && payloadHex && syscall !== 'connect' ? dnsQuestion(unhex(payloadHex)) : undefined;
        attempts.push({ pid, syscall, family, address, port, ...(dnsName ? { dnsName } : {}), result });
        if (syscall === 'connect') connected.set(`${pid}:${fd}`, { address, port });
      } else if (family === 'AF_UNIX') {
        const path = /sun_path=(@?)"((?:\\x[0-9a-f]{2})*)"/.exec(fields);
        local.push({ pid, syscall, family, ...(path ? { path: `${path[1]}${unhex(path[2]!).toString('utf8')}` } : {}) });
      } else if (family !== 'AF_UNSPEC') local.push({ pid, syscall, family });
    }
    // A query on a socket connected to a resolver names its host in the payload.
    if (!sawAddress && syscall !== 'connect' && payloadHex) {
      const peer = connected.get(`${pid}:${fd}`);
      const name = peer?.port === 53 ? dnsQuestion(unhex(payloadHex)) : undefined;
      if (peer && name) attempts.push({ pid, syscall, family: peer.address.includes(':') ? 'AF_INET6' : 'AF_INET', address: peer.address, port: 53, dnsName: name, result });
    }
  }
  return { attempts, local };
}
