import { expect as baseExpect, test, type Page } from '@playwright/test';
import { screenshots } from './screenshots';
import { openPausedDemo, type RunningWebHost } from './webHostProcess';

/**
 * Issue 22 items 9 and 13 against the real headless host: copies of the same read show in the
 * Context tab as one group with its count, which opens to its members; identical memory candidates
 * show as one row with their count, and promoting that row makes one memory entry. The demo is
 * paused and stepped, so the same turns always give the same copies. Screenshots light and dark at
 * three widths go to STRATA_SHOTS_DIR when it is set (`screenshots.ts`).
 */
const expect = baseExpect.configure({ timeout: 30_000 });
let web: RunningWebHost | undefined;

test.afterEach(async () => {
  await web?.stop();
  web = undefined;
});

function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  return problems;
}

test('the Context tab shows copies of the same read as one group with its count, and the group opens to its members', async ({ page }) => {
  test.setTimeout(150_000);
  const problems = watchProblems(page);
  // From the seventh turn on, the primary's generation holds files other agents read again (the demo is seeded).
  web = await openPausedDemo(page, 8, { width: 1280, height: 860 });
  const inspector = page.getByRole('region', { name: 'Context inspector' });
  const l2 = inspector.getByRole('list', { name: 'Included in L2' });
  const group = l2.locator(':scope > li[data-group-count]').first();
  await expect(group).toBeVisible();
  const count = Number(await group.getAttribute('data-group-count'));
  expect(count).toBeGreaterThan(1);
  const summary = group.locator('summary');
  const title = ((await summary.locator('.item__title').textContent()) ?? '').trim();
  expect(title).toMatch(/^read /);
  await expect(summary).toContainText(`×${count}`);
  await expect(summary).toContainText('tok in all');

  // The read is one row of its layer; the layer's heading still counts every copy.
  const rowTitles = await l2.locator(':scope > li').evaluateAll((lis) => lis.map((li) => li.querySelector('.item__title')?.textContent?.trim() ?? ''));
  expect(rowTitles.filter((t) => t === title)).toHaveLength(1);
  const rowItems = await l2.locator(':scope > li').evaluateAll((lis) => lis.map((li) => Number(li.getAttribute('data-group-count') ?? 1)));
  const heading = inspector.locator('.layer-group__title').filter({ hasText: /^\s*L2 · / });
  await expect(heading).toContainText(`L2 · ${rowItems.reduce((a, b) => a + b, 0)} items`);
  expect(rowItems.length).toBeLessThan(rowItems.reduce((a, b) => a + b, 0));

  // Closed, the copies are hidden; opened, each is a row of its own with the same title.
  const copies = group.getByRole('list', { name: `Copies of ${title}` });
  await expect(copies).toBeHidden();
  // The row shows that it opens: an arrow that turns when it does.
  const arrow = () => summary.evaluate((el) => getComputedStyle(el, '::before').content);
  expect(await arrow()).toBe('"▸"');
  await expect(summary).toHaveAttribute('aria-expanded', 'false');
  await summary.click();
  await expect(copies).toBeVisible();
  expect(await arrow()).toBe('"▾"');
  await expect(summary).toHaveAttribute('aria-expanded', 'true');
  const members = copies.locator(':scope > li');
  await expect(members).toHaveCount(count);
  expect(await members.locator('.item__title').allTextContents()).toEqual(Array.from({ length: count }, () => title));
  const ids = await members.evaluateAll((lis) => lis.map((li) => li.getAttribute('data-item-id')));
  expect(new Set(ids).size).toBe(count);
  await screenshots(page, 'context-duplicate-group', { before: () => group.scrollIntoViewIfNeeded() });

  // A member's title opens its whole text.
  await members.nth(1).getByRole('button', { name: title, exact: true }).click();
  const pane = page.getByRole('complementary', { name: 'Item content' });
  await expect(pane).toHaveAttribute('data-item-id', ids[1] as string);
  await expect(pane.locator('.item-pane__title')).toHaveText(title);

  // Closing the group folds its members away again.
  await summary.click();
  await expect(copies).toBeHidden();
  await expect(summary).toHaveAttribute('aria-expanded', 'false');
  expect(problems).toEqual([]);
});

