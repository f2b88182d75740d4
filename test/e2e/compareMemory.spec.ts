/**
 * The Compare, Memory and Skills views against the real headless host, engine and catalog:
 * a comparison of two strategies on a trace (a shared real trace read in place, and a small
 * synthetic one imported through the file input), promoting a finding to memory and verifying it,
 * purging memory through the confirmation dialog. Screenshots of each view go to the test output.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { madeUpSession } from '../support/liveSessionFixture';
import { writeSyntheticTrace } from '../support/traceFixtures';
import { startWebHostProcess, type RunningWebHost } from './webHostProcess';

let web: RunningWebHost;
let scratch: string;

test.beforeAll(async () => {
  web = await startWebHostProcess();
  scratch = mkdtempSync(join(tmpdir(), 'strata-e2e-traces-'));
});

test.afterAll(async () => {
  await web?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const watchProblems = (page: Page): string[] => {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  return problems;
};

async function open(page: Page, view: 'Compare' | 'Memory' | 'Skills') {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(web.url);
  await expect(page.locator('[data-connection="open"]')).toBeVisible();
  await page.getByRole('tab', { name: view }).click();
}

/** Pick the strategies given (and only them), set the budget, run, and wait for the end. */
async function runComparison(page: Page, strategies: string[], budget: number, timeout: number) {
  const boxes = page.getByRole('group', { name: 'Strategies' }).getByRole('checkbox');
  for (const box of await boxes.all()) {
    const label = (await box.locator('xpath=..').textContent())?.trim() ?? '';
    const want = strategies.includes(label);
    if ((await box.isChecked()) !== want) await box.setChecked(want);
  }
  await page.getByLabel('Budget (tokens)').fill(String(budget));
  await page.getByRole('button', { name: 'Run comparison' }).click();
  await expect(page.getByRole('progressbar', { name: 'Comparison progress' })).toBeVisible();
  await expect(page.getByText(/^Finished: \d+ replays$/)).toBeVisible({ timeout });
}

async function expectTwoSeries(page: Page, labels: [string, string]) {
  const results = page.getByRole('region', { name: 'Comparison results' });
  for (const title of ['Cumulative prompt tokens per step', 'Cumulative uncached tokens per step']) {
    const chart = results.getByRole('figure', { name: title });
    await expect(chart.locator('.recharts-line')).toHaveCount(2);
    await expect(chart.locator('.recharts-line-curve')).toHaveCount(2);
    // Both axes have tick labels.
    expect(await chart.locator('.recharts-xAxis-tick-labels text').count()).toBeGreaterThan(1);
    expect(await chart.locator('.recharts-yAxis-tick-labels text').count()).toBeGreaterThan(1);
    for (const l of labels) await expect(chart.locator('.recharts-legend-wrapper')).toContainText(l);
  }
  const table = results.getByRole('table', { name: 'Comparison totals' });
  await expect(table.locator('tbody tr')).toHaveCount(2);
}

