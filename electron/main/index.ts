import { app, BrowserWindow, ipcMain, protocol, session } from 'electron';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Host } from '../../engine/host';
import { openHost } from '../shared/openHost';
import { parseShellOptions } from '../shared/shellOptions';
import { registerIpc } from './ipcAdapter';
import { isTrustedRendererUrl, rendererEntry, rendererScheme, serveRendererRequest } from './rendererProtocol';

/** Exit code start.mjs reads as "the native SQLite module does not match Electron": fall back to the web host. */
const EXIT_NATIVE_MODULE = 78;

const here = dirname(fileURLToPath(import.meta.url));
const outDir = join(here, '..');

protocol.registerSchemesAsPrivileged([
  { scheme: rendererScheme, privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  void app.whenReady().then(start);
}

let host: Host | undefined;
let window: BrowserWindow | undefined;

function start(): void {
  const opts = parseShellOptions(process.argv.slice(app.isPackaged ? 1 : 2), true);
  try {
    host = openHost({
      workspace: opts.workspace,
      userDataDir: app.getPath('userData'),
      ...(app.isPackaged ? { resources: process.resourcesPath } : {}),
    }).host;
  } catch (err) {
    const message = (err as Error).message;
    console.error(`strata: ${message}`);
    app.exit(/NODE_MODULE_VERSION|compiled against a different Node\.js version/.test(message) ? EXIT_NATIVE_MODULE : 1);
    return;
  }

  const ses = session.defaultSession;
  ses.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  ses.protocol.handle(rendererScheme, (request) => serveRendererRequest(join(outDir, 'renderer'), request.url));

  registerIpc(ipcMain, host, isTrustedRendererUrl);
  window = createWindow();
}

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1400,
    height: 900,
    title: 'Strata',
    backgroundColor: '#0f1115',
    show: false,
    webPreferences: {
      preload: join(outDir, 'preload', 'index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    },
  });
  win.once('ready-to-show', () => win.show());
  void win.loadURL(rendererEntry);
  return win;
}

app.on('web-contents-created', (_event, contents) => {
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.on('will-navigate', (event, url) => {
    if (!isTrustedRendererUrl(url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
});

app.on('second-instance', () => {
  if (window) {
    if (window.isMinimized()) window.restore();
    window.focus();
  }
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

app.on('activate', () => {
  if (host && BrowserWindow.getAllWindows().length === 0) window = createWindow();
});

app.on('will-quit', () => host?.close());