test('the Memory view shows identical candidates once with their count, and promoting that row makes one memory entry', async ({ page }) => {
  test.setTimeout(170_000);
  const problems = watchProblems(page);
  // The scaled demo's workers replay their turns in cycles, so worker-1 meets the same finding again (by turn 33).
  web = await openPausedDemo(page, 36, { width: 1280, height: 860 }, { STRATA_DEMO_AGENTS: '3' });
  const worker = page.getByRole('tree').locator('[data-agent-id="worker-1"]');
  await worker.locator('.tree__select').click();
  await expect(worker).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('tab', { name: 'Memory' }).click();
  const view = page.getByRole('region', { name: 'Project memory' });
  const candidates = view.getByRole('region', { name: 'Candidates from this run' });
  await expect(candidates.getByRole('heading', { level: 3 })).toContainText('worker-1');

  const rows = candidates.getByRole('table', { name: 'Candidates' }).locator('tbody tr');
  const grouped = rows.filter({ has: page.locator('.mem__count') }).first();
  await expect(grouped).toBeVisible();
  const count = Number(await grouped.getAttribute('data-count'));
  expect(count).toBeGreaterThan(1);
  await expect(grouped.locator('.mem__count')).toHaveText(`×${count}`);
  await expect(grouped.getByLabel(`${count} identical items`)).toBeVisible();

  // No two rows are the same item; the heading counts the rows and every item they stand for.
  const keys = await rows.evaluateAll((trs) => trs.map((tr) => `${tr.querySelector('.mem__kind')?.textContent}|${tr.querySelector('.mem__cand-title')?.textContent}`));
  expect(new Set(keys).size).toBe(keys.length);
  const counts = await rows.evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-count'))));
  const items = counts.reduce((a, b) => a + b, 0);
  expect(items).toBeGreaterThan(counts.length);
  await expect(candidates.locator('.mem__cands-count')).toHaveText(`${counts.length} distinct of ${items} items`);
  await screenshots(page, 'memory-candidates-grouped', { before: () => grouped.scrollIntoViewIfNeeded() });

  // Promote the grouped row: one entry, and the row says it is in memory.
  const title = ((await grouped.locator('.mem__cand-title > span').first().textContent()) ?? '').trim();
  expect(title).not.toBe('');
  await grouped.getByRole('button', { name: `Promote ${title} to memory`, exact: true }).click();
  await expect(grouped).toContainText('in memory');
  const entries = view.getByRole('listitem', { name: `Memory entry ${title}` });
  await expect(entries).toHaveCount(1);
  await expect(entries.locator('.mem__state')).toHaveText('candidate');
  await expect(grouped.locator('.mem__count')).toHaveText(`×${count}`);
  expect(problems).toEqual([]);
});

test('no view scrolls the page sideways at 1280 or 1024 px: Agent (each inspector tab), Charts, Memory and Events with the demo under way', async ({ page }) => {
  test.setTimeout(150_000);
  const problems = watchProblems(page);
  web = await openPausedDemo(page, 8, { width: 1280, height: 860 });
  const overflow = () => page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);
  const check = async (what: string) => {
    for (const width of [1280, 1024]) {
      await page.setViewportSize({ width, height: 860 });
      await expect.poll(overflow, { message: `${what} scrolls sideways at ${width} px` }).toBeLessThanOrEqual(0);
    }
    await page.setViewportSize({ width: 1280, height: 860 });
  };
  const inspector = page.getByRole('tablist', { name: 'Agent inspector' });
  for (const sub of ['Context', 'Prompt', 'Diff', 'Timeline']) {
    await inspector.getByRole('tab', { name: sub, exact: true }).click();
    await expect(page.getByRole('tabpanel', { name: sub })).toBeVisible();
    await check(`Agent · ${sub}`);
  }
  for (const [tab, region] of [
    ['Charts', 'Charts'],
    ['Memory', 'Project memory'],
    ['Events', 'Events'],
  ] as const) {
    await page.getByRole('tab', { name: tab, exact: true }).click();
    await expect(page.getByRole('region', { name: region }).first()).toBeVisible();
    await check(tab);
  }
  expect(problems).toEqual([]);
});
