import { spawn, type ChildProcess } from 'node:child_process';
import { expect, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** How long the host may take to print its address. */
const HOST_START_MS = 90_000;

export interface RunningWebHost {
  url: string;
  home: string;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Start the built headless host (`out/main/web.js`) on a random port over a fresh STRATA_HOME and
 * wait for the line with its address. `at` starts it again where a stopped one ran: on its port and
 * over its STRATA_HOME, which then outlives `stop()` (the caller made it).
 */
export async function startWebHostProcess(env: Record<string, string> = {}, at?: { home: string; port: number }, args: string[] = []): Promise<RunningWebHost> {
  const home = at?.home ?? mkdtempSync(join(tmpdir(), 'strata-e2e-'));
  const child: ChildProcess = spawn(process.execPath, ['out/main/web.js', '--port', String(at?.port ?? 0), ...args], {
    env: { ...process.env, STRATA_HOME: home, STRATA_DEMO_TICK_MS: '250', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d) => (out += String(d)));
  child.stderr?.on('data', (d) => (out += String(d)));
  const url = await new Promise<string>((resolve, reject) => {
    // Generous: a loaded machine can take long to start Node and open the catalog; a host that never prints its address still fails.
    const timer = setTimeout(() => reject(new Error(`web host did not start within ${HOST_START_MS / 1000} s:\n${out}`)), HOST_START_MS);
    child.stdout?.on('data', () => {
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1] as string);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`web host exited with ${code}:\n${out}`));
    });
  });
  return {
    url,
    home,
    output: () => out,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }).finally(() => {
        if (!at) rmSync(home, { recursive: true, force: true });
      }),
  };
}

/**
 * Start a host whose demo does not tick on its own, open the control room at this window size and
 * take `steps` turns with Step, so the primary has a first generation to inspect. `env` adds to the
 * host's environment (`STRATA_DEMO_AGENTS` for the scaled demo).
 */
export async function openPausedDemo(page: Page, steps: number, size: { width: number; height: number }, env: Record<string, string> = {}): Promise<RunningWebHost> {
  const web = await startWebHostProcess({ ...env, STRATA_DEMO_TICK_MS: '0' });
  await page.setViewportSize(size);
  await page.goto(web.url);
  await expect(page.locator('[data-connection="open"]')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Agent primary' })).toBeVisible();
  const bar = page.getByRole('group', { name: 'Run controls' });
  for (let i = 1; i <= steps; i++) {
    await bar.getByRole('button', { name: /Step/ }).click();
    await expect(bar).toContainText(`turn ${i}`);
  }
  await expect(page.locator('.inspector__summary[data-generation="1"]')).toBeVisible();
  return web;
}
