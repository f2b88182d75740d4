import { app, BrowserWindow, dialog, ipcMain, Menu, type OpenDialogOptions, protocol, screen, session } from 'electron';
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AppCommand, eventChannel, type StrataEvent } from '../../engine/contract';
import { openHost } from '../shared/openHost';
import { parseShellOptions } from '../shared/shellOptions';
import { appMenuTemplate } from './appMenu';
import { crashReloadPolicy, guardContents, guardSession, secureWebPreferences } from './hardening';
import { registerIpc } from './ipcAdapter';
import { readJsonFile, writeJsonFile } from './jsonFile';
import { parseRecent } from './recentWorkspaces';
import { isTrustedRendererUrl, rendererEntry, rendererScheme, serveRendererRequest } from './rendererProtocol';
import { captureWindowState, MIN_HEIGHT, MIN_WIDTH, restoreWindowState } from './windowState';
import { WorkspaceSession } from './workspaceSession';

/** Exit code start.mjs reads as "the native SQLite module does not match Electron": fall back to the web host. */
const EXIT_NATIVE_MODULE = 78;

const here = dirname(fileURLToPath(import.meta.url));
const outDir = join(here, '..');

// STRATA_HOME isolates everything of one launch (profile, lock, shell state, demo catalog): tests use it.
if (process.env.STRATA_HOME) app.setPath('userData', resolve(process.env.STRATA_HOME));
const stateFile = (name: string) => join(app.getPath('userData'), name);

