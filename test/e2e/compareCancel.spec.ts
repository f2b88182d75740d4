import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect as baseExpect, test, type Page } from '@playwright/test';
import { madeUpSession } from '../support/liveSessionFixture';
import { screenshots } from './screenshots';
import { startWebHostProcess, type RunningWebHost } from './webHostProcess';

/**
 * Issue 22 item 14 against the real headless host: an analyst cancels a long comparison with its
 * Cancel button; it stops, says it was cancelled, keeps the replays that had finished, is in the
 * history as cancelled and reopens from it, and the next comparison runs to its end. Screenshots
 * light and dark at three widths go to STRATA_SHOTS_DIR when it is set (`screenshots.ts`).
 */
const expect = baseExpect.configure({ timeout: 30_000 });
let web: RunningWebHost;
let scratch: string;

test.beforeAll(async () => {
  web = await startWebHostProcess({ STRATA_DEMO_TICK_MS: '0' });
  scratch = mkdtempSync(join(tmpdir(), 'strata-e2e-cancel-'));
});

test.afterAll(async () => {
  await web?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** Import `rounds` file reads of the made-up session as `name` and select only it. */
async function importOnly(page: Page, name: string, rounds: number) {
  const file = join(scratch, name);
  writeFileSync(file, `${madeUpSession(rounds).join('\n')}\n`);
  await page.getByLabel('Trace file', { exact: true }).setInputFiles(file);
  await expect(page.getByRole('status').filter({ hasText: `Imported ${name}.` })).toBeVisible();
  for (const box of await page.getByRole('group', { name: 'Imported traces' }).getByRole('checkbox').all()) {
    const label = (await box.locator('xpath=..').textContent()) ?? '';
    await box.setChecked(label.startsWith(name));
  }
}

/** The panel scrolls inside the window: the history with the progress under it, and the totals table, each shot as seen. */
const cancelParts = (page: Page) => [
  { part: 'history', target: page.getByRole('list', { name: 'Past comparisons' }) },
  { part: 'table', target: page.getByRole('table', { name: 'Comparison totals' }) },
];

/** Check exactly the strategies named (by their labels). */
async function pickStrategies(page: Page, labels: readonly string[] | 'all') {
  for (const box of await page.getByRole('group', { name: 'Strategies' }).getByRole('checkbox').all()) {
    const label = ((await box.locator('xpath=..').textContent()) ?? '').trim();
    await box.setChecked(labels === 'all' || labels.includes(label));
  }
}

test('[trace-compare-cancel] [trace-compare-history] an analyst cancels a running comparison: it stops, says cancelled, keeps its finished replays, and the history and the next comparison still work', async ({ page }) => {
  test.setTimeout(180_000);
  const problems: string[] = [];
  page.on('console', (m) => void (m.type() === 'error' && !/Failed to load resource/.test(m.text()) && problems.push(m.text())));
  page.on('pageerror', (e) => problems.push(e.message));
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(web.url);
  await expect(page.locator('[data-connection="open"]')).toBeVisible();
  await page.getByRole('tab', { name: 'Compare' }).click();

  // A long session under every strategy at six budgets: 32 replays of several seconds each, minutes in all.
  await importOnly(page, 'long-session.jsonl', 600);
  await pickStrategies(page, 'all');
  await page.getByLabel('Budget (tokens)').fill('4000, 8000, 16000, 32000, 64000, 128000');
  await page.getByRole('button', { name: 'Run comparison' }).click();
  const progress = page.getByRole('progressbar', { name: 'Comparison progress' });
  await expect(progress).toHaveAttribute('aria-valuetext', /^Replaying: \d+ of 32 replays done$/);
  await expect(page.getByRole('button', { name: 'Running…' })).toBeDisabled();
  // Wait for a first replay to finish, so there is something the cancel keeps.
  await expect.poll(async () => Number(await progress.getAttribute('aria-valuenow')), { timeout: 120_000 }).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Cancel comparison' }).click();

  // It stops where it was: cancelled after some of the 32, the Cancel button gone, Run offered again.
  await expect(progress).toHaveAttribute('aria-valuetext', /^Cancelled after \d+ of 32 replays$/);
  const kept = Number(await progress.getAttribute('aria-valuenow'));
  expect(kept).toBeGreaterThan(0);
  expect(kept).toBeLessThan(32);
  await expect(page.getByText(`Cancelled after ${kept} of 32 replays`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel comparison' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Run comparison' })).toBeEnabled();
  // The replays that had finished are shown, said to be those of a cancelled comparison; the stopped ones are no errors.
  const results = page.getByRole('region', { name: 'Comparison results' });
  await expect(results.getByText(/\(cancelled: the replays that had finished\)/)).toBeVisible();
  await expect(results.getByRole('table', { name: 'Comparison totals' }).locator('tbody tr')).toHaveCount(kept);
  await expect(page.getByText('Some replays failed:')).toHaveCount(0);
  const history = page.getByRole('list', { name: 'Past comparisons' });
  const cancelled = history.locator('li').filter({ hasText: 'long-session.jsonl' });
  await expect(cancelled).toHaveCount(1);
  await expect(cancelled.locator('.cmp__history-text')).toHaveText(/ · cancelled$/);
  const cancelledId = ((await cancelled.textContent()) ?? '').split(' ')[0] as string;
  await screenshots(page, 'compare-cancelled', { parts: cancelParts(page) });

  // The next comparison runs to its end and heads the history, above the cancelled one.
  await importOnly(page, 'short-session.jsonl', 6);
  await pickStrategies(page, ['variable', 'summary']);
  await page.getByLabel('Budget (tokens)').fill('4000');
  await page.getByRole('button', { name: 'Run comparison' }).click();
  await expect(page.getByText('Finished: 2 replays')).toBeVisible({ timeout: 90_000 });
  await expect(results.getByRole('table', { name: 'Comparison totals' }).locator('tbody tr')).toHaveCount(2);
  await expect(results.getByText(/\(cancelled: /)).toHaveCount(0);
  await expect(history.locator('li').first()).toContainText('short-session.jsonl');
  await expect(history.locator('li').first().locator('.cmp__history-text')).toHaveText(/· finished$/);
  await expect(history.locator('li').nth(1).locator('.cmp__history-text')).toHaveText(new RegExp(`^${cancelledId} .*· cancelled$`));

  // The cancelled comparison reopens from the history as it was saved, after a reload too.
  await page.reload();
  await expect(page.locator('[data-connection="open"]')).toBeVisible();
  await page.getByRole('tab', { name: 'Compare' }).click();
  await page.getByRole('button', { name: `Open ${cancelledId}` }).click();
  await expect(results.getByText(/\(cancelled: the replays that had finished\)/)).toBeVisible();
  await expect(results.getByRole('table', { name: 'Comparison totals' }).locator('tbody tr')).toHaveCount(kept);
  await expect(page.getByRole('button', { name: `Open ${cancelledId}` })).toHaveText('Shown');
  await screenshots(page, 'compare-cancelled-reopened', { parts: cancelParts(page) });
  expect(problems).toEqual([]);
});
