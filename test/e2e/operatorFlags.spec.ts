import { expect as baseExpect, test } from '@playwright/test';
import { screenshots } from './screenshots';
import { startWebHostProcess, type RunningWebHost } from './webHostProcess';

// Issue 22 items 3 and 7: which agent is in trouble, one clock and named budgets. A fast demo (one
// turn every 120 ms) so worker-store's context-limit refresh lands within about 20 s.
let web: RunningWebHost;
const expect = baseExpect.configure({ timeout: 30_000 });

test.beforeAll(async () => {
  web = await startWebHostProcess({ STRATA_DEMO_TICK_MS: '120' });
});

test.afterAll(async () => {
  await web?.stop();
});


test('a refreshed agent is flagged, its flag opens the generation, its retried turn shows the error, and each view names its clock and budgets', async ({ page }) => {
  test.setTimeout(170_000);
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.goto(web.url);
  await expect(page.locator('[data-connection="open"]')).toBeVisible();

  // The context-limit refresh flags worker-store's row; its tooltip says why, naming both budgets.
  const row = page.getByRole('tree').locator('[data-agent-id="worker-store"]');
  const flag = row.getByRole('button', { name: 'refreshed' });
  await expect(flag).toBeVisible({ timeout: 90_000 });
  await expect(row).toHaveAttribute('aria-label', /flagged: refreshed/);
  const title = (await row.locator('.tree__select').getAttribute('title')) ?? '';
  expect(title).toContain('Refreshed by a context limit into generation 2');
  expect(title).toMatch(/provider window 200k; engine budget \d+k/);
  await screenshots(page, 'tree-flags');

  // A reload keeps the flag: it is read from how the agent's generation began, which the host keeps,
  // not from the events this page saw. The run is paused first, so the agent stays in generation 2.
  const bar = page.getByRole('group', { name: 'Run controls' });
  await bar.getByRole('button', { name: /Pause/ }).click();
  await expect(bar.getByRole('button', { name: /Resume/ })).toBeVisible();
  await expect(flag).toBeVisible();
  const paused = { title: (await row.locator('.tree__select').getAttribute('title')) ?? '', label: (await row.getAttribute('aria-label')) ?? '' };
  expect(paused.title).toContain('Refreshed by a context limit into generation 2');
  await page.reload();
  await expect(page.locator('[data-connection="open"]')).toBeVisible();
  await expect(flag).toBeVisible();
  await expect(row.locator('.tree__select')).toHaveAttribute('title', paused.title);
  await expect(row).toHaveAttribute('aria-label', paused.label);
  await bar.getByRole('button', { name: /Resume/ }).click();
  await expect(bar.getByRole('button', { name: /Pause/ })).toBeVisible();

  // The flag selects the agent and opens the generation the refresh led to.
  await flag.click();
  await expect(row).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tab', { name: 'Agent' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('.picker select').first()).toHaveValue('2');

  // Events: the retried turn carries the error that caused it; the view says its clock.
  await page.getByRole('tab', { name: 'Events' }).click();
  const view = page.getByRole('region', { name: 'Events' });
  await view.getByRole('button', { name: /^errors/ }).click();
  await view.getByLabel('Filter by agent').selectOption('worker-store');
  const note = view.locator('.events__note').first();
  await expect(note).toContainText('Error: provider context-limit error: prompt is too long');
  await expect(note).toContainText(/provider window 200k; engine budget \d+k/);
  await expect(view.getByRole('status')).toContainText('wall clock');
  await screenshots(page, 'events-error');

  // Charts: the recording's clock, named; each agent on its own line.
  await page.getByRole('tab', { name: 'Charts' }).click();
  const charts = page.getByRole('region', { name: 'Charts' });
  await expect(charts.getByTestId('charts-clock')).toContainText('recording time');
  await charts.getByRole('button', { name: 'Each agent' }).click();
  const each = charts.getByRole('figure', { name: 'Cache hit rate per agent' });
  await expect(each.locator('svg.recharts-surface[role="application"]')).toBeVisible();
  await expect(each.getByText('time of call (recording time)', { exact: true })).toBeVisible();
  await expect.poll(async () => each.locator('.recharts-legend-item-text').count()).toBeGreaterThan(1);
  await expect(each.locator('.recharts-legend-item-text').first()).toHaveText('worker-store');
  await screenshots(page, 'charts-each');
  expect(problems).toEqual([]);
});

test('[agent-last-error] an agent an operator cancels is flagged "error" with the reason, and a reload keeps the flag and its text', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.goto(web.url);
  await expect(page.locator('[data-connection="open"]')).toBeVisible();
  const tree = page.getByRole('tree');
  // Any worker of the run that is still working (the fast demo spawns its first within seconds).
  const worker = tree.locator('[role="treeitem"]:not([data-agent-id="primary"])[data-status="running"], [role="treeitem"]:not([data-agent-id="primary"])[data-status="waiting"]').first();
  await expect(worker).toBeVisible({ timeout: 60_000 });
  const id = (await worker.getAttribute('data-agent-id')) ?? '';
  expect(id).not.toBe('');
  const row = tree.locator(`[data-agent-id="${id}"]`);
  await row.locator('.tree__select').click();
  const controls = page.getByRole('region', { name: `Agent ${id}` }).getByRole('group', { name: 'Agent in the run' });
  await controls.getByRole('button', { name: /Cancel agent/ }).click();
  await controls.getByRole('button', { name: `Cancel ${id} for good` }).click();

  const flag = row.getByRole('button', { name: 'error' });
  await expect(flag).toBeVisible();
  await expect(row.locator('.tree__select')).toHaveAttribute('title', new RegExp(`Error: ${id} cancelled: cancelled by an operator`));
  const seen = { title: (await row.locator('.tree__select').getAttribute('title')) ?? '', label: (await row.getAttribute('aria-label')) ?? '' };
  await screenshots(page, 'tree-error-flag');

  // A new page knows it from the agent the host lists, not from log lines it never saw.
  await page.reload();
  await expect(page.locator('[data-connection="open"]')).toBeVisible();
  await expect(flag).toBeVisible();
  await expect(row.locator('.tree__select')).toHaveAttribute('title', seen.title);
  await expect(row).toHaveAttribute('aria-label', seen.label);
});