protocol.registerSchemesAsPrivileged([{ scheme: rendererScheme, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);

let window: BrowserWindow | undefined;
const launchOptions = parseShellOptions(process.argv.slice(app.isPackaged ? 1 : 2), true);
const workspaces = new WorkspaceSession(
  {
    open: (dir) => {
      const { host, location } = openHost({
        workspace: dir ?? undefined,
        userDataDir: app.getPath('userData'),
        sessionsDirs: launchOptions.sessionsDirs,
        ...(app.isPackaged ? { resources: process.resourcesPath } : {}),
      });
      return { host, name: location.name };
    },
    register: (host) => registerIpc(ipcMain, host, isTrustedRendererUrl),
    saveRecent: (file) => writeJsonFile(stateFile('recent-workspaces.json'), file),
    noteRecent: (dir) => app.addRecentDocument(dir),
  },
  loadRecent(),
);

if (!app.requestSingleInstanceLock()) {
  // A second launch hands its arguments to the first (which focuses, and opens a named workspace) and leaves.
  app.quit();
} else {
  app.on('second-instance', (_event, argv) => {
    if (window) {
      if (window.isMinimized()) window.restore();
      window.focus();
    }
    const requested = parseShellOptions(argv.slice(app.isPackaged ? 1 : 2), true).workspace;
    if (requested && resolve(requested) !== workspaces.workspace) switchWorkspace(resolve(requested));
  });
  void app.whenReady().then(start);
}

function log(message: string): void {
  console.error(`strata: ${message}`);
}

function start(): void {
  try {
    workspaces.open(launchOptions.workspace ? resolve(launchOptions.workspace) : null);
  } catch (err) {
    const message = (err as Error).message;
    log(message);
    app.exit(/NODE_MODULE_VERSION|compiled against a different Node\.js version/.test(message) ? EXIT_NATIVE_MODULE : 1);
    return;
  }
  const ses = session.defaultSession;
  guardSession(ses);
  ses.protocol.handle(rendererScheme, (request) => serveRendererRequest(join(outDir, 'renderer'), request.url));
  window = createWindow();
  buildMenu();
}

/** Switch from the menu: a folder that cannot be opened leaves the current workspace as it is and says why. */
function switchWorkspace(dir: string | null): void {
  if (dir !== null && !(existsSync(dir) && statSync(dir).isDirectory())) {
    dialog.showErrorBox('Cannot open the workspace', `${dir} is not a folder (it may have been moved or deleted).`);
    return;
  }
  try {
    workspaces.open(dir);
  } catch (err) {
    dialog.showErrorBox('Cannot open the workspace', (err as Error).message);
    return;
  }
  buildMenu();
  window?.setTitle(`Strata — ${workspaces.name}`);
  window?.webContents.reload();
}

function loadRecent(): string[] {
  const read = readJsonFile(stateFile('recent-workspaces.json'));
  if ('corrupt' in read) log(`${read.corrupt}; starting with an empty recent list`);
  return 'value' in read ? parseRecent(read.value) : [];
}

function buildMenu(): void {
  const existing = workspaces.recent.filter((p) => existsSync(p));
  const template = appMenuTemplate(
    { platform: process.platform, recent: existing, workspace: workspaces.workspace },
    {
      openWorkspace: () => void pickWorkspace(),
      openRecent: (path) => switchWorkspace(path),
      openDemo: () => switchWorkspace(null),
      clearRecent: () => {
        workspaces.clearRecent();
        app.clearRecentDocuments();
        buildMenu();
      },
      importTrace: () => void importTrace(),
      command: sendCommand,
    },
  );
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

async function pickWorkspace(): Promise<void> {
  const options: OpenDialogOptions = { title: 'Open a workspace folder', properties: ['openDirectory', 'createDirectory'] };
  const picked = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
  const dir = picked.filePaths[0];
  if (!picked.canceled && dir) switchWorkspace(resolve(dir));
}

async function importTrace(): Promise<void> {
  const host = workspaces.host;
  if (!host) return;
  const options: OpenDialogOptions = {
    title: 'Import an agent trace',
    properties: ['openFile', 'multiSelections'],
    filters: [
      { name: 'Agent traces', extensions: ['jsonl', 'json', 'traj', 'db'] },
      { name: 'All files', extensions: ['*'] },
    ],
  };
  const picked = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
  if (picked.canceled || picked.filePaths.length === 0) return;
  const conn = host.connect(() => {});
  const failures: string[] = [];
  try {
    for (const path of picked.filePaths) {
      const envelope = await conn.call('importTrace', { path });
      if (!envelope.ok) failures.push(`${path}: ${envelope.error.message}`);
    }
  } finally {
    conn.close();
  }
  if (failures.length < picked.filePaths.length) sendCommand('show-compare');
  if (failures.length) dialog.showErrorBox('Some traces were not imported', failures.join('\n'));
}

/** A menu command for the views, on the event channel the preload already listens to. */
function sendCommand(command: AppCommand): void {
  const event: StrataEvent = { name: 'app.command', payload: { command } };
  if (window && !window.isDestroyed()) window.webContents.send(eventChannel, event);
}

function createWindow(): BrowserWindow {
  const read = readJsonFile(stateFile('window-state.json'));
  if ('corrupt' in read) log(`${read.corrupt}; opening the window at its default size`);
  const geometry = restoreWindowState('value' in read ? read.value : undefined, screen.getAllDisplays().map((d) => d.workArea));
  const win = new BrowserWindow({
    ...(geometry.x !== undefined && geometry.y !== undefined ? { x: geometry.x, y: geometry.y } : {}),
    width: geometry.width,
    height: geometry.height,
    minWidth: MIN_WIDTH,
    minHeight: MIN_HEIGHT,
    title: `Strata — ${workspaces.name ?? 'demo'}`,
    backgroundColor: '#0f1115',
    show: false,
    webPreferences: secureWebPreferences(join(outDir, 'preload', 'index.cjs')),
  });
  win.once('ready-to-show', () => {
    if (geometry.maximized) win.maximize();
    if (geometry.fullScreen) win.setFullScreen(true);
    win.show();
  });
  // Saved on every settled move or resize too, so a crash keeps the last geometry.
  let timer: NodeJS.Timeout | undefined;
  const save = () => writeJsonFile(stateFile('window-state.json'), captureWindowState(win));
  const saveSoon = () => {
    clearTimeout(timer);
    timer = setTimeout(() => !win.isDestroyed() && save(), 500);
  };
  win.on('resize', saveSoon);
  win.on('move', saveSoon);
  win.on('maximize', saveSoon);
  win.on('unmaximize', saveSoon);
  win.on('enter-full-screen', saveSoon);
  win.on('leave-full-screen', saveSoon);
  win.on('close', () => {
    clearTimeout(timer);
    save();
  });
  const reloadAfterCrash = crashReloadPolicy();
  win.webContents.on('render-process-gone', (_event, details) => {
    if (details.reason === 'clean-exit') return;
    if (reloadAfterCrash(Date.now())) {
      log(`the window's renderer stopped (${details.reason}); reloading it. The catalog is in the main process and lost nothing.`);
      win.webContents.reload();
    } else {
      log(`the window's renderer stopped (${details.reason}) again; not reloading a crash loop. Use View › Reload.`);
    }
  });
  void win.loadURL(rendererEntry);
  return win;
}

app.on('web-contents-created', (_event, contents) => {
  guardContents(contents, isTrustedRendererUrl, (what, url) => log(`refused ${what}${url ? ` to ${url}` : ''}`));
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

app.on('activate', () => {
  if (workspaces.host && BrowserWindow.getAllWindows().length === 0) window = createWindow();
});

// The catalog commits each turn in its own transaction; closing it on every way out checkpoints the WAL.
app.on('will-quit', () => workspaces.close());
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());
