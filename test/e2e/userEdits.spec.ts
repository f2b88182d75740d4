import { expect, test, type Page } from '@playwright/test';
import { screenshots } from './screenshots';
import { openPausedDemo as openDemo, type RunningWebHost } from './webHostProcess';

/**
 * Issue 22 items 11 and 13 against the real headless host: a user types a new constraint (a bad
 * one is refused and adds nothing), edits a memory entry, undoes a verify, and reads the
 * candidates as a table with identical items grouped. Screenshots light and dark at three widths
 * go to STRATA_SHOTS_DIR when it is set (`screenshots.ts`).
 */
let web: RunningWebHost | undefined;

test.afterEach(async () => {
  await web?.stop();
  web = undefined;
});


async function openPausedDemo(page: Page, steps: number): Promise<string[]> {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  web = await openDemo(page, steps, { width: 1280, height: 800 });
  return problems;
}

test('[user-constraint] a user types a new constraint: a bad one is refused and adds nothing; a good one is pinned into L1 of the next generation', async ({ page }, testInfo) => {
  const problems = await openPausedDemo(page, 2);
  const form = page.getByRole('region', { name: 'New constraint' });
  await form.getByRole('button', { name: '+ New constraint' }).click();
  const text = form.getByLabel(/^Constraint/);
  await expect(form.getByRole('checkbox', { name: /Pin it/ })).toBeChecked();

  // Empty: refused before it is sent.
  await form.getByRole('button', { name: 'Add constraint' }).click();
  await expect(form.getByRole('alert')).toContainText('the text is empty');
  // A secret: the host's intake refuses it, names the kind, never repeats it.
  const secret = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
  await text.fill(`Push with ${secret} when done.`);
  await form.getByRole('button', { name: 'Add constraint' }).click();
  await expect(form.getByRole('alert')).toContainText('The constraint was not added: text: contains');
  await expect(form.getByRole('alert')).not.toContainText(secret);
  await expect(page.locator('[data-item-id^="constraint:user:"]')).toHaveCount(0);

  await form.getByLabel(/^Title/).fill('No new dependencies');
  await text.fill('Add no npm dependency without asking first.');
  await screenshots(page, 'new-constraint-form');
  await form.getByRole('button', { name: 'Add constraint' }).click();
  await expect(form.getByRole('status')).toContainText('Added “No new dependencies”, pinned');

  // The pin starts the next generation at the next turn; the constraint is in its L1.
  await page.getByRole('group', { name: 'Run controls' }).getByRole('button', { name: /Step/ }).click();
  const l1 = page.getByRole('region', { name: 'Context inspector' }).getByRole('list', { name: 'Included in L1' });
  const row = l1.locator('[data-item-id^="constraint:user:"]');
  await expect(row).toHaveAttribute('data-pinned', 'true', { timeout: 20_000 });
  await expect(row).toContainText('No new dependencies');
  await screenshots(page, 'new-constraint-added');
  expect(problems).toEqual([]);
});

test('[memory-edit] [memory-unverify] a user verifies and undoes it, edits a verified entry (it becomes a candidate), and reads grouped candidates', async ({ page }, testInfo) => {
  const problems = await openPausedDemo(page, 4);
  await page.getByRole('tab', { name: 'Memory' }).click();
  const view = page.getByRole('region', { name: 'Project memory' });
  const candidates = view.getByRole('region', { name: 'Candidates from this run' });
  await candidates.getByRole('button', { name: 'Reload candidates' }).click();
  const table = candidates.getByRole('table', { name: 'Candidates' });
  await expect(table.getByRole('columnheader')).toHaveText(['Title', 'Kind', 'Provenance', 'Age', 'Copies', '']);
  // One row per distinct item: no two rows share kind, title and text.
  const rows = table.locator('tbody tr');
  await expect(rows.first()).toBeVisible();
  const keys = await rows.evaluateAll((trs) => trs.map((tr) => tr.querySelector('.mem__cand-title')?.textContent ?? ''));
  expect(new Set(keys).size).toBe(keys.length);
  await screenshots(page, 'memory-candidates');

  const first = rows.filter({ has: page.getByRole('button', { name: /^Promote .* to memory$/ }) }).first();
  const title = (await first.locator('.mem__cand-title > span').first().textContent())?.trim() ?? '';
  await first.getByRole('button', { name: /^Promote .* to memory$/ }).click();
  const entry = view.getByRole('listitem', { name: `Memory entry ${title}` });
  await expect(entry.locator('.mem__state')).toHaveText('candidate');

  // Verify, then undo it.
  await entry.getByRole('button', { name: 'Verify' }).click();
  await expect(entry.locator('.mem__state')).toHaveText('verified');
  await expect(entry.getByRole('status')).toContainText('Verified');
  await entry.getByRole('button', { name: 'Undo' }).click();
  await expect(entry.locator('.mem__state')).toHaveText('candidate');
  await expect(entry).toContainText('✕ not verified');

  // Verify again, then edit: the entry becomes a candidate with the new text, at the next revision.
  await entry.getByRole('button', { name: 'Verify' }).click();
  await expect(entry.locator('.mem__state')).toHaveText('verified');
  await entry.getByRole('button', { name: 'Edit' }).click();
  const edit = entry.getByRole('form', { name: `Edit ${title}` });
  await expect(edit).toContainText('Saving makes this verified entry a candidate again');
  await edit.getByLabel('Body').fill('');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(entry.getByRole('alert')).toContainText('body is empty');
  await expect(entry.locator('.mem__state')).toHaveText('verified');
  await edit.getByLabel('Body').fill('Rotate refresh tokens on every use; keep the old one valid for 30 s.');
  await screenshots(page, 'memory-edit');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(entry.locator('.mem__state')).toHaveText('candidate');
  await expect(entry.locator('.mem__body')).toHaveText('Rotate refresh tokens on every use; keep the old one valid for 30 s.');
  await expect(entry.locator('.mem__rev')).toHaveText('rev 5');
  // Still there after a reload of the page (the host stored it).
  await page.reload();
  await page.getByRole('tab', { name: 'Memory' }).click();
  await expect(page.getByRole('listitem', { name: `Memory entry ${title}` }).locator('.mem__body')).toHaveText('Rotate refresh tokens on every use; keep the old one valid for 30 s.');
  await screenshots(page, 'memory-edited');
  expect(problems).toEqual([]);
});
