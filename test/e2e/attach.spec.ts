import { expect as baseExpect, test } from '@playwright/test';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { madeUpSession, SECRETS } from '../support/liveSessionFixture';
import { startWebHostProcess, type RunningWebHost } from './webHostProcess';

// A Claude Code session being written while the control room watches it: the session folder is
// a temp CLAUDE_CONFIG_DIR, so discovery finds exactly this file; the demo is paused (tick 0) so
// the session is the only thing moving.
const expect = baseExpect.configure({ timeout: 30_000 });
let web: RunningWebHost;
let dir: string;
let file: string;
const lines = madeUpSession(30);

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'strata-e2e-attach-'));
  const project = join(dir, 'claude', 'projects', '-home-dev-login-service');
  mkdirSync(project, { recursive: true });
  file = join(project, '6f1c9e2a-made-up.jsonl');
  writeFileSync(file, `${lines.slice(0, 6).join('\n')}\n`);
  web = await startWebHostProcess({ CLAUDE_CONFIG_DIR: join(dir, 'claude'), CODEX_HOME: join(dir, 'codex'), STRATA_DEMO_TICK_MS: '0' });
});

test.afterAll(async () => {
  await web?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('attach to a growing Claude Code session: the tree, the inspector and the real/Strata charts follow it', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(web.url);
  await expect(page.locator('[data-connection="open"]')).toBeVisible();

  // The Attach entry lists the session from the standard folder, with its project and model.
  await page.getByRole('button', { name: 'Attach session…' }).click();
  const picker = page.getByRole('region', { name: 'Attach a session' });
  const row = picker.locator(`[data-path="${file}"]`);
  await expect(row).toContainText('login-service');
  await expect(row).toContainText('claude-made-up-1');
  await expect(row).toContainText('growing');
  await picker.getByLabel('Budget').fill('4000');
  await row.getByRole('button', { name: /^Attach Claude Code session login-service/ }).click();

  const attached = page.getByRole('list', { name: 'Attached sessions' }).locator('[data-session-id="ses-1"]');
  await expect(attached).toContainText('following');
  await expect(attached).toContainText('Strata variable @ 4k');
  const tree = page.getByRole('tree');
  await expect(tree.locator('[data-agent-id="ses-1"]')).toBeVisible();
  await attached.getByRole('button', { name: /^Show ses-1/ }).click();
  const compare = page.getByRole('region', { name: 'Real vs Strata · ses-1' });
  await expect(compare).toBeVisible();

  // The agent writes on, a few lines a second, the last line in two halves.
  const linesShown = async () => Number(/([\d,]+) lines/.exec((await attached.textContent()) ?? '')?.[1]?.replace(/,/g, '') ?? 0);
  const stepsShown = async () => compare.locator('.recharts-line-curve').count();
  const before = await linesShown();
  expect(before).toBe(6);
  for (const line of lines.slice(6, -1)) {
    appendFileSync(file, `${line}\n`);
    await page.waitForTimeout(60);
  }
  const last = lines.at(-1) as string;
  appendFileSync(file, last.slice(0, 30));
  await page.waitForTimeout(300);
  await expect.poll(linesShown, { timeout: 20_000 }).toBe(lines.length - 1);
  appendFileSync(file, `${last.slice(30)}\n`);
  await expect.poll(linesShown, { timeout: 20_000 }).toBe(lines.length);

  // The subagent is the session's child in the tree; both are marked as watched sessions.
  await expect(tree.locator('[data-agent-id="ses-1/explorer"]')).toBeVisible();
  // Both series, recorded and Strata's, on every chart, with axes and legends.
  await expect(compare.locator('.recharts-legend-item-text').filter({ hasText: 'recorded (provider)' }).first()).toBeVisible();
  await expect(compare.locator('.recharts-legend-item-text').filter({ hasText: 'Strata variable @ 4k (Anthropic cache model)' }).first()).toBeVisible();
  expect(await stepsShown()).toBeGreaterThanOrEqual(6);
  await expect(compare.locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value').first()).toBeVisible();
  await expect(compare.locator('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value').first()).toBeVisible();
  // Strata's replay caught up with the file.
  await expect(attached).not.toContainText('replayed', { timeout: 20_000 });

  // The inspector shows the counterfactual context Strata would have sent, read-only.
  const inspector = page.getByRole('region', { name: 'Context inspector' });
  await expect(inspector).toBeVisible();
  await expect(inspector).toContainText('src/auth/module');
  await expect(page.getByText('Watching an attached session: read-only').first()).toBeVisible();
  // [live-windows] [live-title] The real client's context and Strata's replay are two named figures, each
  // against its own window; the session is titled by its first real request.
  const meters = page.locator('.session-meters').first();
  await expect(meters).toContainText('Claude Code');
  await expect(meters).toContainText('Strata replay');
  await expect(meters.locator('[title*="Claude Code\'s context (real) against its"]')).toHaveCount(1);
  await expect(meters.locator('[title*="Strata\'s replay context against its 4k replay budget"]')).toHaveCount(1);
  await expect(tree.locator('[data-agent-id="ses-1"]')).toContainText('Fix the login bug');
  await page.screenshot({ path: testInfo.outputPath('attach.png'), fullPage: true });

  // No secret of the session is on the page; their masks are.
  const html = await page.content();
  for (const secret of SECRETS) expect(html).not.toContain(secret);

  // Detach: the session and its agents leave the rail and the tree.
  await attached.getByRole('button', { name: 'Detach ses-1' }).click();
  await expect(tree.locator('[data-agent-id="ses-1"]')).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'Attached sessions' }).locator('[data-session-id="ses-1"]')).toHaveCount(0);
  expect(problems).toEqual([]);
});
