import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { provisionSystemTools } from '../../realClients/provisionRealClients.mjs';
import { unsharePrefix } from '../../support/realClients/realClientHarness';
import { dnsQuestion, isLoopback, parseStraceNetwork, STRACE_NETWORK_ARGS } from '../../support/realClients/straceNetwork';
import { tempDir } from '../../support/tempDir';

// The offline check must be able to fail: these tests show the namespace + strace + parser used for
// the real clients catch a TCP connect and a DNS query off loopback, and tell loopback apart.

const hex = (s: string | Buffer) => [...Buffer.from(s)].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('');
const question = (name: string) => Buffer.concat([Buffer.from([0x12, 0x34, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0]), ...name.split('.').map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l)])), Buffer.from([0, 0, 1, 0, 1])]);

describe('[real-client-offline] the network trace', () => {
  it('[real-client-offline] reads every address of connect, sendto, sendmsg and sendmmsg, DNS names included, and sets loopback and local sockets apart', () => {
    const log = [
      `10 connect(13, {sa_family=AF_INET, sin_port=htons(8765), sin_addr=inet_addr("${hex('127.0.0.1')}")}, 16) = -1 EINPROGRESS (Operation now in progress)`,
      `11 connect(7, {sa_family=AF_INET, sin_port=htons(443), sin_addr=inet_addr("${hex('192.0.2.7')}")}, 16 <unfinished ...>`,
      `12 sendto(48, "${hex(question('api.github.com'))}", 32, MSG_NOSIGNAL, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("${hex('10.255.255.53')}")}, 16) = -1 ENETUNREACH (Network is unreachable)`,
      `13 connect(9, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("${hex('10.0.0.2')}")}, 16) = 0`,
      `13 sendmmsg(9, [{msg_hdr={msg_name=NULL, msg_namelen=0, msg_iov=[{iov_base="${hex(question('ab.chatgpt.com'))}", iov_len=31}], msg_iovlen=1, msg_controllen=0, msg_flags=0}, msg_len=31}], 1, MSG_NOSIGNAL) = 1`,
      `14 sendmsg(5, {msg_name={sa_family=AF_INET6, sin6_port=htons(443), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "${hex('2001:db8::1')}", &sin6_addr), sin6_scope_id=0}, msg_namelen=28, msg_iov=[{iov_base="${hex('x')}", iov_len=1}], msg_iovlen=1, msg_controllen=0, msg_flags=0}, 0) = -1 ENETUNREACH (Network is unreachable)`,
      `15 connect(4, {sa_family=AF_INET6, sin6_port=htons(9), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "${hex('::1')}", &sin6_addr), sin6_scope_id=0}, 28) = -1 ECONNREFUSED (Connection refused)`,
      `16 connect(3, {sa_family=AF_UNIX, sun_path="${hex('/var/run/nscd/socket')}"}, 110) = -1 ENOENT (No such file or directory)`,
      `17 connect(3, {sa_family=AF_UNSPEC, sa_data="${hex('\0\0')}"}, 16) = 0`,
      `18 sendto(6, "${hex('\x01')}", 1, MSG_NOSIGNAL, NULL, 0) = 1`,
    ].join('\n');
    const traced = parseStraceNetwork(log);
    expect(traced.attempts.map((a) => [a.syscall, a.address, a.port, a.dnsName ?? null, isLoopback(a.address)])).toEqual([
      ['connect', '127.0.0.1', 8765, null, true],
      ['connect', '192.0.2.7', 443, null, false],
      ['sendto', '10.255.255.53', 53, 'api.github.com', false],
      ['connect', '10.0.0.2', 53, null, false],
      ['sendmmsg', '10.0.0.2', 53, 'ab.chatgpt.com', false],
      ['sendmsg', '2001:db8::1', 443, null, false],
      ['connect', '::1', 9, null, true],
    ]);
    expect(traced.local).toEqual([{ pid: 16, syscall: 'connect', family: 'AF_UNIX', path: '/var/run/nscd/socket' }]);
    expect(dnsQuestion(Buffer.from([1, 2, 3]))).toBeUndefined();
  });

  it('[real-client-offline] inside the namespace under strace, a probe\'s connect and DNS query off loopback are caught and its loopback connect is not', () => {
    const tools = provisionSystemTools();
    const { dir, remove } = tempDir('strata-nettrace-');
    try {
      const log = join(dir, 'strace.log');
      const probe = [
        "const net = require('node:net'); const dgram = require('node:dgram');",
        `const q = Buffer.from('${question('probe.example').toString('hex')}', 'hex');`,
        "const s = dgram.createSocket('udp4'); s.on('error', () => {});",
        "s.send(q, 53, '10.255.255.53', () => { s.close();",
        "  net.connect(443, '192.0.2.7').on('error', () => net.connect(9, '127.0.0.1').on('error', () => process.exit(0))); });",
      ].join('\n');
      const r = spawnSync(
        unsharePrefix(tools.unshare)[0]!,
        [...unsharePrefix(tools.unshare).slice(1), 'sh', '-c', `"${tools.ip}" link set lo up && exec "$@"`, 'sh', tools.strace, ...STRACE_NETWORK_ARGS, '-o', log, '--', process.execPath, '-e', probe],
        { encoding: 'utf8', timeout: 120_000 },
      );
      expect(r.status, r.stderr).toBe(0);
      const attempts = parseStraceNetwork(readFileSync(log, 'utf8')).attempts;
      const off = attempts.filter((a) => !isLoopback(a.address));
      expect(off.map((a) => `${a.address}:${a.port}${a.dnsName ? ` ${a.dnsName}` : ''}`).sort()).toEqual(['10.255.255.53:53 probe.example', '192.0.2.7:443']);
      expect(attempts.some((a) => a.address === '127.0.0.1' && a.port === 9)).toBe(true);
    } finally {
      remove();
    }
  });
});
