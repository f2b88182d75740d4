/**
 * An analyst's journey through Compare (issue 22 items 14–16) against the real headless host: an
 * empty file is refused in words, a session that records usage is compared at two budgets, the
 * table names the best value of each column and which way is better, cost is drawn against recall
 * per strategy and budget, the CSV carries the recorded table, the trace is removed and the
 * comparison still opens from the history saying so. Screenshots, light and dark at 1440, 1280 and
 * 1024 px, go to STRATA_SHOTS_DIR when it is set (`screenshots.ts`).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { madeUpSession } from '../support/liveSessionFixture';
import { screenshots } from './screenshots';
import { startWebHostProcess, type RunningWebHost } from './webHostProcess';

let web: RunningWebHost;
let scratch: string;

test.beforeAll(async () => {
  web = await startWebHostProcess();
  scratch = mkdtempSync(join(tmpdir(), 'strata-e2e-verdict-'));
});

test.afterAll(async () => {
  await web?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});


/** The Compare panel scrolls inside the window: its lower charts and its table, each shot as seen. */
const compareParts = (page: Page) => [
  { part: 'charts', target: page.getByRole('figure', { name: 'Cost against recall (top left is best)' }) },
  { part: 'table', target: page.getByRole('table', { name: 'Comparison totals' }) },
];

