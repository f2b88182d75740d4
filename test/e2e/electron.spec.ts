import { _electron as electron, type ElectronApplication, expect, test } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandNames } from '../../engine/contract';
import { ensureElectronBinding, installedElectron, runBounded } from '../../electron/cli/nativeModule.mjs';
import { electronBinary } from '../support/electronBinary';

/**
 * The desktop app itself, through Playwright's Electron driver: startup, the agent tree, a control
 * round trip, the application menu, remembered window state and the single-instance lock. Each
 * test gets its own STRATA_HOME (profile, lock, shell state, demo catalog). Where the Electron
 * binary is absent (it downloads on first launch and this machine cannot reach its host) every
 * test here is reported skipped with that reason.
 */
const binary = electronBinary();
const skipReason = 'missing' in binary ? `Electron binary absent: ${binary.missing}` : undefined;

let app: ElectronApplication | undefined;
let home: string | undefined;
/** better-sqlite3 built for this Electron (made once, as `npm start` does), or why there is none. */
let sqlite: { path: string } | { reason: string } | undefined;

test.beforeEach(async () => {
  if (skipReason) console.log(`SKIPPED ${test.info().title}: ${skipReason}.`);
  test.skip(!!skipReason, skipReason);
  test.setTimeout(420_000);
  if (!sqlite) {
    const root = process.cwd();
    const installed = installedElectron(root);
    sqlite = installed
      ? await ensureElectronBinding({ root, electronVersion: installed.version, abi: installed.abi, platform: process.platform, arch: process.arch, run: runBounded })
      : { reason: 'the electron package is not installed' };
  }
  if ('reason' in sqlite) console.log(`SKIPPED ${test.info().title}: no SQLite module for Electron: ${sqlite.reason}.`);
  test.skip('reason' in sqlite, 'reason' in sqlite ? `no SQLite module for Electron: ${sqlite.reason}` : '');
  test.setTimeout(60_000);
});

test.afterEach(async () => {
  await app?.close().catch(() => {});
  app = undefined;
  if (home) rmSync(home, { recursive: true, force: true });
  home = undefined;
});

async function launch(env: Record<string, string> = {}): Promise<ElectronApplication> {
  home ??= mkdtempSync(join(tmpdir(), 'strata-electron-'));
  app = await electron.launch({
    executablePath: (binary as { path: string }).path,
    args: ['out/main/index.js', '--no-sandbox'],
    env: { ...process.env, STRATA_HOME: home, STRATA_SQLITE_BINDING: (sqlite as { path: string }).path, STRATA_DEMO_TICK_MS: '250', ...env } as Record<string, string>,
  });
  return app;
}

test('the desktop app starts on the demo and shows its agent tree through the preload bridge', async () => {
  const page = await (await launch()).firstWindow();
  await expect(page.locator('[data-connection="open"]')).toHaveText('desktop');
  await expect(page.getByRole('tree').getByRole('treeitem')).toHaveCount(8, { timeout: 20_000 });
  // The preload exposes one method per command and nothing that reaches Node.
  const surface = await page.evaluate(() => {
    const w = globalThis as unknown as { strata: object; require?: unknown; process?: unknown };
    return { methods: Object.keys(w.strata).sort(), require: typeof w.require, process: typeof w.process };
  });
  expect(surface.methods).toEqual([...commandNames].sort());
  expect(surface.require).toBe('undefined');
  expect(surface.process).toBe('undefined');
  // Sandboxed: the renderer process has no Node, not even through the preload's world.
  expect(await page.evaluate(() => typeof (globalThis as { module?: unknown }).module)).toBe('undefined');
});

test('a control round trip: Step on the paused demo advances the run and the view shows it', async () => {
  const page = await (await launch({ STRATA_DEMO_TICK_MS: '0' })).firstWindow();
  const bar = page.getByRole('group', { name: 'Run controls' });
  await expect(bar).toContainText('demo', { timeout: 20_000 });
  await bar.getByRole('button', { name: /Step/ }).click();
  await expect(bar).toContainText('turn 1');
  await bar.getByRole('button', { name: /Step/ }).click();
  await expect(bar).toContainText('turn 2');
});

test('the application menu carries Strata actions that drive the views', async () => {
  const page = await (await launch()).firstWindow();
  await expect(page.locator('[data-connection="open"]')).toHaveText('desktop');
  const labels = await app!.evaluate(({ Menu }) => Menu.getApplicationMenu()!.items.map((i) => i.label));
  expect(labels).toEqual(expect.arrayContaining(['File', 'Edit', 'View', 'Tools']));
  const accelerators = await app!.evaluate(({ Menu }) =>
    ['strata.open-workspace', 'strata.import-trace', 'strata.compare', 'strata.purge-memory'].map((id) => Menu.getApplicationMenu()!.getMenuItemById(id)?.accelerator),
  );
  expect(accelerators).toEqual(['CmdOrCtrl+O', 'CmdOrCtrl+I', 'CmdOrCtrl+Shift+C', 'CmdOrCtrl+Shift+Backspace']);

  await app!.evaluate(({ Menu }) => Menu.getApplicationMenu()!.getMenuItemById('strata.compare')!.click());
  await expect(page.getByRole('tab', { name: 'Compare' })).toHaveAttribute('aria-selected', 'true');
  // Purge from the menu only opens the confirmation; nothing is purged without the words.
  await app!.evaluate(({ Menu }) => Menu.getApplicationMenu()!.getMenuItemById('strata.purge-memory')!.click());
  await expect(page.getByRole('tab', { name: 'Memory' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('dialog', { name: 'Purge project memory?' })).toBeVisible();
});

test('the window geometry is remembered across launches', async () => {
  await (await launch()).firstWindow();
  await app!.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.setBounds({ x: 40, y: 50, width: 1000, height: 700 }));
  await app!.close();
  app = undefined;
  const saved = JSON.parse(readFileSync(join(home!, 'window-state.json'), 'utf8')) as { bounds: { width: number; height: number } };
  expect(saved.bounds).toMatchObject({ width: 1000, height: 700 });
  await (await launch()).firstWindow();
  const size = await app!.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.getSize());
  expect(size).toEqual([1000, 700]);
});

test('a second launch with the same profile focuses the first and exits', async () => {
  await (await launch()).firstWindow();
  const second = spawnSync((binary as { path: string }).path, ['out/main/index.js', '--no-sandbox'], {
    env: { ...process.env, STRATA_HOME: home!, STRATA_SQLITE_BINDING: (sqlite as { path: string }).path },
    timeout: 30_000,
  });
  expect(second.status).toBe(0);
  expect(await app!.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1);
  expect(existsSync(join(home!, 'workspaces', 'demo', 'catalog.sqlite'))).toBe(true);
});
