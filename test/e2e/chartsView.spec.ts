import { expect as baseExpect, test, type Page } from '@playwright/test';
import { startWebHostProcess, type RunningWebHost } from './webHostProcess';

// A fast demo (one turn every 120 ms) so its first context-limit refresh (worker-store, about
// step 175) lands within about 20 s, well before the run ends (330 steps) and starts over.
let web: RunningWebHost;
// The machine may be shared with other builds: allow the page time.
const expect = baseExpect.configure({ timeout: 30_000 });

test.beforeAll(async () => {
  web = await startWebHostProcess({ STRATA_DEMO_TICK_MS: '120' });
});

test.afterAll(async () => {
  await web?.stop();
});

const watchProblems = (page: Page) => {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  return problems;
};

test('the charts fill from the live demo, with axes, legends and a refresh marker', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const problems = watchProblems(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(web.url);
  await expect(page.locator('[data-connection="open"]')).toBeVisible();
  await page.getByRole('tab', { name: 'Charts' }).click();

  // The worker that hits the context limit first.
  const tree = page.getByRole('tree');
  await tree.locator('[data-agent-id="worker-store"] .tree__select').click({ timeout: 20_000 });
  const charts = page.getByRole('region', { name: 'Charts' });
  await expect(charts.getByLabel('Agent for the charts')).toHaveValue('worker-store');
  await expect(charts.getByText(/Cache model only \(dashed\)/)).toBeVisible();

  const rate = charts.getByRole('figure', { name: 'Cache hit rate and prefix reuse per call' });
  const tokens = charts.getByRole('figure', { name: 'Prompt tokens per turn' });
  await expect(rate.locator('svg.recharts-surface[role="application"]')).toBeVisible({ timeout: 20_000 });
  // Points arrive live: the call count grows.
  const count = async () => Number(/^(\d+) call/.exec((await charts.getByTestId('charts-count').textContent()) ?? '')?.[1] ?? 0);
  const first = await count();
  await expect.poll(count, { timeout: 20_000 }).not.toBe(first);

  for (const fig of [rate, tokens]) {
    await expect(fig.locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value').first()).toBeVisible();
    await expect(fig.locator('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value').first()).toBeVisible();
    await expect(fig.getByText('time of call (recording time)', { exact: true })).toBeVisible();
  }
  await expect(rate.getByText('% of prompt tokens', { exact: true })).toBeVisible();
  await expect(tokens.getByText('prompt tokens per turn', { exact: true })).toBeVisible();
  await expect(rate.locator('.recharts-legend-item-text')).toHaveText(['hit rate · provider', 'hit rate · cache model', 'prefix reuse (measured)', 'refresh ⟳ / new generation +']);
  await expect(tokens.locator('.recharts-legend-item-text')).toHaveText(['cache read · cache model', 'cache write · cache model', 'uncached input · cache model']);
  await expect(rate.locator('.recharts-line-curve[name="hit rate · cache model"]')).toBeVisible();

  // worker-store's context-limit refresh shows as a marker on both time axes.
  await expect(rate.locator('.chart-marker--refresh')).toHaveCount(1, { timeout: 60_000 });
  await expect(tokens.locator('.chart-marker--refresh')).toHaveCount(1);
  await expect(charts.getByTestId('chart-markers')).toContainText('⟳ refresh worker-store');
  await page.screenshot({ path: testInfo.outputPath('charts-agent.png') });

  // All agents: keyboard-reachable scope buttons.
  await charts.getByRole('button', { name: 'All agents' }).focus();
  await page.keyboard.press('Enter');
  await expect(charts.getByRole('button', { name: 'All agents' })).toHaveAttribute('aria-pressed', 'true');
  await expect(charts.getByTestId('charts-count')).toContainText(/all \d+ agents/);
  await expect(rate.locator('.recharts-line-curve[name="hit rate · cache model"]')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('charts-overall.png') });
  expect(problems).toEqual([]);
});

test('the events view lists the demo’s events newest first and filters them', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const problems = watchProblems(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(web.url);
  await expect(page.locator('[data-connection="open"]')).toBeVisible();
  await page.getByRole('tab', { name: 'Events' }).click();
  const view = page.getByRole('region', { name: 'Events' });
  const list = view.getByRole('list', { name: 'Event log entries, newest first' });
  await expect(list.getByRole('listitem').first()).toBeVisible({ timeout: 20_000 });

  // Turns only, of one agent.
  await view.getByRole('button', { name: /^turns/ }).click();
  await expect(list.locator('[data-kind]').first()).toHaveAttribute('data-kind', 'turn');
  await expect(list.locator('[data-kind]:not([data-kind="turn"])')).toHaveCount(0);
  await view.getByLabel('Filter by agent').selectOption('primary');
  await expect(list.getByRole('listitem').first()).toContainText('primary');
  await expect.poll(async () => (await list.locator('.events__agent').allTextContents()).every((t) => t === 'primary'), { timeout: 20_000 }).toBe(true);

  // Text filter over every kind; refreshes appear once the demo has one.
  await page.screenshot({ path: testInfo.outputPath('events-filtered.png') });
  await view.getByRole('button', { name: /^all/ }).click();
  await view.getByLabel('Filter by agent').selectOption('');
  await view.getByLabel('Filter events by text').fill('Context refreshed');
  await expect(list.getByRole('listitem').first()).toContainText('Context refreshed', { timeout: 60_000 });
  await expect.poll(async () => (await list.locator('.events__msg').allTextContents()).every((t) => t.includes('Context refreshed')), { timeout: 20_000 }).toBe(true);
  await view.getByLabel('Filter events by text').fill('');

  // The list is keyboard reachable and the bottom strip still shows the newest lines.
  await list.focus();
  await expect(list).toBeFocused();
  await expect(page.getByRole('contentinfo', { name: 'Event log' }).getByRole('listitem').first()).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('events.png') });
  expect(problems).toEqual([]);
});
