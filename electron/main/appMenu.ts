import type { MenuItemConstructorOptions } from 'electron';
import { basename } from 'node:path';
import type { AppCommand } from '../../engine/contract';

/** What the menu's own items do; the shell implements them (dialogs, host switch, messages to the views). */
export interface MenuActions {
  openWorkspace(): void;
  openRecent(path: string): void;
  openDemo(): void;
  clearRecent(): void;
  importTrace(): void;
  /** Ask the views to show a view or open the purge confirmation. */
  command(command: AppCommand): void;
}

export interface MenuContext {
  platform: NodeJS.Platform;
  /** Recent workspace folders that still exist, newest first. */
  recent: readonly string[];
  /** The open workspace folder; null for the demo workspace. */
  workspace: string | null;
}

/**
 * Strata's own actions and their shortcuts (Electron accelerators), one place for the menu and the
 * docs. Their menu items have ids `strata.<action>` (Menu.getMenuItemById; the Electron e2e test clicks them).
 */
export const SHORTCUTS = {
  openWorkspace: 'CmdOrCtrl+O',
  importTrace: 'CmdOrCtrl+I',
  compare: 'CmdOrCtrl+Shift+C',
  purgeMemory: 'CmdOrCtrl+Shift+Backspace',
} as const;

const VIEW_ITEMS: [label: string, command: AppCommand][] = [
  ['Agent', 'show-agent'],
  ['Charts', 'show-charts'],
  ['Compare', 'show-compare'],
  ['Memory', 'show-memory'],
  ['Skills', 'show-skills'],
  ['Events', 'show-events'],
  ['Gateway', 'show-gateway'],
];

/**
 * The application menu: the platform's usual roles (app menu on macOS, edit, view, window) plus
 * Strata's actions — open a workspace (and the recent ones), import a trace, compare, purge
 * memory — with their shortcuts. Purge only opens the confirmation; it never purges from the menu.
 */
export function appMenuTemplate(ctx: MenuContext, actions: MenuActions): MenuItemConstructorOptions[] {
  const mac = ctx.platform === 'darwin';
  const sep: MenuItemConstructorOptions = { type: 'separator' };
  const recent: MenuItemConstructorOptions[] = ctx.recent.map((path) => ({
    label: `${basename(path)} — ${path}`,
    enabled: path !== ctx.workspace,
    click: () => actions.openRecent(path),
  }));

  const appMenu: MenuItemConstructorOptions = {
    label: 'Strata',
    submenu: [{ role: 'about' }, sep, { role: 'services' }, sep, { role: 'hide' }, { role: 'hideOthers' }, { role: 'unhide' }, sep, { role: 'quit' }],
  };
  const file: MenuItemConstructorOptions = {
    label: 'File',
    submenu: [
      { id: 'strata.open-workspace', label: 'Open Workspace…', accelerator: SHORTCUTS.openWorkspace, click: () => actions.openWorkspace() },
      {
        label: 'Open Recent',
        submenu: [...(recent.length ? recent : [{ label: 'No recent workspaces', enabled: false }]), sep, { label: 'Clear Recent', enabled: recent.length > 0, click: () => actions.clearRecent() }],
      },
      { label: 'Open Demo Workspace', enabled: ctx.workspace !== null, click: () => actions.openDemo() },
      sep,
      { id: 'strata.import-trace', label: 'Import Trace…', accelerator: SHORTCUTS.importTrace, click: () => actions.importTrace() },
      sep,
      mac ? { role: 'close' } : { role: 'quit' },
    ],
  };
  const strata: MenuItemConstructorOptions = {
    label: 'Tools',
    submenu: [
      { id: 'strata.compare', label: 'Compare Strategies', accelerator: SHORTCUTS.compare, click: () => actions.command('show-compare') },
      sep,
      { id: 'strata.purge-memory', label: 'Purge Memory…', accelerator: SHORTCUTS.purgeMemory, click: () => actions.command('purge-memory') },
    ],
  };
  const edit: MenuItemConstructorOptions = {
    label: 'Edit',
    submenu: [{ role: 'undo' }, { role: 'redo' }, sep, { role: 'cut' }, { role: 'copy' }, { role: 'paste' }, ...(mac ? [{ role: 'pasteAndMatchStyle' } as const] : []), { role: 'delete' }, sep, { role: 'selectAll' }],
  };
  const view: MenuItemConstructorOptions = {
    label: 'View',
    submenu: [
      ...VIEW_ITEMS.map(([label, command], i): MenuItemConstructorOptions => ({ id: `strata.${command}`, label, accelerator: `CmdOrCtrl+${i + 1}`, click: () => actions.command(command) })),
      sep,
      { role: 'reload' },
      { role: 'forceReload' },
      { role: 'toggleDevTools' },
      sep,
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      sep,
      { role: 'togglefullscreen' },
    ],
  };
  const window: MenuItemConstructorOptions = {
    role: 'windowMenu',
    submenu: mac ? [{ role: 'minimize' }, { role: 'zoom' }, sep, { role: 'front' }] : [{ role: 'minimize' }, { role: 'close' }],
  };
  const help: MenuItemConstructorOptions = { role: 'help', submenu: [{ role: 'about', label: 'About Strata' }] };
  return [...(mac ? [appMenu] : []), file, edit, view, strata, window, ...(mac ? [] : [help])];
}
