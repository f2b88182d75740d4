import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { appMenuTemplate, type MenuActions, SHORTCUTS } from '../../../electron/main/appMenu';
import type { AppCommand } from '../../../engine/contract';

function recorder() {
  const calls: string[] = [];
  const actions: MenuActions = {
    openWorkspace: () => calls.push('openWorkspace'),
    openRecent: (p) => calls.push(`openRecent ${p}`),
    openDemo: () => calls.push('openDemo'),
    clearRecent: () => calls.push('clearRecent'),
    importTrace: () => calls.push('importTrace'),
    command: (c: AppCommand) => calls.push(`command ${c}`),
  };
  return { calls, actions };
}

/** Every item of the template, depth first. */
function flatten(items: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return items.flatMap((i) => [i, ...(Array.isArray(i.submenu) ? flatten(i.submenu) : [])]);
}
const byLabel = (items: MenuItemConstructorOptions[], label: string) => {
  const found = flatten(items).find((i) => i.label === label);
  if (!found) throw new Error(`no menu item "${label}"`);
  return found;
};
const click = (item: MenuItemConstructorOptions) => (item.click as unknown as () => void)();

describe('application menu', () => {
  it("has the platform's usual roles: an app menu on macOS, edit, view and window everywhere", () => {
    const { actions } = recorder();
    const mac = appMenuTemplate({ platform: 'darwin', recent: [], workspace: null }, actions);
    const linux = appMenuTemplate({ platform: 'linux', recent: [], workspace: null }, actions);
    expect(mac.map((m) => m.label ?? m.role)).toEqual(['Strata', 'File', 'Edit', 'View', 'Tools', 'windowMenu']);
    expect(linux.map((m) => m.label ?? m.role)).toEqual(['File', 'Edit', 'View', 'Tools', 'windowMenu', 'help']);
    const roles = (t: MenuItemConstructorOptions[]) => flatten(t).map((i) => i.role).filter(Boolean);
    for (const role of ['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll', 'reload', 'toggleDevTools', 'zoomIn', 'zoomOut', 'resetZoom', 'togglefullscreen', 'minimize']) {
      expect(roles(mac), role).toContain(role);
      expect(roles(linux), role).toContain(role);
    }
    expect(roles(mac)).toEqual(expect.arrayContaining(['about', 'services', 'hide', 'hideOthers', 'unhide', 'quit', 'front', 'zoom']));
    expect(roles(linux)).toContain('quit');
    expect(roles(linux)).not.toContain('services');
  });

  it("Strata's actions carry their shortcuts and call the shell: open workspace, import trace, compare, purge", () => {
    const { calls, actions } = recorder();
    const menu = appMenuTemplate({ platform: 'linux', recent: [], workspace: null }, actions);
    const expected: [string, string, string][] = [
      ['Open Workspace…', SHORTCUTS.openWorkspace, 'openWorkspace'],
      ['Import Trace…', SHORTCUTS.importTrace, 'importTrace'],
      ['Compare Strategies', SHORTCUTS.compare, 'command show-compare'],
      ['Purge Memory…', SHORTCUTS.purgeMemory, 'command purge-memory'],
    ];
    for (const [label, accelerator, call] of expected) {
      const item = byLabel(menu, label);
      expect(item.accelerator, label).toBe(accelerator);
      click(item);
      expect(calls.at(-1)).toBe(call);
    }
  });

  it('every accelerator is used once and the views have Ctrl/Cmd+1…6', () => {
    const { calls, actions } = recorder();
    const menu = appMenuTemplate({ platform: 'darwin', recent: [], workspace: null }, actions);
    const accelerators = flatten(menu).map((i) => i.accelerator).filter((a): a is string => typeof a === 'string');
    expect(new Set(accelerators).size).toBe(accelerators.length);
    ['Agent', 'Charts', 'Compare', 'Memory', 'Skills', 'Events'].forEach((label, i) => {
      const item = byLabel(menu, label);
      expect(item.accelerator).toBe(`CmdOrCtrl+${i + 1}`);
      click(item);
      expect(calls.at(-1)).toBe(`command show-${label.toLowerCase()}`);
    });
  });

  it('Open Recent lists the recent folders, disables the open one, and can be cleared', () => {
    const { calls, actions } = recorder();
    const menu = appMenuTemplate({ platform: 'linux', recent: ['/work/api', '/work/web'], workspace: '/work/web' }, actions);
    const recent = byLabel(menu, 'Open Recent').submenu as MenuItemConstructorOptions[];
    expect(recent.map((i) => i.label ?? i.type)).toEqual(['api — /work/api', 'web — /work/web', 'separator', 'Clear Recent']);
    expect(recent[1]!.enabled).toBe(false);
    click(recent[0]!);
    expect(calls).toEqual(['openRecent /work/api']);
    click(byLabel(menu, 'Clear Recent'));
    expect(calls.at(-1)).toBe('clearRecent');
    expect(byLabel(menu, 'Open Demo Workspace').enabled).toBe(true);
  });

  it('with no recent folders Open Recent says so and Clear Recent is disabled; in the demo, Open Demo is disabled', () => {
    const { actions } = recorder();
    const menu = appMenuTemplate({ platform: 'win32', recent: [], workspace: null }, actions);
    expect(byLabel(menu, 'No recent workspaces').enabled).toBe(false);
    expect(byLabel(menu, 'Clear Recent').enabled).toBe(false);
    expect(byLabel(menu, 'Open Demo Workspace').enabled).toBe(false);
  });
});
