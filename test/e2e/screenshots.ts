import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';

/** The widths a screen is looked at (issue 22): a wide, a common and a small laptop window. */
const WIDTHS = [1440, 1280, 1024] as const;

export interface ScreenshotOptions {
  /** Runs after each resize, before the shot (to scroll something into view). */
  before?: () => Promise<void>;
  /** Shoot the whole page, not only the window. */
  fullPage?: boolean;
  /** Parts of the page shot on their own after scrolling to them (`<name>-<part>-<scheme>-<width>.png`). */
  parts?: readonly { part: string; target: Locator }[];
}

/**
 * Screenshots for a person to look at: light and dark at 1440, 1280 and 1024 px, written to the folder
 * STRATA_SHOTS_DIR names and nowhere else (not the repo, not by default, so `npm test` takes none).
 * The window's size and the light scheme are restored afterwards.
 */
export async function screenshots(page: Page, name: string, o: ScreenshotOptions = {}): Promise<void> {
  const dir = process.env['STRATA_SHOTS_DIR'];
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const size = page.viewportSize() ?? { width: 1280, height: 860 };
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: size.height });
      await o.before?.();
      await page.screenshot({ path: join(dir, `${name}-${scheme}-${width}.png`), fullPage: o.fullPage ?? false });
      for (const { part, target } of o.parts ?? []) {
        if ((await target.count()) === 0) continue;
        await target.scrollIntoViewIfNeeded();
        await page.screenshot({ path: join(dir, `${name}-${part}-${scheme}-${width}.png`) });
      }
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(size);
}
