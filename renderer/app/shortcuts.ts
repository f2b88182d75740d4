import type { Action } from '../store/actions';
import { VIEWS, type ViewName } from '../store/ui/uiActions';
import type { UiState } from '../store/ui/uiSlice';

/**
 * The control room's keyboard shortcuts, one list for the handler and the "?" dialog. The
 * desktop menu's (electron/main/appMenu.ts: Ctrl/⌘+1…6 for the views but Gateway, whose Ctrl/⌘+7
 * the renderer handles in both shells, Ctrl/⌘+Shift+C for
 * Compare, Ctrl/⌘+Shift+Backspace for Purge Memory) are here for the web control room; in the
 * desktop app the menu handles them. Browsers keep Ctrl+1…6 for their own tabs, so the views also
 * answer to the bare digits, which, like every key here, are left alone in inputs and text fields.
 */
export interface Shortcut {
  /** The keys as the dialog shows them. */
  keys: string[];
  what: string;
  /** The desktop menu handles it in the Electron app (the renderer then leaves it to the menu). */
  menu?: true;
  /** The desktop menu handles its Ctrl/⌘ form in the Electron app (the bare key stays the renderer's). */
  menuModified?: true;
  /** The actions, in order; `ui` is the state when the key was pressed. */
  act(ui: UiState): Action[];
  match(e: KeyLike, mac: boolean): boolean;
}

/** The parts of a KeyboardEvent a shortcut matches on. */
export type KeyLike = Pick<KeyboardEvent, 'key' | 'code' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>;

const VIEW_LABEL: Record<ViewName, string> = { agent: 'Agent', charts: 'Charts', compare: 'Compare', memory: 'Memory', skills: 'Skills', events: 'Events', gateway: 'Gateway' };
/** Ctrl on Windows and Linux, ⌘ on macOS, as Electron's CmdOrCtrl. */
const primary = (e: KeyLike, mac: boolean) => (mac ? e.metaKey && !e.ctrlKey : e.ctrlKey && !e.metaKey);
const bare = (e: KeyLike) => !e.ctrlKey && !e.metaKey && !e.altKey;
const digit = (e: KeyLike) => (/^Digit[1-9]$/.test(e.code) ? Number(e.code.slice(5)) : /^[1-9]$/.test(e.key) ? Number(e.key) : 0);

export function shortcutList(mac: boolean): Shortcut[] {
  const mod = mac ? '⌘' : 'Ctrl';
  const views: Shortcut[] = VIEWS.map((v, i) => ({
    keys: [`${mod}+${i + 1}`, `${i + 1}`],
    what: `Show the ${VIEW_LABEL[v]} view`,
    // The desktop menu's View items carry the same Ctrl/⌘+N (electron/main/appMenu.ts).
    menuModified: true as const,
    act: () => [{ type: 'view.select', view: v }],
    match: (e, m) => digit(e) === i + 1 && !e.altKey && !e.shiftKey && (bare(e) || primary(e, m)),
  }));
  return [
    ...views,
    {
      keys: [`${mod}+Shift+C`],
      what: 'Compare strategies',
      menu: true,
      act: () => [{ type: 'view.select', view: 'compare' }],
      match: (e, m) => primary(e, m) && e.shiftKey && !e.altKey && e.key.toLowerCase() === 'c',
    },
    {
      keys: [`${mod}+Shift+Backspace`],
      what: 'Purge project memory… (opens the confirmation)',
      menu: true,
      act: () => [
        { type: 'view.select', view: 'memory' },
        { type: 'purge.dialog', open: true },
      ],
      match: (e, m) => primary(e, m) && e.shiftKey && !e.altKey && e.key === 'Backspace',
    },
    {
      keys: ['['],
      what: 'Show or hide the agent rail',
      act: (ui) => [{ type: 'layout.set', layout: { railCollapsed: !ui.layout.railCollapsed } }],
      match: (e) => bare(e) && e.key === '[',
    },
    {
      keys: [']'],
      what: 'Expand or collapse the log strip',
      act: (ui) => [{ type: 'layout.set', layout: { stripCollapsed: !ui.layout.stripCollapsed } }],
      match: (e) => bare(e) && e.key === ']',
    },
    {
      keys: ['?'],
      what: 'Show this list of shortcuts',
      act: (ui) => [{ type: 'shortcuts.dialog', open: !ui.shortcutsDialog }],
      match: (e) => bare(e) && e.key === '?',
    },
  ];
}

/** True when the key goes to a field the user types in (inputs, text areas, selects, editable content). */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).closest !== 'function') return false;
  const el = target as HTMLElement;
  if (el.isContentEditable) return true;
  const field = el.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"]');
  if (!field) return false;
  if (field instanceof HTMLInputElement) return !['button', 'checkbox', 'radio', 'range', 'reset', 'submit', 'color', 'file', 'image'].includes(field.type);
  return true;
}

/**
 * The actions a key press asks for, or null: nothing while typing in a field or when a component
 * already handled the key, nothing the desktop menu owns in the desktop app, and only Escape
 * (closing the list) while a modal dialog other than the list is open.
 */
export function shortcutAction(e: KeyLike & Pick<KeyboardEvent, 'target' | 'defaultPrevented' | 'repeat'>, ui: UiState, o: { mac: boolean; desktop: boolean; otherDialogOpen: boolean }): Action[] | null {
  if (e.defaultPrevented || isTypingTarget(e.target)) return null;
  if (ui.shortcutsDialog && e.key === 'Escape') return [{ type: 'shortcuts.dialog', open: false }];
  if (o.otherDialogOpen) return null;
  for (const s of shortcutList(o.mac)) {
    if (!s.match(e, o.mac)) continue;
    if (o.desktop && s.menu) return null;
    if (o.desktop && s.menuModified && !bare(e)) return null;
    return s.act(ui);
  }
  return null;
}
