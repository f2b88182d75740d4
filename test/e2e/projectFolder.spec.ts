import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { screenshots } from './screenshots';
import { startWebHostProcess, type RunningWebHost } from './webHostProcess';

// [run-project-folder] The journey of a user who opens the control room on a project folder of
// their own (`--workspace`): no demo plays, the run bar says how to start a run of its own and what
// it needs, and no caption speaks of the demo.
let web: RunningWebHost;
let folder: string;

test.beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'strata-e2e-project-'));
  writeFileSync(join(folder, 'README.md'), '# a project of its own\n');
  web = await startWebHostProcess({}, undefined, ['--workspace', folder]);
});

test.afterAll(async () => {
  await web?.stop();
  rmSync(folder, { recursive: true, force: true });
});

test('[run-project-folder] a project folder says how to start a run of its own instead of playing the demo', async ({ page }) => {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.goto(web.url);

  const bar = page.getByRole('group', { name: 'Run controls' });
  await expect(bar.getByRole('button', { name: /Start/ })).toBeDisabled();
  const note = page.getByRole('note', { name: 'How to start a run' });
  await expect(note).toContainText('your project folder, not the demo');
  await expect(note).toContainText('ANTHROPIC_API_KEY');
  await expect(note).toContainText('[tools] allow');
  // No agent was seeded from the demo into this folder's catalog.
  await expect(page.getByRole('treeitem')).toHaveCount(0);
  await screenshots(page, 'project-folder-agent');

  await page.getByRole('tab', { name: 'Charts' }).click();
  const charts = page.getByRole('region', { name: 'Charts' });
  await expect(charts).toBeVisible();
  await expect(charts).not.toContainText('demo');
  await screenshots(page, 'project-folder-charts');
  expect(problems).toEqual([]);
});