test('compares two strategies on a synthetic trace imported through the file input, and exports CSV, JSON and PNG', async ({ page }, testInfo) => {
  const problems = watchProblems(page);
  await open(page, 'Compare');
  const file = writeSyntheticTrace(scratch, 'e2e-session.json', ' (compare view e2e)');
  await page.getByLabel('Trace file', { exact: true }).setInputFiles(file);
  await expect(page.getByRole('status').filter({ hasText: 'Imported e2e-session.json.' })).toBeVisible();
  await expect(page.getByLabel('Imported trace')).toContainText('e2e-session.json · 4 steps');

  await runComparison(page, ['variable', 'baseline (transcript)'], 4000, 60_000);
  await expectTwoSeries(page, ['variable', 'baseline (transcript)']);

  const csvDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csv = readFileSync((await (await csvDownload).path()) as string, 'utf8');
  expect(csv.split('\n')[0]).toBe('trace_id,trace_name,strategy,budget,steps,prompt_tokens,mean_prompt_tokens,uncached_tokens,cost_units,hit_rate,prefix_reuse,needed_reference_recall,orphans,refreshes,overhead_p50_ms');
  expect(csv).toMatch(/,e2e-session\.json,variable,4000,4,/);
  expect(csv).toMatch(/,e2e-session\.json,full_history_baseline,,4,/);

  const jsonDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export JSON' }).click();
  const json = JSON.parse(readFileSync((await (await jsonDownload).path()) as string, 'utf8'));
  expect(json.comparison.results.map((r: { strategy: string }) => r.strategy)).toEqual(['variable', 'full_history_baseline']);
  expect(json.comparison.results[0].series).toHaveLength(4);

  const pngDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export Cumulative prompt tokens per step as PNG' }).click();
  const png = await pngDownload;
  expect(png.suggestedFilename()).toMatch(/^cmp-\d+-prompt-tokens\.png$/);
  const pngBytes = readFileSync((await png.path()) as string);
  expect(pngBytes.subarray(1, 4).toString()).toBe('PNG');
  await png.saveAs(testInfo.outputPath('compare-chart-export.png'));

  await page.screenshot({ path: testInfo.outputPath('compare-synthetic.png'), fullPage: true });
  await page.getByRole('table', { name: 'Comparison totals' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('compare-synthetic-lower.png'), fullPage: true });
  expect(problems).toEqual([]);
});

test('shows what the recording agent was billed beside the cache model’s baseline, for a session that records usage', async ({ page }, testInfo) => {
  const problems = watchProblems(page);
  await open(page, 'Compare');
  const file = join(scratch, 'e2e-recorded.jsonl');
  writeFileSync(file, `${madeUpSession(6).join('\n')}\n`);
  await page.getByLabel('Trace file', { exact: true }).setInputFiles(file);
  await expect(page.getByRole('status').filter({ hasText: 'Imported e2e-recorded.jsonl.' })).toBeVisible();
  await runComparison(page, ['variable', 'baseline (transcript)'], 4000, 60_000);

  const recorded = page.getByRole('table', { name: 'Recorded by the provider' });
  await expect(recorded.locator('tbody tr')).toHaveCount(1);
  const cells = await recorded.locator('tbody tr').first().locator('th, td').allTextContents();
  // trace, model, calls, prompt tokens, uncached, hit rate, then the baseline's cache model, tokens, hit rate and errors.
  expect(cells.slice(0, 3)).toEqual(['e2e-recorded.jsonl', 'claude-made-up-1', '8']);
  expect(cells[6]).toBe('anthropic');
  expect(cells[9]).toMatch(/^[+−]\d+\.\d%$/);
  await expect(page.getByText(/what the provider billed the real agent/)).toBeVisible();

  const jsonDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export JSON' }).click();
  const json = JSON.parse(readFileSync((await (await jsonDownload).path()) as string, 'utf8'));
  expect(json.comparison.recorded).toHaveLength(1);
  expect(json.comparison.recorded[0]).toMatchObject({ model: 'claude-made-up-1', calls: 8, writesMissing: false, modelled: { provider: 'anthropic', matched: 8 } });

  await recorded.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('compare-recorded.png'), fullPage: true });
  expect(problems).toEqual([]);
});

test('compares two strategies on a shared real trace, read in place', async ({ page }, testInfo) => {
  const dir = resolve(process.env.STRATA_TRACES_DIR ?? '../shared/traces');
  const trace = join(dir, 'mini-swe-agent-traj-json', 'deepseek_chat_test_1-100__django__django-14382.traj.json');
  if (!existsSync(trace)) {
    const reason = `shared trace not found at ${trace} (set STRATA_TRACES_DIR to the shared traces folder); skipping the real-trace comparison`;
    console.warn(reason);
    test.skip(true, reason);
    return;
  }
  test.setTimeout(180_000);
  // Imported by path, so the host reads the file where it lies (no copy).
  const { WsTestClient } = await import('../support/wsClient');
  const url = new URL(web.url);
  const client = await WsTestClient.connect(`ws://${url.host}/ws?token=${url.searchParams.get('token')}`);
  let traceId: string;
  try {
    const imported = await client.call('importTrace', { path: trace });
    expect(imported.ok, JSON.stringify(imported)).toBe(true);
    traceId = (imported as { ok: true; value: { trace: { id: string } } }).value.trace.id;
  } finally {
    client.close();
  }
  await open(page, 'Compare');
  await page.getByLabel('Imported trace').selectOption(traceId);
  await runComparison(page, ['variable', 'full history'], 32_000, 150_000);
  await expectTwoSeries(page, ['variable', 'full history']);
  await page.screenshot({ path: testInfo.outputPath('compare-real-trace.png'), fullPage: true });
  // The main area scrolls on its own: the lower charts and the totals table.
  await page.getByRole('table', { name: 'Comparison totals' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('compare-real-trace-lower.png'), fullPage: true });
});

