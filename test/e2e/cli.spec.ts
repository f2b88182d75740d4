// The `strata` command as a user runs it (issue 21 item 11): package.json's bin, through `npx` in
// the project, after the build this suite made (so the command finds it current and builds nothing).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string; bin: Record<string, string> };

test('[cli-bin] package.json names an executable `strata` command that runs the CLI with its arguments', () => {
  const bin = pkg.bin['strata'] ?? '';
  expect(bin).toBe('electron/cli/bin.mjs');
  accessSync(bin, constants.X_OK);
  expect(readFileSync(bin, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
  const r = spawnSync(bin, ['help'], { encoding: 'utf8' });
  expect(r.status).toBe(0);
  expect(r.stdout.startsWith(`strata ${pkg.version}: variable context engine for coding agents`)).toBe(true);
  // The build is current: the command says nothing of building, on either stream.
  expect(r.stderr).not.toContain('building');
});

test('[cli-bin] `npx strata health` in the project prints the workspace health as JSON on stdout, nothing else', () => {
  const home = mkdtempSync(join(tmpdir(), 'strata-bin-'));
  try {
    const out = execFileSync('npx', ['--offline', 'strata', 'health'], { encoding: 'utf8', env: { ...process.env, STRATA_HOME: home } });
    const health = JSON.parse(out) as { ok: boolean; version: string; workspace: { name: string; catalogPath: string } };
    expect(health).toMatchObject({ ok: true, version: pkg.version, workspace: { name: 'demo' } });
    expect(health.workspace.catalogPath.startsWith(home)).toBe(true);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test('[gateway-cli] `strata gateway` prints its address, the client lines and the control room, and forwards a call byte for byte', async () => {
  const home = mkdtempSync(join(tmpdir(), 'strata-gw-'));
  const received: Buffer[] = [];
  const upstream = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push(Buffer.concat(chunks));
      const body = JSON.stringify({ id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', usage: { input_tokens: 12, output_tokens: 1 } });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const child = spawn(pkg.bin['strata']!, ['gateway', '--port', '0', '--anthropic-upstream', upstreamUrl], { env: { ...process.env, STRATA_HOME: home, STRATA_DEMO_TICK_MS: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  try {
    await expect.poll(() => out, { timeout: 90_000 }).toMatch(/Strata gateway \(observe mode\): http:\/\/127\.0\.0\.1:\d+\n[\s\S]*OpenAI SDKs/);
    expect(out).toMatch(/Strata control room \(demo workspace, catalog .*\): http:\/\/127\.0\.0\.1:\d+\/\?token=/);
    expect(out).toContain(`Anthropic calls go to ${upstreamUrl}`);
    const origin = /Strata gateway \(observe mode\): (http:\/\/127\.0\.0\.1:\d+)/.exec(out)![1]!;
    expect(out).toContain(`ANTHROPIC_BASE_URL=${origin}`);
    expect(out).toContain(`base_url = "${origin}/v1"`);
    const body = '{"model":"claude-sonnet-4-5","max_tokens":16,"unknown_field":{"kept":true},"messages":[{"role":"user","content":"hi"}]}';
    const res = await fetch(`${origin}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'sk-test', 'anthropic-version': '2023-06-01' }, body });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { content: { text: string }[] }).content[0]!.text).toBe('ok');
    expect(received.map((b) => b.toString())).toEqual([body]);
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await new Promise<void>((r) => upstream.close(() => r()));
    rmSync(home, { recursive: true, force: true });
  }
});