test('an analyst compares two budgets, reads the verdict, exports it, removes the trace and reopens the comparison', async ({ page }) => {
  const problems: string[] = [];
  page.on('console', (m) => void (m.type() === 'error' && !/Failed to load resource/.test(m.text()) && problems.push(m.text())));
  page.on('pageerror', (e) => problems.push(e.message));
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(web.url);
  await expect(page.locator('[data-connection="open"]')).toBeVisible();
  await page.getByRole('tab', { name: 'Compare' }).click();

  // Item 16: an empty file is refused in words about the file.
  const empty = join(scratch, 'empty.jsonl');
  writeFileSync(empty, '');
  await page.getByLabel('Trace file', { exact: true }).setInputFiles(empty);
  const refusal = page.getByRole('alert').filter({ hasText: 'empty.jsonl' });
  await expect(refusal).toHaveText('empty.jsonl is empty: there is nothing in it to import.');
  await expect(refusal).not.toContainText('importTraceContent');

  const file = join(scratch, 'verdict.jsonl');
  writeFileSync(file, `${madeUpSession(6).join('\n')}\n`);
  await page.getByLabel('Trace file', { exact: true }).setInputFiles(file);
  await expect(page.getByRole('status').filter({ hasText: 'Imported verdict.jsonl.' })).toBeVisible();
  for (const box of await page.getByRole('group', { name: 'Imported traces' }).getByRole('checkbox').all()) {
    const label = (await box.locator('xpath=..').textContent()) ?? '';
    await box.setChecked(label.startsWith('verdict.jsonl'));
  }
  const strategies = page.getByRole('group', { name: 'Strategies' }).getByRole('checkbox');
  for (const box of await strategies.all()) {
    const label = ((await box.locator('xpath=..').textContent()) ?? '').trim();
    await box.setChecked(['variable', 'summary', 'as recorded'].includes(label));
  }
  // A list of four budgets reads whole in its field, at 1024 px too.
  const budgetField = page.getByLabel('Budget (tokens)');
  await page.setViewportSize({ width: 1024, height: 900 });
  await budgetField.fill('4000, 8000, 16000, 32000');
  expect(await budgetField.evaluate((el: HTMLInputElement) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByLabel('Budget (tokens)').fill('4000, 16000');
  await page.getByRole('button', { name: 'Run comparison' }).click();
  // variable and summary at two budgets, as recorded once.
  await expect(page.getByText('Finished: 5 replays')).toBeVisible({ timeout: 90_000 });

  const results = page.getByRole('region', { name: 'Comparison results' });
  await expect(results.getByText(/budgets 4,000, 16,000/)).toBeVisible();
  const table = results.getByRole('table', { name: 'Comparison totals' });
  await expect(table.locator('tbody tr')).toHaveCount(5);
  // The results never widen the page: no sideways scroll at 1280 px or at 1024 px.
  for (const width of [1280, 1024]) {
    await page.setViewportSize({ width, height: 900 });
    await expect.poll(() => page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth), { message: `sideways scroll at ${width} px` }).toBeLessThanOrEqual(0);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  expect(await table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => `${r.getAttribute('data-strategy')}@${r.getAttribute('data-budget')}`))).toEqual([
    'variable@4000',
    'variable@16000',
    'summary@4000',
    'summary@16000',
    'as_recorded@none',
  ]);
  // A verdict: best cells are marked, and each judged header says which way is better.
  expect(await table.locator('td[data-best]').count()).toBeGreaterThan(0);
  await expect(table.locator('thead th').filter({ hasText: 'prompt tokens' })).toContainText('lower is better');
  await expect(table.locator('thead th').filter({ hasText: 'hit rate' })).toContainText('higher is better');
  // Money beside the tokens, from the price table.
  const heads = await table.locator('thead th').allTextContents();
  expect(heads.findIndex((h) => h.startsWith('prompt USD'))).toBe(heads.findIndex((h) => h.startsWith('prompt tokens')) + 1);

  // Cost against recall: a point per strategy and budget (as recorded has no budget: one point).
  const scatter = results.getByRole('figure', { name: 'Cost against recall (top left is best)' });
  await expect(scatter.locator('.recharts-scatter-symbol')).toHaveCount(5);
  await expect(results.getByLabel('Chart budget')).toHaveValue('4000');
  await results.getByLabel('Chart budget').selectOption('16000');
  await expect(results.getByRole('figure', { name: 'Cumulative prompt tokens per step' }).locator('.recharts-line')).toHaveCount(3);

  // The PNG holds the whole figure: the canvas is taller than the chart, for the title and legend.
  const pngDownload = page.waitForEvent('download');
  await results.getByRole('button', { name: 'Export Cost against recall (top left is best) as PNG' }).click();
  const pngBytes = readFileSync((await (await pngDownload).path()) as string);
  expect(pngBytes.subarray(1, 4).toString()).toBe('PNG');
  const pngHeight = pngBytes.readUInt32BE(20);
  const svgHeight = await scatter.locator('svg.recharts-surface').first().evaluate((s) => s.getBoundingClientRect().height);
  expect(pngHeight / 2).toBeGreaterThan(svgHeight + 30);

  // The CSV carries the recorded table as the JSON does.
  const csvDownload = page.waitForEvent('download');
  await results.getByRole('button', { name: 'Export CSV' }).click();
  const sections = readFileSync((await (await csvDownload).path()) as string, 'utf8').trimEnd().split('\n\n');
  expect(sections).toHaveLength(2);
  expect(sections[1]!.split('\n')[0]!.startsWith('recorded_trace_id,trace_name,model,calls')).toBe(true);
  expect(sections[1]).toContain('verdict.jsonl');

  await screenshots(page, 'compare-verdict', { fullPage: true, parts: compareParts(page) });

  // The history lists it; removing the trace keeps the saved result, which says the trace is gone.
  const history = page.getByRole('list', { name: 'Past comparisons' });
  await expect(history.locator('li').first()).toContainText('verdict.jsonl');
  const id = ((await history.locator('li').first().textContent()) ?? '').split(' ')[0]!;
  await page.getByRole('button', { name: 'Remove verdict.jsonl' }).click();
  await page.getByRole('group', { name: 'Remove verdict.jsonl?' }).getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByRole('group', { name: 'Imported traces' }).getByRole('checkbox', { name: /^verdict\.jsonl/ })).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: 'verdict.jsonl has been removed from the catalog' })).toBeVisible();
  await expect(history.locator('li').first()).toContainText('verdict.jsonl (removed)');

  // After a reload, the comparison opens from the history as it was saved.
  await page.reload();
  await expect(page.locator('[data-connection="open"]')).toBeVisible();
  await page.getByRole('tab', { name: 'Compare' }).click();
  await page.getByRole('button', { name: `Open ${id}` }).click();
  await expect(page.getByRole('table', { name: 'Comparison totals' }).locator('tbody tr')).toHaveCount(5);
  await expect(page.getByRole('status').filter({ hasText: 'verdict.jsonl has been removed from the catalog' })).toBeVisible();
  await screenshots(page, 'compare-reopened', { fullPage: true, parts: compareParts(page) });
  expect(problems).toEqual([]);
});
