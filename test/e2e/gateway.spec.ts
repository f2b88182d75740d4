// The Gateway view (issue 23) against a real gateway: `strata gateway` in front of a loopback
// Anthropic upstream, with the control room it serves open in Chromium. Calls go through the
// gateway with fetch, as a client would; the view shows them live, switches the session to manage,
// shows the generation and the original request, and stops and starts the gateway.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { type AnthropicLoopback, startAnthropicLoopback } from '../support/loopback';

let upstream: AnthropicLoopback;
let child: ChildProcess | undefined;
let home: string;
let out = '';
let controlRoom = '';

test.beforeEach(async () => {
  out = '';
  home = mkdtempSync(join(tmpdir(), 'strata-e2e-gateway-'));
  upstream = await startAnthropicLoopback({ cacheMinTokens: 64 });
});

/** `strata gateway` on any free port in front of the loopback upstream, with `extra` options; waits for its addresses. */
async function launch(extra: string[] = [], mode: 'observe' | 'manage' = 'observe'): Promise<void> {
  const c = spawn(process.execPath, ['out/main/cli.js', 'gateway', '--port', '0', '--anthropic-upstream', upstream.url, ...extra], { env: { ...process.env, STRATA_HOME: home, STRATA_DEMO_TICK_MS: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
  child = c;
  c.stdout?.on('data', (b: Buffer) => (out += b.toString()));
  c.stderr?.on('data', (b: Buffer) => (out += b.toString()));
  await expect.poll(() => out, { timeout: 90_000 }).toMatch(new RegExp(`Strata gateway \\(${mode} mode\\): http://127\\.0\\.0\\.1:\\d+`));
  controlRoom = /Strata control room \(.*\): (http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]+)/.exec(out)![1]!;
}

test.afterEach(async () => {
  const c = child;
  child = undefined;
  if (c && c.exitCode === null) {
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGTERM');
    await exited;
  }
  await upstream.close();
  rmSync(home, { recursive: true, force: true });
});

const session = randomUUID();
const SYSTEM = `You are a careful coding agent. ${'Follow the repository conventions and explain what you change. '.repeat(20)}`;
const FILE = `export function add(a: number, b: number): number {\n  return a + b;\n}\n${'// filler line to make the tool result sizeable\n'.repeat(60)}`;

/** The conversation after `turns` steps: a question, a tool_use and its tool_result, then follow-ups. */
function conversation(turns: number): unknown[] {
  const messages: unknown[] = [{ role: 'user', content: 'Read src/add.ts and tell me what it does.' }];
  if (turns >= 2) {
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_read_1', name: 'Read', input: { file_path: 'src/add.ts' } }] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_read_1', content: FILE }] });
  }
  if (turns >= 3) {
    messages.push({ role: 'assistant', content: [{ type: 'text', text: 'It adds two numbers.' }] });
    messages.push({ role: 'user', content: 'Now add a subtract function next to it.' });
  }
  return messages;
}

