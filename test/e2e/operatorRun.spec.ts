import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { screenshots } from './screenshots';
import { startWebHostProcess, type RunningWebHost } from './webHostProcess';

/**
 * An operator's journeys against the real headless host: the views follow the run through pause,
 * resume, Stop → Start and the per-agent controls; a host that goes away and comes back is shown.
 */
const hosts: RunningWebHost[] = [];
const homes: string[] = [];

test.afterEach(async () => {
  for (const h of hosts.splice(0)) await h.stop();
  for (const d of homes.splice(0)) rmSync(d, { recursive: true, force: true });
});


const turnOf = async (page: Page): Promise<number> => Number(/turn (\d+)/.exec((await page.locator('.runbar__label').textContent()) ?? '')?.[1] ?? -1);
const agentsOf = async (page: Page): Promise<number> => Number(/(\d+) agents?/.exec((await page.locator('.runbar__label').textContent()) ?? '')?.[1] ?? -1);

test('[run-follow] [run-progress] [run-resume] the run bar, tree and header follow the run through pause, resume, Stop → Start and agent controls', async ({ page }) => {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  const web = await startWebHostProcess({ STRATA_DEMO_TICK_MS: '150' });
  hosts.push(web);
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.goto(web.url);
  await expect(page.locator('[data-connection="open"]')).toBeVisible();
  const bar = page.getByRole('group', { name: 'Run controls' });
  await expect(bar.locator('[data-run-status="running"]')).toBeVisible();

  // The counts move with the run, not frozen at their page-load values.
  const firstTurn = await turnOf(page);
  await expect.poll(() => turnOf(page)).toBeGreaterThan(firstTurn + 10);
  await expect.poll(() => agentsOf(page), { timeout: 30_000 }).toBeGreaterThan(3);
  const tree = page.getByRole('tree', { name: 'Agent tree' });
  await expect.poll(async () => tree.getByRole('treeitem').count()).toBeGreaterThan(3);

  // Pause is not a dead end: Resume takes its place and the run carries on.
  await bar.getByRole('button', { name: /Pause/ }).click();
  await expect(bar.locator('[data-run-status="paused"]')).toBeVisible();
  const paused = await turnOf(page);
  await expect(bar.getByRole('button', { name: /Resume/ })).toBeEnabled();
  await expect(bar.getByRole('button', { name: /Start/ })).toBeDisabled();
  await screenshots(page, 'runbar-paused');
  await bar.getByRole('button', { name: /Resume/ }).click();
  await expect(bar.locator('[data-run-status="running"]')).toBeVisible();
  await expect.poll(() => turnOf(page)).toBeGreaterThan(paused);

  // Stop → Start: a new run with the same ids, its revisions after the old run's; the views show it.
  const before = await tree.getByRole('treeitem').count();
  // Stop asks first (it cannot be undone); confirm it.
  await bar.getByRole('button', { name: /Stop$/ }).click();
  await bar.getByRole('button', { name: 'Stop the run' }).click();
  await expect(bar.locator('[data-run-status="stopped"]')).toBeVisible();
  await bar.getByRole('button', { name: /Start/ }).click();
  await expect(bar.locator('[data-run-status="running"]')).toBeVisible();
  // The new run starts with its primary alone (it ticks every 1.5 s): not the old run's tree.
  await expect.poll(async () => tree.getByRole('treeitem').count()).toBeLessThan(before);
  await expect(tree.locator('[data-agent-id="primary"]')).toHaveAttribute('aria-label', /generation 1/);
  await expect.poll(() => turnOf(page)).toBeLessThan(paused);
  const restarted = await turnOf(page);
  await expect.poll(() => turnOf(page)).toBeGreaterThan(restarted);
  const header = page.locator('.topbar');
  await expect.poll(async () => Number(/\/(\d+) running/.exec((await header.textContent()) ?? '')?.[1] ?? -1)).toBe(await tree.getByRole('treeitem').count());
  // The tree and the run bar's counts keep following the new run as it spawns its agents.
  await expect.poll(() => agentsOf(page), { timeout: 30_000 }).toBeGreaterThan(1);
  await expect.poll(async () => tree.getByRole('treeitem').count()).toBe(await agentsOf(page));

  // Per agent: pause the primary, see it paused in the tree, resume it.
  const pane = page.getByRole('region', { name: 'Agent primary' });
  const controls = pane.getByRole('group', { name: 'Agent in the run' });
  await controls.getByRole('button', { name: /Pause agent/ }).click();
  await expect(pane.locator('.agent-controls').getByRole('status')).toContainText('primary paused');
  await expect(tree.locator('[data-agent-id="primary"]')).toHaveAttribute('data-status', 'paused');
  await screenshots(page, 'agent-paused');
  await controls.getByRole('button', { name: /Resume agent/ }).click();
  await expect(pane.locator('.agent-controls').getByRole('status')).toContainText('primary resumed');
  await expect(tree.locator('[data-agent-id="primary"]')).not.toHaveAttribute('data-status', 'paused');
  // Cancel asks first.
  await controls.getByRole('button', { name: /Cancel agent/ }).click();
  await expect(controls.getByRole('button', { name: 'Cancel primary for good' })).toBeVisible();
  await screenshots(page, 'agent-cancel-confirm');
  await controls.getByRole('button', { name: 'Keep it' }).click();
  await expect(controls.getByRole('button', { name: /Cancel agent/ })).toBeVisible();
  expect(problems).toEqual([]);
});

test('[host-lost] killing the host shows a banner over the views; restarted, it says the token was refused and where the new address is', async ({ page }) => {
  const home = mkdtempSync(join(tmpdir(), 'strata-e2e-'));
  homes.push(home);
  const first = await startWebHostProcess({ STRATA_DEMO_TICK_MS: '250' }, { home, port: 0 });
  const port = Number(new URL(first.url).port);
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.goto(first.url);
  await expect(page.locator('[data-connection="open"]')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Agent primary' })).toBeVisible();

  await first.stop();
  const lost = page.getByRole('alert', { name: `Lost the connection to the Strata host at 127.0.0.1:${port}` });
  await expect(lost).toBeVisible();
  await expect(lost).toContainText('Reconnecting by itself');
  await expect(page.locator('.shell--offline')).toBeVisible();
  await screenshots(page, 'host-lost');

  // The host comes back on the same address with a new token: the page's is refused, and it says so.
  const second = await startWebHostProcess({ STRATA_DEMO_TICK_MS: '250' }, { home, port });
  hosts.push(second);
  expect(second.url).not.toBe(first.url);
  await page.getByRole('button', { name: 'Reconnect now' }).click();
  const refused = page.getByRole('alert', { name: `The Strata host at 127.0.0.1:${port} refused this page's token` });
  await expect(refused).toBeVisible();
  await expect(refused).toContainText('Open the address it printed in its terminal');
  await expect(page.locator('[data-connection="refused"]')).toBeVisible();
  await screenshots(page, 'host-refused');

  // The address the host printed opens the control room again, with no banner.
  await page.goto(second.url);
  await expect(page.locator('[data-connection="open"]')).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Agent primary' })).toBeVisible();
});
