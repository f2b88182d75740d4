// @vitest-environment jsdom
import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { appMenuTemplate, type MenuActions } from '../../../../electron/main/appMenu';
import type { AppCommand } from '../../../../engine/contract';
import { isTypingTarget, shortcutAction, shortcutList, type KeyLike } from '../../../../renderer/app/shortcuts';
import type { Action } from '../../../../renderer/store/actions';
import { reduceUi, uiInitialState, type UiState } from '../../../../renderer/store/ui/uiSlice';

const flatten = (items: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] => items.flatMap((i) => [i, ...(Array.isArray(i.submenu) ? flatten(i.submenu) : [])]);

/** A key press as the handler sees it, on `target` (the body unless given). */
function press(key: string, o: Partial<KeyLike> & { target?: EventTarget | null; defaultPrevented?: boolean } = {}) {
  const code = /^[0-9]$/.test(key) ? `Digit${key}` : key.length === 1 ? `Key${key.toUpperCase()}` : key;
  return { key, code, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, repeat: false, defaultPrevented: false, target: document.body, ...o };
}
const web = { mac: false, desktop: false, otherDialogOpen: false };
const apply = (ui: UiState, actions: Action[] | null) => (actions ?? []).reduce(reduceUi, ui);

/** Parse an Electron accelerator ("CmdOrCtrl+Shift+C") into the key press it stands for, on Linux. */
function acceleratorPress(acc: string) {
  const parts = acc.split('+');
  const key = parts.at(-1) as string;
  return press(key === 'Backspace' ? 'Backspace' : parts.includes('Shift') && key.length === 1 ? key : key.toLowerCase(), { ctrlKey: parts.includes('CmdOrCtrl'), shiftKey: parts.includes('Shift') });
}

