import { expect, test, type Page } from '@playwright/test';
import { screenshots } from './screenshots';
import { openPausedDemo as openDemo, startWebHostProcess, type RunningWebHost } from './webHostProcess';

/**
 * What the agent sees, and controls that can be undone (issue 22 items 8, 9, 10 and 12), against the
 * real headless host with the demo paused (STRATA_DEMO_TICK_MS=0): only the test's own steps change it.
 * Screenshots, light and dark at 1440, 1280 and 1024 px, go to STRATA_SHOTS_DIR when it is set (`screenshots.ts`).
 */
let web: RunningWebHost | undefined;

test.afterEach(async () => {
  await web?.stop();
  web = undefined;
});

async function openPausedDemo(page: Page, steps: number): Promise<void> {
  web = await openDemo(page, steps, { width: 1440, height: 900 });
}


const inspector = (page: Page) => page.getByRole('region', { name: 'Context inspector' });

function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  return problems;
}

test('the Context tab: categories with free space, an item read whole, search, duplicates grouped', async ({ page }) => {
  const problems = watchProblems(page);
  await openPausedDemo(page, 6);
  const ctx = inspector(page);
  const categories = ctx.getByRole('table', { name: 'Context categories' });
  await expect(categories.getByText('Role instructions (L0)')).toBeVisible();
  await expect(categories.locator('tr[data-category="free"]')).toContainText(/Free space[\d.k]+\d+%/);

  // Open the Objective: its whole text in the content pane.
  await ctx.getByRole('button', { name: 'Objective', exact: true }).first().click();
  const pane = ctx.getByRole('complementary', { name: 'Item content' });
  await expect(pane).toHaveAttribute('data-item-id', 'objective');
  await expect(pane.getByLabel('Content of Objective')).toContainText('Add refresh-token rotation to the payments API');
  await screenshots(page, 'context-item', { before: () => pane.scrollIntoViewIfNeeded() });

  // Search within the context: the lists narrow, the open item marks its matches.
  await ctx.getByRole('searchbox', { name: 'Search the context' }).fill('rotation');
  await expect(ctx.getByText(/\d+ included and \d+ dropped items? match “rotation”/)).toBeVisible();
  await expect(pane.locator('mark').first()).toHaveText(/rotation/i);
  await screenshots(page, 'context-search', { before: () => ctx.getByRole('searchbox', { name: 'Search the context' }).scrollIntoViewIfNeeded() });
  expect(problems).toEqual([]);
});

test('a past generation: a banner, its controls off, the way back, and a restore from it', async ({ page }) => {
  const problems = watchProblems(page);
  await openPausedDemo(page, 3);
  const pane = page.getByRole('region', { name: 'Agent primary' });
  await pane.getByRole('button', { name: /^Refresh/ }).click();
  await expect(inspector(page).locator('.inspector__summary')).toHaveAttribute('data-generation', '2');

  await inspector(page).getByRole('combobox').selectOption('1');
  const banner = inspector(page).getByRole('region', { name: 'Past generation' });
  await expect(banner).toContainText('You are viewing generation 1 of primary; the agent is on generation 2.');
  await expect(inspector(page).locator('.inspector__summary')).toHaveAttribute('data-generation', '1');
  const objective = inspector(page).locator('[data-item-id="objective"]').first();
  await expect(objective.getByRole('button', { name: /^Verify/ })).toBeDisabled();
  await expect(objective.getByRole('button', { name: /^Verify/ })).toHaveAttribute('title', /past generation/);
  await screenshots(page, 'past-generation', { before: () => banner.scrollIntoViewIfNeeded() });

  await banner.getByRole('button', { name: 'Back to current (g2)' }).click();
  await expect(banner).toHaveCount(0);
  await expect(objective.getByRole('button', { name: /^Verify/ })).toBeEnabled();

  // Restore from generation 1: a new generation 3, its reason saying where it came from.
  await inspector(page).getByRole('combobox').selectOption('1');
  await banner.getByRole('button', { name: 'Restore from g1' }).click();
  await expect(pane.locator('.agent-controls').getByRole('status')).toContainText(/Restored from generation 1: generation 3 started/);
  await expect(inspector(page).locator('.inspector__summary')).toHaveAttribute('data-generation', '3');
  await expect(inspector(page).getByRole('region', { name: 'Past generation' })).toHaveCount(0);
  await expect(inspector(page).locator('.inspector__summary')).toContainText('rebuild');
  expect(problems).toEqual([]);
});

