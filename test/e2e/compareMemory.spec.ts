/**
 * The Compare, Memory and Skills views against the real headless host, engine and catalog:
 * a comparison of two strategies on a trace (a shared real trace read in place, and a small
 * synthetic one imported through the file input) and on two synthetic traces at once, promoting a finding to memory and verifying it,
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

/** The imported traces' checkboxes (outside the Strategies group). */
const traceBoxes = (page: Page) => page.getByRole('group', { name: 'Imported traces' }).getByRole('checkbox');

/** Select exactly the imported traces `want` accepts (by the checkbox's label and trace id). */
async function pickTraces(page: Page, want: (label: string, traceId: string) => boolean) {
  const boxes = await traceBoxes(page).all();
  const wanted = await Promise.all(boxes.map(async (box) => want((await box.locator('xpath=..').textContent())?.trim() ?? '', (await box.getAttribute('value')) ?? '')));
  // Clear first, so the cap never refuses one that is wanted.
  for (const [i, box] of boxes.entries()) if (!wanted[i] && (await box.isChecked())) await box.setChecked(false);
  for (const [i, box] of boxes.entries()) if (wanted[i] && !(await box.isChecked())) await box.setChecked(true);
  expect(await traceBoxes(page).evaluateAll((els) => els.filter((e) => (e as HTMLInputElement).checked).length)).toBe(wanted.filter(Boolean).length);
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

async function expectTwoSeries(page: Page, labels: [string, string], replays = 2) {
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
  await expect(table.locator('tbody tr')).toHaveCount(replays);
}

test('compares two strategies on a synthetic trace imported through the file input, and exports CSV, JSON and PNG', async ({ page }, testInfo) => {
  const problems = watchProblems(page);
  await open(page, 'Compare');
  const file = writeSyntheticTrace(scratch, 'e2e-session.json', ' (compare view e2e)');
  await page.getByLabel('Trace file', { exact: true }).setInputFiles(file);
  await expect(page.getByRole('status').filter({ hasText: 'Imported e2e-session.json.' })).toBeVisible();
  // The import joins the selection; the comparison runs on this trace only.
  await expect(page.getByRole('group', { name: 'Imported traces' }).getByRole('checkbox', { name: /^e2e-session\.json · 4 steps · openai-messages-json$/ })).toBeChecked();
  await pickTraces(page, (label) => label.startsWith('e2e-session.json · 4 steps'));
  await expect(page.getByLabel('Chart trace')).toHaveCount(0);

  await runComparison(page, ['variable', 'baseline (transcript)'], 4000, 60_000);
  await expectTwoSeries(page, ['variable', 'baseline (transcript)']);

  const csvDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csv = readFileSync((await (await csvDownload).path()) as string, 'utf8');
  expect(csv.split('\n')[0]).toBe('trace_id,trace_name,strategy,budget,steps,prompt_tokens,mean_prompt_tokens,uncached_tokens,prompt_usd,total_usd,input_usd,cache_read_usd,cache_write_usd,output_usd,priced_model,price_note,cache_ttl,cache_ttl_source,context_window,context_window_source,hit_rate,prefix_reuse,needed_reference_recall,pooled_reference_recall,references_needed,references_held,rereads_forced,orphans,invalid,refreshes,overhead_p50_ms');
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
  await pickTraces(page, (label) => label.startsWith('e2e-recorded.jsonl · '));
  await runComparison(page, ['variable', 'as recorded'], 4000, 60_000);

  const recorded = page.getByRole('table', { name: 'Recorded by the provider' });
  await expect(recorded.locator('tbody tr')).toHaveCount(1);
  const cells = await recorded.locator('tbody tr').first().locator('th, td').allTextContents();
  // trace, model, calls (the session's 8 and its subagent's 2), prompt tokens, uncached, hit rate, total USD, re-reads, then
  // the as-recorded baseline's cache model, tokens and errors, the full history's (not run here), and the fixed prefix.
  expect(cells.slice(0, 3)).toEqual(['e2e-recorded.jsonl', 'claude-made-up-1', '10']);
  expect(cells[8]).toBe('anthropic');
  expect(cells[10]).toMatch(/^[+−]\d+\.\d%$/);
  expect(cells[12]).toBe('—');
  expect(cells[14]).toMatch(/^estimated · scale \d\.\d\d$/);
  await expect(page.getByText(/what the provider billed the real agents/)).toBeVisible();

  const jsonDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export JSON' }).click();
  const json = JSON.parse(readFileSync((await (await jsonDownload).path()) as string, 'utf8'));
  expect(json.comparison.recorded).toHaveLength(1);
  expect(json.comparison.recorded[0]).toMatchObject({ model: 'claude-made-up-1', calls: 10, writesMissing: false, asRecorded: { provider: 'anthropic', matched: 10 }, fullHistory: null, prefix: { estimated: true } });

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
  const client = await WsTestClient.connect(`ws://${url.host}/ws`, {}, url.searchParams.get('token') ?? '');
  let traceId: string;
  try {
    const imported = await client.call('importTrace', { path: trace });
    expect(imported.ok, JSON.stringify(imported)).toBe(true);
    traceId = (imported as { ok: true; value: { trace: { id: string } } }).value.trace.id;
  } finally {
    client.close();
  }
  await open(page, 'Compare');
  await expect(traceBoxes(page).first()).toBeVisible();
  await pickTraces(page, (_, id) => id === traceId);
  await runComparison(page, ['variable', 'full history'], 32_000, 150_000);
  await expectTwoSeries(page, ['variable', 'full history']);
  await page.screenshot({ path: testInfo.outputPath('compare-real-trace.png'), fullPage: true });
  // The main area scrolls on its own: the lower charts and the totals table.
  await page.getByRole('table', { name: 'Comparison totals' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('compare-real-trace-lower.png'), fullPage: true });
});

test('compares two strategies over two imported traces: per-trace rows, an all-traces row per strategy, one trace charted at a time', async ({ page }, testInfo) => {
  const problems = watchProblems(page);
  await open(page, 'Compare');
  const names = ['e2e-multi-a.json', 'e2e-multi-b.json'];
  for (const [i, name] of names.entries()) {
    await page.getByLabel('Trace file', { exact: true }).setInputFiles(writeSyntheticTrace(scratch, name, ` (multi-trace e2e ${i})`));
    await expect(page.getByRole('status').filter({ hasText: `Imported ${name}.` })).toBeVisible();
    await expect(page.getByRole('checkbox', { name: new RegExp(`^${name.replace(/\./g, '\\.')} · 4 steps`) })).toBeChecked();
  }
  await pickTraces(page, (label) => names.some((n) => label.startsWith(`${n} · `)));
  await expect(page.getByText(/^2 of \d+ selected/)).toBeVisible();
  await runComparison(page, ['variable', 'baseline (transcript)'], 4000, 90_000);

  const results = page.getByRole('region', { name: 'Comparison results' });
  const table = results.getByRole('table', { name: 'Comparison totals' });
  const perTrace = table.locator('tbody tr');
  await expect(perTrace).toHaveCount(4);
  const rowCells = async (row: ReturnType<typeof perTrace.nth>) => (await row.locator('th, td').allTextContents()).map((t) => t.replace(/\s*\(best\)$/, '').trim());
  const traceRows = await Promise.all([0, 1, 2, 3].map(async (i) => rowCells(perTrace.nth(i))));
  expect(traceRows.map((c) => c[0]).sort()).toEqual([...names, ...names].sort());
  expect(traceRows.map((c) => c[1]).sort()).toEqual(['baseline (transcript)', 'baseline (transcript)', 'variable', 'variable']);
  const all = table.locator('tfoot tr');
  await expect(all).toHaveCount(2);
  const allRows = [await rowCells(all.nth(0)), await rowCells(all.nth(1))];
  expect(allRows.map((c) => c.slice(0, 4))).toEqual([
    ['all 2 traces', 'variable', '4,000', '8'],
    ['all 2 traces', 'baseline (transcript)', '—', '8'],
  ]);
  // The all-traces prompt tokens are the per-trace ones summed.
  for (const [i, strategy] of ['variable', 'baseline (transcript)'].entries()) {
    const sum = traceRows.filter((c) => c[1] === strategy).reduce((n, c) => n + Number(c[4]!.replace(/,/g, '')), 0);
    expect(Number(allRows[i]![4]!.replace(/,/g, ''))).toBe(sum);
  }
  await expect(results.getByText(/prefix reuse byte-weighted/)).toBeVisible();

  // The charts show one trace; the select switches it, and the PNG names carry the trace.
  const chartTrace = results.getByLabel('Chart trace');
  await expect(chartTrace.locator('option')).toHaveText(traceRows.filter((_, i) => i % 2 === 0).map((c) => c[0]!));
  const charts = results.locator('.cmp__charts');
  const first = await chartTrace.inputValue();
  await expect(charts).toHaveAttribute('data-trace', first);
  const second = await chartTrace.locator('option').nth(1).getAttribute('value');
  await chartTrace.selectOption(second!);
  await expect(charts).toHaveAttribute('data-trace', second!);
  await expectTwoSeries(page, ['variable', 'baseline (transcript)'], 4);
  const pngDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export Cumulative prompt tokens per step as PNG' }).click();
  expect((await pngDownload).suggestedFilename()).toBe(`${(await results.locator('.cmp__exports .cmp__note').textContent())?.split(' · ')[0]}-${second}-prompt-tokens.png`);

  const csvDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csv = readFileSync((await (await csvDownload).path()) as string, 'utf8');
  // The replays' section (header and four lines), then the all-traces section (header and a row per strategy).
  const [replays, overAll] = csv.trim().split('\n\n').map((s) => s.split('\n'));
  expect(replays).toHaveLength(5);
  expect(overAll!.slice(1).map((l) => l.split(',').slice(0, 2).join(','))).toEqual(['all 2 traces,variable', 'all 2 traces,full_history_baseline']);
  for (const n of names) expect(csv).toContain(`,${n},variable,4000,4,`);

  await page.screenshot({ path: testInfo.outputPath('compare-two-traces.png'), fullPage: true });
  await table.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('compare-two-traces-lower.png'), fullPage: true });
  // The other theme (the view uses the theme's variables only).
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: testInfo.outputPath('compare-two-traces-lower-dark.png'), fullPage: true });
  await page.getByRole('group', { name: 'Imported traces' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('compare-two-traces-dark.png'), fullPage: true });
  expect(problems).toEqual([]);
});