describe('keyboard shortcuts of the web control room', () => {
  it("every desktop menu shortcut that acts on the views does the same in the web control room", () => {
    const commands: [string, AppCommand][] = [];
    const actions: MenuActions = { openWorkspace: () => undefined, openRecent: () => undefined, openDemo: () => undefined, clearRecent: () => undefined, importTrace: () => undefined, command: (c) => void commands.push(['', c]) };
    const items = flatten(appMenuTemplate({ platform: 'linux', recent: [], workspace: null }, actions)).filter((i) => typeof i.accelerator === 'string' && i.click);
    const checked: string[] = [];
    for (const item of items) {
      commands.length = 0;
      (item.click as unknown as () => void)();
      const command = commands[0]?.[1];
      // Opening a workspace or importing a trace needs the desktop's file dialogs: only the menu has them.
      if (!command) continue;
      const start: UiState = { ...uiInitialState, view: command === 'show-agent' ? 'events' : 'agent' };
      const byMenu = reduceUi(start, { type: 'event', event: { name: 'app.command', payload: { command } } });
      const byKey = apply(start, shortcutAction(acceleratorPress(item.accelerator as string), start, web));
      expect(byKey, `${item.label} (${item.accelerator})`).toEqual(byMenu);
      checked.push(item.accelerator as string);
    }
    expect(checked).toEqual(expect.arrayContaining(['CmdOrCtrl+1', 'CmdOrCtrl+6', 'CmdOrCtrl+7', 'CmdOrCtrl+Shift+C', 'CmdOrCtrl+Shift+Backspace']));
    expect(checked).toHaveLength(9);
    // The list the "?" dialog shows names each of them.
    const listed = shortcutList(false).flatMap((s) => s.keys);
    for (const acc of checked) expect(listed).toContain(acc.replace('CmdOrCtrl', 'Ctrl'));
  });

  it('the digits alone switch views (browsers keep Ctrl+digit for their tabs); ⌘ on macOS', () => {
    expect(apply(uiInitialState, shortcutAction(press('2'), uiInitialState, web)).view).toBe('charts');
    expect(apply(uiInitialState, shortcutAction(press('6'), uiInitialState, web)).view).toBe('events');
    expect(apply(uiInitialState, shortcutAction(press('7'), uiInitialState, web)).view).toBe('gateway');
    expect(apply(uiInitialState, shortcutAction(press('7', { ctrlKey: true }), uiInitialState, web)).view).toBe('gateway');
    expect(shortcutAction(press('8'), uiInitialState, web)).toBeNull();
    expect(shortcutAction(press('3', { altKey: true }), uiInitialState, web)).toBeNull();
    expect(apply(uiInitialState, shortcutAction(press('3', { metaKey: true }), uiInitialState, { ...web, mac: true })).view).toBe('compare');
    expect(shortcutAction(press('3', { ctrlKey: true }), uiInitialState, { ...web, mac: true })).toBeNull();
  });

  it('[ and ] collapse the rail and the log strip; ? opens the list and Escape closes it', () => {
    let ui = apply(uiInitialState, shortcutAction(press('['), uiInitialState, web));
    expect(ui.layout.railCollapsed).toBe(true);
    ui = apply(ui, shortcutAction(press(']'), ui, web));
    expect(ui.layout.stripCollapsed).toBe(true);
    ui = apply(ui, shortcutAction(press('?', { shiftKey: true }), ui, web));
    expect(ui.shortcutsDialog).toBe(true);
    ui = apply(ui, shortcutAction(press('Escape'), ui, web));
    expect(ui.shortcutsDialog).toBe(false);
    expect(shortcutAction(press('Escape'), ui, web)).toBeNull();
  });

  it('leaves keys alone in inputs and text fields, after a component handled them, and under another modal dialog', () => {
    const input = document.createElement('input');
    const area = document.createElement('textarea');
    const select = document.createElement('select');
    const checkbox = Object.assign(document.createElement('input'), { type: 'checkbox' });
    const editable = document.createElement('div');
    editable.setAttribute('contenteditable', 'true');
    const inside = document.createElement('span');
    editable.appendChild(inside);
    for (const target of [input, area, select, inside]) {
      expect(isTypingTarget(target)).toBe(true);
      expect(shortcutAction(press('2', { target }), uiInitialState, web)).toBeNull();
      expect(shortcutAction(press('?', { target }), uiInitialState, web)).toBeNull();
      expect(shortcutAction(press('Backspace', { target, ctrlKey: true, shiftKey: true }), uiInitialState, web)).toBeNull();
    }
    expect(isTypingTarget(checkbox)).toBe(false);
    expect(shortcutAction(press('2', { target: checkbox }), uiInitialState, web)).not.toBeNull();
    expect(shortcutAction(press('2', { defaultPrevented: true }), uiInitialState, web)).toBeNull();
    expect(shortcutAction(press('2'), uiInitialState, { ...web, otherDialogOpen: true })).toBeNull();
  });

  it('in the desktop app the menu keeps its own shortcuts; the bare keys still work', () => {
    const desktop = { ...web, desktop: true };
    expect(shortcutAction(press('2', { ctrlKey: true }), uiInitialState, desktop)).toBeNull();
    expect(shortcutAction(press('C', { ctrlKey: true, shiftKey: true }), uiInitialState, desktop)).toBeNull();
    expect(apply(uiInitialState, shortcutAction(press('2'), uiInitialState, desktop)).view).toBe('charts');
    // The Gateway view is in the desktop menu too (Ctrl+7): the menu has it, the bare key is the renderer's.
    expect(shortcutAction(press('7', { ctrlKey: true }), uiInitialState, desktop)).toBeNull();
    expect(apply(uiInitialState, shortcutAction(press('7'), uiInitialState, desktop)).view).toBe('gateway');
    expect(shortcutList(false).find((s) => s.what === 'Show the Gateway view')?.keys).toEqual(['Ctrl+7', '7']);
    expect(apply(uiInitialState, shortcutAction(press('?'), uiInitialState, desktop)).shortcutsDialog).toBe(true);
  });
});
