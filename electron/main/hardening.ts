import type { WebPreferences } from 'electron';

/**
 * The main window's web preferences: Electron's security checklist settings, spelled out even
 * where they are Electron's defaults, so a default changing upstream cannot loosen them.
 */
export function secureWebPreferences(preload: string): WebPreferences {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
    spellcheck: false,
  };
}

/** The part of a WebContents the guards use (structural, so tests need no Electron). */
export interface ContentsLike {
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
  on(event: 'will-navigate' | 'will-redirect', listener: (event: { preventDefault(): void }, url: string) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: { preventDefault(): void }) => void): unknown;
}

/**
 * Every web contents: new windows denied, navigation and redirects allowed only within Strata's
 * own renderer origin, `<webview>` never attached. `onRefused` hears each refusal (for the log).
 */
export function guardContents(contents: ContentsLike, isTrusted: (url: string) => boolean, onRefused: (what: string, url: string) => void = () => {}): void {
  contents.setWindowOpenHandler(({ url }) => {
    onRefused('a new window', url);
    return { action: 'deny' };
  });
  const stayHome = (what: string) => (event: { preventDefault(): void }, url: string) => {
    if (isTrusted(url)) return;
    event.preventDefault();
    onRefused(what, url);
  };
  contents.on('will-navigate', stayHome('navigation'));
  contents.on('will-redirect', stayHome('a redirect'));
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
    onRefused('a webview', '');
  });
}

/** The part of a Session the guards use. */
export interface SessionLike {
  setPermissionRequestHandler(handler: (contents: unknown, permission: string, callback: (granted: boolean) => void) => void): void;
  setPermissionCheckHandler(handler: (contents: unknown, permission: string) => boolean): void;
  on(event: 'will-download', listener: (event: { preventDefault(): void }) => void): unknown;
}

/** Every permission request and check is denied (Strata needs none) and nothing is downloaded. */
export function guardSession(ses: SessionLike): void {
  ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  ses.on('will-download', (event) => event.preventDefault());
}

/**
 * Whether to reload a renderer that crashed: yes, unless it already crashed `limit` times within
 * `windowMs` (a crash loop; the window then stays as it is and the log says why). The catalog
 * lives in the main process, so a renderer crash or reload loses no data either way.
 */
export function crashReloadPolicy(limit = 3, windowMs = 60_000): (now: number) => boolean {
  const crashes: number[] = [];
  return (now) => {
    while (crashes.length && now - crashes[0]! > windowMs) crashes.shift();
    crashes.push(now);
    return crashes.length <= limit;
  };
}