test('promotes a finding to memory, verifies it, and purges memory through the confirmation dialog', async ({ page }, testInfo) => {
  const problems = watchProblems(page);
  await open(page, 'Memory');
  const view = page.getByRole('region', { name: 'Project memory' });
  const candidates = view.getByRole('region', { name: 'Candidates from this run' });
  // The demo primary's first generation holds its objective and constraints. A pinned constraint is
  // promoted: it is in every generation, so it cannot leave the list before the click. (Not the first
  // row whatever it is: a failing test's output in the demo quotes a token, and the memory guard
  // rightly refuses that one, as test/integration/durability/hostRecall.test.ts checks.)
  const constraintRow = candidates.locator('tr.mem__cand').filter({ has: page.locator('td.mem__kind', { hasText: /^constraint$/ }) });
  await expect(async () => {
    await candidates.getByRole('button', { name: 'Reload candidates', exact: true }).click();
    await expect(constraintRow.getByRole('button', { name: /^Promote .* to memory$/ }).first()).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  // The title is read from the button itself and the same button is clicked by its whole name: the
  // list may change between two look-ups while the demo runs.
  const label = (await constraintRow.getByRole('button', { name: /^Promote .* to memory$/ }).first().getAttribute('aria-label')) ?? '';
  const title = label.replace(/^Promote (.*) to memory$/, '$1');
  expect(title).not.toBe('');
  await candidates.getByRole('button', { name: label, exact: true }).first().click();

  const entry = view.getByRole('listitem', { name: `Memory entry ${title}` });
  await expect(entry).toContainText('candidate');
  await expect(entry).toContainText('✕ not verified');
  await expect(entry).toContainText(/freshness\s*observed (today|1 day ago|\d+ days ago)/);
  await entry.getByRole('button', { name: 'Verify' }).click();
  await expect(entry.locator('.mem__state')).toHaveText('verified');
  await expect(entry).toContainText('✓ verified');
  await expect(entry.getByRole('button', { name: 'Verify', exact: true })).toHaveCount(0);
  await expect(entry.getByRole('button', { name: 'Unverify' })).toBeEnabled();
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
  await expect(view.getByRole('list', { name: 'Loaded skills' }).locator('li').first()).toBeVisible();
  await expect(view.getByRole('list', { name: 'Loaded skills' }).locator('li').first()).toContainText('token budget');
  await expect(view.getByRole('heading', { name: 'Selection per agent' })).toBeVisible();
  await expect(view.getByRole('heading', { name: 'Load errors' })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('skills.png'), fullPage: true });
  expect(problems).toEqual([]);
});