/** One /v1/messages call through the gateway as Claude Code sends it (its user agent and session header). */
async function send(origin: string, turns: number): Promise<void> {
  const body = JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 64, system: [{ type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral' } }], messages: conversation(turns) });
  const res = await fetch(`${origin}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'sk-e2e-test', 'anthropic-version': '2023-06-01', 'user-agent': 'claude-cli/2.1.332 (external, sdk-cli)', 'x-claude-code-session-id': session },
    body,
  });
  expect(res.status).toBe(200);
  await res.text();
}

const originIn = async (page: Page): Promise<string> => (await page.getByRole('region', { name: 'Gateway status' }).locator('.gw__origin').textContent())!;

test('the Gateway view follows a session live, switches it to manage, shows its generation and request, and stops and starts the gateway', async ({ page }, testInfo) => {
  test.setTimeout(170_000);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  await launch();
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.goto(controlRoom);
  await expect(page.locator('[data-connection="open"]')).toBeVisible();
  // The shortcut opens the view, as the "?" list says.
  await page.keyboard.press('Shift+Slash');
  const shortcuts = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(shortcuts).toContainText('Show the Gateway view');
  await page.keyboard.press('Escape');
  await expect(shortcuts).toHaveCount(0);
  await page.keyboard.press('7');
  await expect(page.getByRole('tab', { name: 'Gateway' })).toHaveAttribute('aria-selected', 'true');
  const status = page.getByRole('region', { name: 'Gateway status' });
  await expect(status.getByText('running', { exact: true })).toBeVisible();
  const origin = await originIn(page);
  expect(out).toContain(`Strata gateway (observe mode): ${origin}`);
  await expect(status).toContainText(`Anthropic calls go to ${upstream.url}`);
  await expect(status.getByRole('list', { name: 'Point a client at the gateway' })).toContainText(`ANTHROPIC_BASE_URL=${origin}`);
  await expect(page.getByRole('region', { name: 'Gateway sessions' })).toContainText('No sessions yet');

  // Two observed calls: the second extends the first with a tool_use / tool_result pair.
  await send(origin, 1);
  await send(origin, 2);
  const sessions = page.getByRole('table', { name: 'Gateway sessions' });
  const row = sessions.locator('tbody tr').first();
  await expect(row).toContainText('claude-cli');
  await expect(row.locator('td').nth(3)).toHaveText('2');
  await row.getByRole('button', { name: /^Show session/ }).click();
  const calls = page.getByRole('table', { name: 'Calls of main' });
  await expect(calls.locator('tbody tr')).toHaveCount(2);
  const newest = calls.locator('tbody tr').first();
  await expect(newest.locator('td').nth(0)).toContainText(' · 200');
  await expect(newest.locator('td').nth(7)).toHaveText('appended');
  await expect(calls.locator('tbody tr').nth(1).locator('td').nth(7)).toHaveText('first call');
  // Usage and money as the upstream reported them (the loopback bills every call).
  await expect(newest.locator('td').nth(1)).toHaveText(/^\d/);
  await expect(newest.locator('td').nth(2)).toHaveText(/^\d/);
  await expect(newest.locator('td').nth(5)).toHaveText(/^\$\d/);
  expect(upstream.requests).toHaveLength(2);
  await expect(row.locator('td').nth(6)).toHaveText(/^\$\d/);

  // Manage from the next call on.
  const detail = page.getByRole('region', { name: /^Gateway session / });
  await expect(detail).toContainText('A switch applies from the session’s next call.');
  await detail.getByRole('group', { name: 'Session mode' }).getByRole('button', { name: 'Manage' }).click();
  await expect(detail.getByRole('group', { name: 'Session mode' }).getByRole('button', { name: 'Manage' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('status').filter({ hasText: 'manage mode from its next call on' })).toBeVisible();
  await send(origin, 3);
  await expect(calls.locator('tbody tr')).toHaveCount(3);
  await expect(calls.locator('tbody tr').first().locator('td').nth(9)).toContainText('gen 1 · boundary yes');
  // Nothing was hidden yet, so the first managed call appends to what the observed calls sent.
  await expect(calls.locator('tbody tr').first().locator('td').nth(7)).toHaveText('appended');
  const generations = page.getByRole('region', { name: 'Generations of main' });
  await expect(generations.getByRole('list', { name: 'Generations' })).toContainText('Generation 1');
  await expect(generations).toContainText('apply at the thread’s next generation boundary');
  // Pin the tool result the generation kept whole: the host records it for the thread's next call.
  const whole = generations.getByRole('list', { name: 'Whole in generation 1' });
  await whole.getByRole('button', { name: 'Pin toolu_read_1' }).click();
  await expect(whole.getByRole('button', { name: 'Unpin toolu_read_1' })).toBeVisible();
  await expect(whole.getByRole('button', { name: 'Remove toolu_read_1' })).toBeDisabled();
  await expect(page.getByRole('status').filter({ hasText: 'toolu_read_1 pinned' })).toBeVisible();

  // The managed call's original request, pretty-printed, never the key.
  await calls.locator('tbody tr').first().getByRole('button', { name: /original and rewritten request/ }).click();
  const viewer = page.getByRole('region', { name: /^Request of call / });
  const original = viewer.getByLabel('Original request');
  await expect(original).toContainText('"tool_use_id": "toolu_read_1"');
  await expect(original).toContainText('Now add a subtract function');
  await expect(viewer).not.toContainText('sk-e2e-test');
  await viewer.getByRole('searchbox', { name: 'Search the requests' }).fill('toolu_read_1');
  await expect(viewer.getByRole('status')).toContainText('2 in the original');

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1280, 1024]) {
      await page.setViewportSize({ width, height: 860 });
      await expect.poll(() => page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth), { message: `sideways scroll at ${width} px` }).toBeLessThanOrEqual(0);
      // The view scrolls inside the main area: its top (status, sessions), then the request viewer.
      await page.locator('.main').evaluate((el) => el.scrollTo(0, 0));
      await page.screenshot({ path: testInfo.outputPath(`gateway-${scheme}-${width}.png`) });
      await viewer.scrollIntoViewIfNeeded();
      await page.screenshot({ path: testInfo.outputPath(`gateway-request-${scheme}-${width}.png`) });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 860 });

  // Stop: the sessions stay readable and the view says how to start it again.
  await status.getByRole('button', { name: 'Stop gateway' }).click();
  await expect(status.getByText('stopped', { exact: true })).toBeVisible();
  await expect(status).toContainText('npx strata gateway');
  await expect(sessions.locator('tbody tr')).toHaveCount(1);
  // Start again, on any free port: a fresh gateway with no sessions yet.
  await status.getByRole('textbox', { name: 'Port' }).fill('0');
  await status.getByRole('button', { name: 'Start gateway' }).click();
  await expect(status.getByText('running', { exact: true })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'The gateway is listening at' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Gateway sessions' })).toContainText('No sessions yet');
  const again = await originIn(page);
  await send(again, 1);
  await expect(page.getByRole('table', { name: 'Gateway sessions' }).locator('tbody tr')).toHaveCount(1);

  expect(problems).toEqual([]);
});

/** A Claude-Code-like turn loop of `reads` file reads, each result about 1,800 o200k tokens, with its own session id. */
function readLoop(reads: number): unknown[] {
  const messages: unknown[] = [{ role: 'user', content: 'Read the store modules one by one and summarise them.' }];
  for (let i = 1; i <= reads; i++) {
    const path = `src/store/module${i}.ts`;
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `toolu_mod_${i}`, name: 'Read', input: { file_path: path } }] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_mod_${i}`, content: `export const module${i} = ${i};\n${`// module ${i}: a line of the file that the agent read, kept long on purpose\n`.repeat(120)}` }] });
  }
  return messages;
}

test('[gateway-cli] a managed session past its high watermark: the view shows the boundary, the generation that compressed old results, its diff, and the rewritten request', async ({ page }) => {
  test.setTimeout(170_000);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  // A 40,000-token window: a generation ends past 16,000 tokens and hides old results down to 10,000.
  await launch(['--manage', '--context-window', '40000'], 'manage');
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.goto(controlRoom);
  await expect(page.locator('[data-connection="open"]')).toBeVisible();
  await page.getByRole('tab', { name: 'Gateway' }).click();
  const origin = await originIn(page);
  const id = randomUUID();
  for (let reads = 0; reads <= 12; reads++) {
    const res = await fetch(`${origin}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'sk-e2e-test', 'anthropic-version': '2023-06-01', 'user-agent': 'claude-cli/2.1.332 (external, sdk-cli)', 'x-claude-code-session-id': id },
      body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 64, system: [{ type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral' } }], messages: readLoop(reads) }),
    });
    expect(res.status).toBe(200);
    await res.text();
  }
  // What went upstream last is smaller than what the client sent: old reads became placeholders.
  const last = upstream.requests.at(-1)!;
  expect(JSON.stringify(last.body)).toContain('[strata: ');
  expect(JSON.stringify(last.body)).toContain('toolu_mod_12');

  await page.getByRole('table', { name: 'Gateway sessions' }).locator('tbody tr').first().getByRole('button', { name: /^Show session/ }).click();
  const calls = page.getByRole('table', { name: 'Calls of main' });
  await expect(calls.locator('tbody tr')).toHaveCount(13);
  // Newest first. The first call is a boundary, and so is the call that passed the high watermark;
  // the calls after it append to the rewritten prefix (hysteresis: down to the low watermark).
  const cells = (i: number) => calls.locator('tbody tr').evaluateAll((rows, n) => rows.map((r) => r.querySelectorAll('td')[n]?.textContent ?? ''), i);
  const managed = await cells(9);
  const breaks = await cells(7);
  expect(managed.at(-1)).toMatch(/^gen 1 · boundary yes/);
  expect(breaks.at(-1)).toBe('first call');
  // Each call past the high watermark opens a generation and re-sends a prefix with more hidden; every
  // other call appends to its generation's prefix, so the provider's cache reads it.
  const boundaries = managed.flatMap((t, i) => (/boundary yes/.test(t) ? [i] : []));
  expect(boundaries.length, JSON.stringify(managed)).toBeGreaterThanOrEqual(2);
  expect(boundaries.length, JSON.stringify(managed)).toBeLessThanOrEqual(4);
  for (const [i, text] of managed.entries()) {
    if (boundaries.includes(i)) continue;
    expect(text, `call ${managed.length - i}`).toMatch(/^gen \d+ · boundary no/);
    expect(breaks[i], `call ${managed.length - i}`).toBe('appended');
  }
  expect(managed[boundaries[0]!]).toMatch(new RegExp(`^gen ${boundaries.length} · boundary yes · \\d+k→\\d+k tokens$`));
  const generations = page.getByRole('region', { name: 'Generations of main' });
  await expect(generations.getByRole('list', { name: 'Generations' })).toContainText('Generation 2');
  await generations.getByRole('button', { name: /^Generation 2/ }).click();
  const compressed = generations.getByRole('table', { name: 'Compressed in generation 2' });
  await expect(compressed.locator('tbody tr').first()).toContainText('toolu_mod_1');
  expect(await compressed.locator('tbody tr').count()).toBeGreaterThanOrEqual(3);
  // The diff against generation 1 names what became compressed, with its tokens before and after.
  const diff = generations.getByRole('list', { name: 'Changes since generation 1' });
  await expect(diff.getByRole('listitem').filter({ hasText: 'toolu_mod_1' })).toContainText(/compressed toolu_mod_1 Read [\d.]+k?→\d+ tokens/);
  // Pin a compressed result: it comes back whole at the next boundary.
  await compressed.getByRole('button', { name: 'Pin toolu_mod_1' }).click();
  await expect(compressed.getByRole('button', { name: 'Unpin toolu_mod_1' })).toBeVisible();

  // The newest call's rewritten request holds the placeholders; the original holds the whole reads.
  await calls.locator('tbody tr').first().getByRole('button', { name: /original and rewritten request/ }).click();
  const viewer = page.getByRole('region', { name: /^Request of call / });
  await expect(viewer.getByLabel('Rewritten request')).toContainText('[strata: ');
  await expect(viewer.getByLabel('Original request')).toContainText('module 1: a line of the file');
  await expect(viewer).not.toContainText('sk-e2e-test');
  await page.locator('.main').evaluate((el) => el.scrollTo(0, 0));
  await page.screenshot({ path: test.info().outputPath('gateway-managed-1280.png') });
  for (const width of [1280, 1024]) {
    await page.setViewportSize({ width, height: 860 });
    await calls.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath(`gateway-managed-calls-${width}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 860 });
  await viewer.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('gateway-managed-request-1280.png') });
  expect(problems).toEqual([]);
});