test('promotes a finding to memory, verifies it, and purges memory through the confirmation dialog', async ({ page }, testInfo) => {
  const problems = watchProblems(page);
  await open(page, 'Memory');
  const view = page.getByRole('region', { name: 'Project memory' });
  const candidates = view.getByRole('region', { name: 'Candidates from this run' });
  // The demo primary's first generation holds its objective and constraints.
  await expect(async () => {
    await candidates.getByRole('button', { name: 'Refresh', exact: true }).click();
    await expect(candidates.getByRole('button', { name: /^Promote .* to memory$/ }).first()).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  const first = candidates.locator('li').filter({ has: page.getByRole('button', { name: /^Promote .* to memory$/ }) }).first();
  const title = (await first.locator('.mem__cand-title').textContent())?.trim() ?? '';
  await first.getByRole('button', { name: /^Promote .* to memory$/ }).click();

  const entry = view.getByRole('listitem', { name: `Memory entry ${title}` });
  await expect(entry).toContainText('candidate');
  await expect(entry).toContainText('✕ not verified');
  await expect(entry).toContainText(/freshness\s*observed (today|1 day ago|\d+ days ago)/);
  await entry.getByRole('button', { name: 'Verify' }).click();
  await expect(entry.locator('.mem__state')).toHaveText('verified');
  await expect(entry).toContainText('✓ verified');
  await expect(entry.getByRole('button', { name: 'Verify' })).toBeDisabled();
  await page.screenshot({ path: testInfo.outputPath('memory-verified.png'), fullPage: true });

  // Purge: the dialog states the residual exposure and needs the confirmation words.
  await view.getByRole('button', { name: 'Purge memory…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Purge project memory?' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Deleting the catalog and its -wal and -shm files is the only complete removal.');
  const purge = dialog.getByRole('button', { name: 'Purge memory' });
  await expect(purge).toBeDisabled();
  // Escape closes it without purging.
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(entry).toBeVisible();
  await view.getByRole('button', { name: 'Purge memory…' }).click();
  await expect(dialog.getByLabel(/Type purge project memory to confirm/)).toBeFocused();
  await dialog.getByLabel(/Type purge project memory to confirm/).fill('purge project memory');
  await page.screenshot({ path: testInfo.outputPath('memory-purge-dialog.png'), fullPage: true });
  await purge.click();

  const report = view.getByRole('status', { name: 'Purge report' });
  await expect(report).toContainText('Memory purged.');
  await expect(report).toContainText(/entries deleted\s*1/);
  await expect(report).toContainText('only complete removal');
  await expect(view.getByRole('listitem', { name: /^Memory entry / })).toHaveCount(0);
  await expect(view.getByText('No project memory yet.')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('memory-purged.png'), fullPage: true });
  expect(problems).toEqual([]);
});

test('the skills view lists the loaded skills with their metadata', async ({ page }, testInfo) => {
  const problems = watchProblems(page);
  await open(page, 'Skills');
  const view = page.getByRole('region', { name: 'Skills' });
  await expect(view.getByRole('list', { name: 'Loaded skills' }).locator('li').first()).toBeVisible({ timeout: 10_000 });
  await expect(view.getByRole('list', { name: 'Loaded skills' }).locator('li').first()).toContainText('token budget');
  await expect(view.getByRole('heading', { name: 'Selection per agent' })).toBeVisible();
  await expect(view.getByRole('heading', { name: 'Load errors' })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('skills.png'), fullPage: true });
  expect(problems).toEqual([]);
});
