import { _electron as electron, expect, test } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandNames } from '../../engine/contract';
import { electronBinary } from '../support/electronBinary';

const binary = electronBinary();

test('the desktop app opens the demo agent tree through the preload bridge', async () => {
  if ('missing' in binary) {
    console.log(`SKIPPED electron smoke test: ${binary.missing}.`);
    test.skip(true, `Electron binary absent: ${binary.missing}`);
    return;
  }
  const home = mkdtempSync(join(tmpdir(), 'strata-electron-'));
  const app = await electron.launch({
    executablePath: binary.path,
    args: ['out/main/index.js', '--no-sandbox'],
    env: { ...process.env, STRATA_HOME: home, STRATA_DEMO_TICK_MS: '250' } as Record<string, string>,
  });
  try {
    const page = await app.firstWindow();
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
  } finally {
    await app.close();
    rmSync(home, { recursive: true, force: true });
  }
});