test('labels: tree columns with units, controls that say what they do, off on an agent never built', async ({ page }) => {
  const problems = watchProblems(page);
  web = await startWebHostProcess({ STRATA_DEMO_TICK_MS: '0' });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(web.url);
  await expect(page.locator('[data-connection="open"]')).toBeVisible();
  const pane = page.getByRole('region', { name: 'Agent primary' });
  await expect(pane).toBeVisible();
  await expect(page.getByRole('group', { name: 'Tree columns' })).toContainText('context %');
  await expect(page.getByRole('group', { name: 'Tree columns' })).toContainText('hit %');

  // Before its first turn the primary has no generation: refresh and rebuild are off and say why; one message in the inspector.
  await expect(pane.getByRole('button', { name: 'Refresh context' })).toBeDisabled();
  await expect(pane.getByRole('button', { name: 'Rebuild context' })).toHaveAttribute('title', /^Not built yet/);
  await expect(inspector(page).getByText(/No generation yet/)).toHaveCount(1);
  await screenshots(page, 'not-built');

  const bar = page.getByRole('group', { name: 'Run controls' });
  await bar.getByRole('button', { name: /Step/ }).click();
  await expect(bar).toContainText('turn 1');
  await expect(pane.getByRole('button', { name: 'Refresh context' })).toBeEnabled();
  const controls = inspector(page).locator('[data-item-id="objective"]').first().getByRole('group', { name: 'Controls of objective' });
  await expect(controls.getByRole('button')).toHaveText(['pin', 'verify', 'to finding', 'to memory', 'remove']);
  await expect(controls.getByRole('button', { name: /to a finding$/ })).toHaveAttribute('title', /^Make it a finding/);
  await screenshots(page, 'labels', { before: () => controls.scrollIntoViewIfNeeded() });
  expect(problems).toEqual([]);
});

test('remove, verify and Stop ask first, showing the agents that refresh and what their cache loses', async ({ page }) => {
  const problems = watchProblems(page);
  await openPausedDemo(page, 4);
  const acceptance = inspector(page).getByRole('list', { name: 'Included in L1' }).locator('[data-item-id="acceptance"]');
  await acceptance.getByRole('button', { name: /^Remove/ }).click();
  const dialog = acceptance.getByRole('alertdialog', { name: 'Remove “Acceptance” from the pool?' });
  await expect(dialog.getByRole('status')).toContainText(/\d+ agents? affected; their caches lose [\d.k]+ tokens in all\./);
  const primary = dialog.getByRole('table', { name: 'Agents affected' }).locator('[data-agent-id="primary"]');
  await expect(primary).toContainText('L1');
  await expect(primary).toContainText('new generation at its next build');
  await screenshots(page, 'confirm-remove', { before: () => dialog.scrollIntoViewIfNeeded() });

  // Cancel: nothing changed, the item is still there and still in L1.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(acceptance).toHaveAttribute('data-layer', 'L1');

  // Verify asks too; on yes it runs.
  await acceptance.getByRole('button', { name: /^Verify/ }).click();
  const verify = acceptance.getByRole('alertdialog', { name: 'Verify “Acceptance”?' });
  await expect(verify.getByRole('status')).toContainText(/affected|No agent/);
  await verify.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(acceptance.getByRole('status')).toContainText('Verified.');

  // Stop asks first; Cancel leaves the run as it was.
  const bar = page.getByRole('group', { name: 'Run controls' });
  await bar.getByRole('button', { name: /Stop$/ }).click();
  const stop = bar.getByRole('alertdialog', { name: 'Stop run demo?' });
  await expect(stop).toContainText('The turn in flight is cancelled and commits nothing');
  await screenshots(page, 'confirm-stop');
  await stop.getByRole('button', { name: 'Cancel' }).click();
  await expect(bar.locator('[data-run-status]')).not.toHaveText('stopped');
  await bar.getByRole('button', { name: /Stop$/ }).click();
  await bar.getByRole('button', { name: 'Stop the run' }).click();
  await expect(bar.locator('[data-run-status]')).toHaveText('stopped');
  expect(problems).toEqual([]);
});
