import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { crashReloadPolicy, guardContents, guardSession, secureWebPreferences } from '../../../electron/main/hardening';
import { isTrustedRendererUrl, rendererEntry } from '../../../electron/main/rendererProtocol';

type Listener = (event: { preventDefault(): void }, url: string) => void;

class FakeContents {
  readonly listeners = new Map<string, Listener>();
  openHandler?: (details: { url: string }) => { action: 'deny' };
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }) {
    this.openHandler = handler;
  }
  on(event: string, listener: Listener) {
    this.listeners.set(event, listener);
    return this;
  }
  /** Fire an event; true when a listener prevented its default. */
  fire(event: string, url = ''): boolean {
    let prevented = false;
    this.listeners.get(event)!({ preventDefault: () => (prevented = true) }, url);
    return prevented;
  }
}

describe('Electron hardening', () => {
  it('the window runs isolated and sandboxed, without Node, webviews or insecure content', () => {
    const prefs = secureWebPreferences('/app/out/preload/index.cjs');
    expect(prefs).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
    });
    expect(prefs).not.toHaveProperty('enableBlinkFeatures');
  });

  it('denies every new window, and navigation or redirects away from the renderer origin', () => {
    const contents = new FakeContents();
    const refused: string[] = [];
    guardContents(contents, isTrustedRendererUrl, (what, url) => refused.push(`${what} ${url}`));
    expect(contents.openHandler!({ url: 'https://example.com' })).toEqual({ action: 'deny' });
    expect(contents.openHandler!({ url: rendererEntry })).toEqual({ action: 'deny' });
    expect(contents.fire('will-navigate', 'https://evil.example/')).toBe(true);
    expect(contents.fire('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(contents.fire('will-redirect', 'http://127.0.0.1:9/')).toBe(true);
    expect(contents.fire('will-navigate', 'app://strata.evil/index.html')).toBe(true);
    expect(contents.fire('will-navigate', rendererEntry)).toBe(false);
    expect(contents.fire('will-attach-webview')).toBe(true);
    expect(refused).toEqual([
      'a new window https://example.com',
      `a new window ${rendererEntry}`,
      'navigation https://evil.example/',
      'navigation file:///etc/passwd',
      'a redirect http://127.0.0.1:9/',
      'navigation app://strata.evil/index.html',
      'a webview ',
    ]);
  });

  it('denies every permission request and check, and every download', () => {
    let request: ((c: unknown, p: string, cb: (granted: boolean) => void) => void) | undefined;
    let check: ((c: unknown, p: string) => boolean) | undefined;
    let download: ((e: { preventDefault(): void }) => void) | undefined;
    guardSession({
      setPermissionRequestHandler: (h) => (request = h),
      setPermissionCheckHandler: (h) => (check = h),
      on: (_e, l) => (download = l),
    });
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal', 'fileSystem']) {
      let granted: boolean | undefined;
      request!({}, permission, (g) => (granted = g));
      expect(granted, permission).toBe(false);
      expect(check!({}, permission), permission).toBe(false);
    }
    let prevented = false;
    download!({ preventDefault: () => (prevented = true) });
    expect(prevented).toBe(true);
  });

  it('reloads a crashed renderer, but not a crash loop (more than 3 crashes a minute)', () => {
    const reload = crashReloadPolicy(3, 60_000);
    expect([0, 1_000, 2_000].map(reload)).toEqual([true, true, true]);
    expect(reload(3_000)).toBe(false);
    // A minute after the first crashes, reloading is allowed again.
    expect(reload(63_500)).toBe(true);
  });

  it('no shell source loosens a setting, opens external links or loads remote or file:// content', () => {
    const root = join(import.meta.dirname, '..', '..', '..');
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const full = join(dir, name);
        if (statSync(full).isDirectory()) walk(full);
        else if (/\.(ts|mjs)$/.test(name)) files.push(full);
      }
    };
    walk(join(root, 'electron'));
    const forbidden = [
      /nodeIntegration\w*:\s*true/,
      /contextIsolation:\s*false/,
      /sandbox:\s*false/,
      /webSecurity:\s*false/,
      /allowRunningInsecureContent:\s*true/,
      /enableBlinkFeatures/,
      /openExternal/,
      /loadURL\((?!rendererEntry\))/,
      /loadFile\(/,
      /webviewTag:\s*true/,
    ];
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const pattern of forbidden) expect(pattern.test(text), `${file} matches ${pattern}`).toBe(false);
    }
  });

  it('runs on a current Electron (45 or newer, the line that embeds Node 24)', () => {
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', '..', 'node_modules', 'electron', 'package.json'), 'utf8')) as { version: string };
    expect(Number(pkg.version.split('.')[0])).toBeGreaterThanOrEqual(45);
  });
});
