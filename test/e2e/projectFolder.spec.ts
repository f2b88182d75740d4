import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startOpenAILoopback, type LoopbackServer } from '../support/loopback';
import { screenshots } from './screenshots';
import { startWebHostProcess, type RunningWebHost } from './webHostProcess';

// [run-project-folder] The journey of a user who opens the control room on a project folder of
// their own (`--workspace`): no demo plays, the run bar says how to start a run of its own and what
// it needs, and no caption speaks of the demo. [run-model-form] From there a form starts a model run:
// without a key it says so before and after a submission; with a key and a loopback provider the
// run starts and its primary is in the tree.
let web: RunningWebHost;
let folder: string;
/** No provider key reaches the host, whatever the machine's environment holds. */
const NO_KEYS = { OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', OPENAI_BASE_URL: '', ANTHROPIC_BASE_URL: '' };

const newProjectFolder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'strata-e2e-project-'));
  writeFileSync(join(dir, 'README.md'), '# a project of its own\n');
  return dir;
};

test.beforeAll(async () => {
  folder = newProjectFolder();
  web = await startWebHostProcess(NO_KEYS, undefined, ['--workspace', folder]);
});

test.afterAll(async () => {
  await web?.stop();
  rmSync(folder, { recursive: true, force: true });
});

const consoleProblems = (page: Page): string[] => {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  return problems;
};

test('[run-project-folder] a project folder says how to start a run of its own instead of playing the demo', async ({ page }) => {
  const problems = consoleProblems(page);
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.goto(web.url);

  const bar = page.getByRole('group', { name: 'Run controls' });
  await expect(bar.getByRole('button', { name: '▶ Start', exact: true })).toBeDisabled();
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

test('[run-model-form] without a key the form says the key is missing before a submission, and the submission is refused in words', async ({ page }) => {
  const problems = consoleProblems(page);
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.goto(web.url);
  await expect(page.locator('[data-connection="open"]')).toBeVisible();

  // Reachable by keyboard from the note: focus its button and press Enter.
  const note = page.getByRole('note', { name: 'How to start a run' });
  await note.getByRole('button', { name: 'Start a model run…' }).focus();
  await page.keyboard.press('Enter');
  const form = page.getByRole('form', { name: 'Start a model run' });
  await expect(form).toBeVisible();
  await expect(form.getByLabel(/^Task/)).toBeFocused();
  const needs = form.getByRole('region', { name: 'What this run needs' });
  await expect(needs).toContainText('ANTHROPIC_API_KEY is not set, so the host will refuse this run');
  await form.getByLabel('Provider').selectOption('openai');
  await expect(form.getByLabel('Model')).toHaveValue('gpt-5-mini');
  await expect(needs).toContainText('OPENAI_API_KEY is not set');

  // An empty task never reaches the host.
  await form.getByRole('button', { name: '▶ Start model run' }).click();
  await expect(form.getByRole('alert')).toHaveText('Type the task first: it is empty, and a run needs something to do.');

  await form.getByLabel(/^Task/).fill('Read the README and say what this project is.');
  await screenshots(page, 'project-folder-model-run-form');
  await form.getByRole('button', { name: '▶ Start model run' }).click();
  await expect(form.getByRole('alert')).toHaveText('Not started: the host has no OpenAI key. Set OPENAI_API_KEY in the environment Strata is started from, then restart Strata (a key is never typed here).');
  await expect(form.getByLabel(/^Task/)).toHaveValue('Read the README and say what this project is.');
  await expect(page.getByRole('treeitem')).toHaveCount(0);
  await screenshots(page, 'project-folder-model-run-refused');

  // Escape closes the form and gives the focus back to the run bar.
  await form.getByLabel(/^Task/).press('Escape');
  await expect(form).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'New model run…' })).toBeFocused();
  expect(problems).toEqual([]);
});

test('[run-model-form] with a key and a loopback provider, a submitted run starts and its primary appears in the tree', async ({ page }) => {
  const KEY = 'sk-e2e-loopback-0123456789abcdef';
  const server: LoopbackServer = await startOpenAILoopback({ expectedKey: KEY, defaultReply: { kind: 'text', text: 'It is a project of its own; nothing to change.' } });
  const dir = newProjectFolder();
  const keyed = await startWebHostProcess({ ...NO_KEYS, OPENAI_API_KEY: KEY, OPENAI_BASE_URL: server.url }, undefined, ['--workspace', dir]);
  try {
    const problems = consoleProblems(page);
    await page.setViewportSize({ width: 1280, height: 860 });
    await page.goto(keyed.url);
    await expect(page.locator('[data-connection="open"]')).toBeVisible();
    await page.getByRole('button', { name: 'New model run…' }).click();
    const form = page.getByRole('form', { name: 'Start a model run' });
    await form.getByLabel('Provider').selectOption('openai');
    const needs = form.getByRole('region', { name: 'What this run needs' });
    await expect(needs).toContainText('✓ OPENAI_API_KEY is set in the host’s environment.');
    await expect(needs).toContainText(`Calls go to ${server.url} (OPENAI_BASE_URL).`);
    await form.getByLabel(/^Task/).fill('Read the README and say what this project is.');
    await screenshots(page, 'project-folder-model-run-ready');
    await form.getByRole('button', { name: '▶ Start model run' }).click();

    await expect(form).toHaveCount(0);
    const tree = page.getByRole('tree', { name: 'Agent tree' });
    await expect(tree.getByRole('treeitem', { name: /run-1\.primary/ })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Agent run-1.primary' })).toBeVisible();
    const bar = page.getByRole('group', { name: 'Run controls' });
    await expect(bar.getByRole('status')).toHaveText('Run run-1 started with OpenAI gpt-5-mini.');
    await expect(bar.locator('[data-run-status="finished"]')).toBeVisible();
    expect(server.requests.length).toBeGreaterThan(0);
    expect(server.requests.every((r) => r.headers['authorization'] === `Bearer ${KEY}`)).toBe(true);
    await screenshots(page, 'project-folder-model-run-started');
    expect(problems).toEqual([]);
  } finally {
    await keyed.stop();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
