import { expect, test } from '@playwright/test';
import { startWebHostProcess, type RunningWebHost } from './webHostProcess';

let web: RunningWebHost;

test.beforeAll(async () => {
  web = await startWebHostProcess();
});

test.afterAll(async () => {
  await web?.stop();
});

test('the control room shows the demo agent tree live, with no console errors', async ({ page }, testInfo) => {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));

  await page.goto(web.url);
  await expect(page.locator('[data-connection="open"]')).toBeVisible();
  await expect(page.getByText('workspace: demo')).toBeVisible();

  // The demo run's tree: the primary at level 1; on its third turn it spawns the probe, the workers,
  // the test agent and the reviewer at level 2.
  const tree = page.getByRole('tree');
  await expect(tree.locator('[data-agent-id="primary"]')).toHaveAttribute('aria-level', '1');
  await expect(tree.getByRole('treeitem')).toHaveCount(8, { timeout: 20_000 });
  await expect(tree.locator('[data-agent-id="worker-store"]')).toHaveAttribute('aria-level', '2');
  await expect(tree.locator('[data-agent-id="probe-callers"]')).toHaveAttribute('aria-level', '2');

  // Live updates arrive: agents run and the spawns are logged.
  await expect(tree.locator('[data-status="running"]').first()).toBeVisible();
  await expect(page.getByRole('contentinfo', { name: 'Event log' })).toContainText(/Turn \d+ · gen \d+ · /);

  // Selecting an agent shows its detail pane.
  await tree.locator('[data-agent-id="worker-store"] .tree__select').click();
  await expect(page.getByRole('region', { name: 'Agent worker-store' })).toContainText('Migrate the token store');

  await page.screenshot({ path: testInfo.outputPath('control-room.png'), fullPage: true });
  expect(problems).toEqual([]);
});

test('filtering the tree keeps matches with their ancestors', async ({ page }) => {
  await page.goto(web.url);
  const tree = page.getByRole('tree');
  await expect(tree.getByRole('treeitem')).toHaveCount(8, { timeout: 20_000 });
  await page.getByLabel('Filter agents').fill('probe');
  await expect(tree.getByRole('treeitem')).toHaveCount(2);
  await expect(tree.locator('[data-agent-id="probe-callers"]')).toBeVisible();
  await expect(tree.locator('[data-agent-id="primary"]')).toBeVisible();
});

test('a page without the token cannot reach the contract', async ({ page }) => {
  const tokenless = web.url.replace(/\?token=.*$/, '');
  await page.goto(tokenless);
  await expect(page.locator('[data-connection="open"]')).toHaveCount(0);
  await expect(page.getByRole('tree').getByRole('treeitem')).toHaveCount(0);
});

test('refused reconnects after the host stops print no token in the console', async ({ page }) => {
  const own = await startWebHostProcess();
  const token = new URL(own.url).searchParams.get('token')!;
  const messages: string[] = [];
  page.on('console', (m) => messages.push(`${m.type()}: ${m.text()} ${m.location().url}`));
  page.on('pageerror', (e) => messages.push(`pageerror: ${e.message}`));
  await page.goto(own.url);
  await expect(page.locator('[data-connection="open"]')).toBeVisible();
  await own.stop();
  await expect(page.locator('[data-connection="open"]')).toHaveCount(0);
  // The bridge retries after 0.5 s, 1 s, 2 s…: wait for two refused reconnects to be reported.
  await expect.poll(() => messages.filter((m) => /WebSocket connection to/.test(m)).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
  expect(messages.filter((m) => m.includes(token))).toEqual([]);
});

test('the engine commands answer through the web host', async () => {
  // A paused demo, so nothing but this test changes the engine.
  const paused = await startWebHostProcess({ STRATA_DEMO_TICK_MS: '0' });
  const { WsTestClient } = await import('../support/wsClient');
  const url = new URL(paused.url);
  const client = await WsTestClient.connect(`ws://${url.host}/ws`, {}, url.searchParams.get('token') ?? '');
  try {
    await client.call('subscribe', { events: ['generation.started'] });
    expect(await client.call('getGeneration', { agentId: 'primary' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await client.call('rebuild', { agentId: 'primary' })).toMatchObject({ ok: true, value: { generation: { number: 1 } } });
    const generation = await client.call('getGeneration', { agentId: 'primary' });
    expect(generation).toMatchObject({ ok: true, value: { agentId: 'primary', number: 1, prompt: { prefixHash: expect.stringMatching(/^[0-9a-f]{64}$/) } } });
    // The demo run seeds its objective and constraints before the first turn.
    expect(await client.call('pin', { itemId: 'objective' })).toMatchObject({ ok: true, value: { item: { id: 'objective', pinned: true } } });
    expect(await client.call('rebuild', { agentId: 'primary' })).toMatchObject({ ok: true, value: { generation: { number: 2 } } });
    await client.waitFor(() => (client.events.filter((e) => e.name === 'generation.started').length === 2 ? true : undefined));
  } finally {
    client.close();
    await paused.stop();
  }
});

test('project memory: promote a finding, verify it, purge it with confirmation', async () => {
  const { WsTestClient } = await import('../support/wsClient');
  const url = new URL(web.url);
  const client = await WsTestClient.connect(`ws://${url.host}/ws`, {}, url.searchParams.get('token') ?? '');
  try {
    await client.call('subscribe', { events: ['memory.changed'] });
    // The demo run's objective is in the pool from the start.
    const promoted = await client.call('promoteToMemory', { itemId: 'objective' });
    expect(promoted).toMatchObject({ ok: true, value: { entry: { state: 'candidate', verified: false, revision: 1 } } });
    const id = promoted.ok ? (promoted.value as { entry: { id: string } }).entry.id : '';
    expect(await client.call('verifyMemory', { id, revision: 2 })).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(await client.call('verifyMemory', { id, revision: 1 })).toMatchObject({ ok: true, value: { entry: { state: 'verified', verified: true, revision: 2 } } });
    expect(await client.call('purgeMemory', { confirm: 'yes' })).toMatchObject({ ok: false, error: { code: 'invalid_args' } });
    expect(await client.call('listMemory', {})).toMatchObject({ ok: true, value: { entries: [{ id }] } });
    const purge = await client.call('purgeMemory', { confirm: 'purge project memory' });
    expect(purge).toMatchObject({ ok: true, value: { deleted: 1, vacuumed: true, residual: expect.stringMatching(/only complete removal/) } });
    expect(await client.call('listMemory', {})).toMatchObject({ ok: true, value: { entries: [] } });
    await client.waitFor(() => client.events.find((e) => e.name === 'memory.changed' && e.payload.change === 'purged'));
  } finally {
    client.close();
  }
});
