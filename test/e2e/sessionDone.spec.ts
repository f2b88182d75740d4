import { expect as baseExpect, test } from '@playwright/test';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { madeUpSession } from '../support/liveSessionFixture';
import { screenshots } from './screenshots';
import { startWebHostProcess, type RunningWebHost } from './webHostProcess';

/**
 * Issue 22 item 6 against the real headless host: a Claude Code session whose main agent has
 * finished (its last line is the assistant's closing answer) is attached from the folder the host
 * watches; once the file has been quiet a while the attached list, the tree and the picker say it is
 * done, and a new request in the file makes it run again. The demo is paused, so only the session moves.
 * Screenshots light and dark at three widths go to STRATA_SHOTS_DIR when it is set (`screenshots.ts`).
 */
// The host calls a session done 10 s after its last line and re-checks every 5 s; the attach, its replay and a loaded machine come on top.
const expect = baseExpect.configure({ timeout: 60_000 });
let web: RunningWebHost;
let dir: string;
let file: string;

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'strata-e2e-done-'));
  const project = join(dir, 'claude', 'projects', '-home-dev-login-service');
  mkdirSync(project, { recursive: true });
  file = join(project, '0b7d4c1e-finished.jsonl');
  writeFileSync(file, `${madeUpSession(8).join('\n')}\n`);
  web = await startWebHostProcess({ CLAUDE_CONFIG_DIR: join(dir, 'claude'), CODEX_HOME: join(dir, 'codex'), STRATA_DEMO_TICK_MS: '0' });
});

test.afterAll(async () => {
  await web?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('[live-done] [live-agents] an attached session whose main agent finished is marked done, and a new request in its file makes it run again', async ({ page }) => {
  test.setTimeout(170_000);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(web.url);
  await expect(page.locator('[data-connection="open"]')).toBeVisible();

  await page.getByRole('button', { name: 'Attach session…' }).click();
  const picker = page.getByRole('region', { name: 'Attach a session' });
  const row = picker.locator(`[data-path="${file}"]`);
  await expect(row).toContainText('login-service');
  await row.getByRole('button', { name: /^Attach Claude Code session login-service/ }).click();

  const attached = page.getByRole('list', { name: 'Attached sessions' }).locator('[data-session-id="ses-1"]');
  await expect(attached).toContainText(`${madeUpSession(8).length} lines`);
  const tree = page.getByRole('tree');
  const main = tree.locator('[data-agent-id="ses-1"]');
  const done = attached.locator('[data-status="done"]');

  // The last turn ended and the file went quiet: the list says done beside the file's state, and so does the tree.
  await expect(done).toHaveText('done');
  await expect(done).toHaveAttribute('title', /last turn ended and its file has gone quiet/);
  await expect(attached.locator('.attach__status').first()).toHaveText(/^(following|waiting)$/);
  await expect(main).toHaveAttribute('data-status', 'done');
  await expect(main).toHaveAttribute('aria-label', /^ses-1, primary, done, /);
  // Its subagent returned long before: done as well.
  await expect(tree.locator('[data-agent-id="ses-1/explorer"]')).toHaveAttribute('data-status', 'done');
  // The picker agrees with the list: done, not growing; listed again, the host says so from the file as well.
  const rowState = row.locator('[data-state]');
  await expect(rowState).toHaveText('done');
  await picker.getByRole('button', { name: 'Refresh list' }).click();
  await expect(picker.getByRole('button', { name: 'Refresh list' })).toBeEnabled();
  await expect(rowState).toHaveText('done');
  await screenshots(page, 'attach-done');

  // The person asks for more: the main agent runs again and the chip goes.
  const followUp = { type: 'user', cwd: '/home/dev/login-service', timestamp: new Date(Date.UTC(2026, 10, 30, 9, 5, 0)).toISOString(), message: { role: 'user', content: 'Now add a regression test for the expiry check.' } };
  appendFileSync(file, `${JSON.stringify(followUp)}\n`);
  await expect(attached).toContainText(`${madeUpSession(8).length + 1} lines`);
  await expect(main).toHaveAttribute('data-status', 'running');
  await expect(done).toHaveCount(0);
  await expect(rowState).toHaveText('growing');
  expect(problems).toEqual([]);
});
