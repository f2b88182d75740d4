import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { initialRootState, type RootState } from '../../../../../renderer/store/reduce';
import { sessionsInitialState } from '../../../../../renderer/store/sessions/sessionsSlice';
import { AttachSessions } from '../../../../../renderer/views/attach/AttachSessions';
import { makeAgent, stateWithAgents } from '../../fixtures';
import { renderWithStore } from '../../renderWithStore';
import { makeLive, makeSession, sessionUpdated } from '../../sessionFixtures';

afterEach(cleanup);

const older = makeSession('/home/dev/.codex/sessions/rollout-old.jsonl', { tool: 'codex', project: 'api', model: 'gpt-5-codex', modifiedAt: '2026-01-04T10:00:00.000Z', startedAt: null, size: 900 });
const newer = makeSession('/home/dev/.claude/projects/web/new.jsonl', { project: 'web', growing: true, size: 3 * 1024 * 1024 });

/** The host listed two sessions (older first, to check the view's order). */
function listed(over: Partial<RootState['sessions']> = {}): RootState {
  return { ...initialRootState, sessions: { ...sessionsInitialState, discovered: { sessions: [older, newer], roots: ['/home/dev/.claude/projects', '/home/dev/.codex/sessions'], status: 'ready', error: null }, ...over } };
}

const open = () => fireEvent.click(screen.getByRole('button', { name: 'Attach session…' }));
const picker = () => screen.getByRole('region', { name: 'Attach a session' });
const budget = () => screen.getByLabelText('Budget (tokens)') as HTMLInputElement;

describe('attach entry in the rail', () => {
  it('"Attach session…" is a keyboard-reachable disclosure that lists the host’s sessions when opened; Escape closes it', () => {
    const { controller } = renderWithStore(<AttachSessions />, listed());
    const toggle = screen.getByRole('button', { name: 'Attach session…' });
    expect(toggle.tagName).toBe('BUTTON');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(controller.loadSessions).not.toHaveBeenCalled();
    open();
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(toggle.getAttribute('aria-controls')).toBe(picker().id);
    expect(controller.loadSessions).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(budget(), { key: 'Escape' });
    expect(screen.queryByRole('region', { name: 'Attach a session' })).toBeNull();
    expect(document.activeElement).toBe(toggle);
  });

  it('lists sessions newest first with tool, project, model, start, size and a growing badge', () => {
    renderWithStore(<AttachSessions />, listed());
    open();
    const items = within(screen.getByRole('list', { name: 'Sessions on the host, newest first' })).getAllByRole('listitem');
    expect(items.map((li) => li.getAttribute('data-path'))).toEqual([newer.path, older.path]);
    expect(items[0]?.textContent).toContain('Claude Code');
    expect(items[0]?.textContent).toContain('web');
    expect(items[0]?.textContent).toContain('claude-sonnet-4');
    expect(items[0]?.textContent).toContain('3.0 MB');
    expect(within(items[0] as HTMLElement).getByText('growing')).toBeTruthy();
    expect(items[1]?.textContent).toContain('Codex');
    expect(items[1]?.textContent).toContain('gpt-5-codex');
    expect(items[1]?.textContent).toContain('900 B');
    expect(items[1]?.textContent).toContain('written ');
    expect(within(items[1] as HTMLElement).queryByText('growing')).toBeNull();
  });

  it('offers the engine strategies (variable by default) and attaches with the chosen strategy and budget', () => {
    const { controller } = renderWithStore(<AttachSessions />, listed());
    open();
    const strategy = screen.getByLabelText('Strategy') as HTMLSelectElement;
    expect(strategy.value).toBe('variable');
    expect([...strategy.options].map((o) => o.value)).toEqual(['variable', 'full_history', 'summary', 'aggressive_refresh', 'role_optimized']);
    expect(budget().value).toBe('100000');
    fireEvent.change(strategy, { target: { value: 'aggressive_refresh' } });
    fireEvent.change(budget(), { target: { value: '48000' } });
    const row = screen.getAllByRole('listitem').find((li) => li.getAttribute('data-path') === newer.path) as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: /^Attach Claude Code session web/ }));
    expect(controller.attachSession).toHaveBeenCalledExactlyOnceWith({ path: newer.path, strategy: 'aggressive_refresh', budget: 48_000 });
  });

  it('refuses a budget that is not a whole number of at least 1,000 tokens, and says so inline', () => {
    const { controller } = renderWithStore(<AttachSessions />, listed());
    open();
    for (const bad of ['999', '1500.5', '', 'abc', '3000000']) {
      fireEvent.change(budget(), { target: { value: bad } });
      expect(budget().getAttribute('aria-invalid')).toBe('true');
      expect(screen.getByText('Budget must be a whole number of tokens from 1,000 to 2,000,000.')).toBeTruthy();
      for (const b of within(picker()).getAllByRole('button', { name: /^Attach/ })) expect((b as HTMLButtonElement).disabled).toBe(true);
    }
    fireEvent.change(budget(), { target: { value: '1000' } });
    expect(budget().getAttribute('aria-invalid')).toBe('false');
    fireEvent.click(within(picker()).getAllByRole('button', { name: /^Attach Codex/ })[0] as HTMLElement);
    expect(controller.attachSession).toHaveBeenCalledExactlyOnceWith({ path: older.path, strategy: 'variable', budget: 1000 });
  });

  it('attaches a file by its path', () => {
    const { controller } = renderWithStore(<AttachSessions />, listed());
    open();
    const button = screen.getByRole('button', { name: 'Attach path' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Session file path'), { target: { value: '  /tmp/x/session.jsonl ' } });
    fireEvent.click(button);
    expect(controller.attachSession).toHaveBeenCalledExactlyOnceWith({ path: '/tmp/x/session.jsonl', strategy: 'variable', budget: 100_000 });
  });

  it('"Refresh list" lists again; loading, failure and empty states are said', () => {
    const { controller, store } = renderWithStore(<AttachSessions />, listed());
    open();
    fireEvent.click(screen.getByRole('button', { name: 'Refresh list' }));
    expect(controller.loadSessions).toHaveBeenCalledTimes(2);
    act(() => store.getState().dispatch({ type: 'sessions.listing' }));
    expect(screen.getByRole('status').textContent).toBe('Looking for Claude Code and Codex sessions…');
    act(() => store.getState().dispatch({ type: 'sessions.listed', sessions: [], roots: ['/home/dev/.claude/projects', '/home/dev/.codex/sessions'] }));
    expect(screen.getByText('No Claude Code or Codex sessions found in /home/dev/.claude/projects, /home/dev/.codex/sessions.')).toBeTruthy();
    act(() => store.getState().dispatch({ type: 'sessions.listFailed', message: 'Sessions could not be listed: EACCES' }));
    expect(screen.getByRole('alert').textContent).toBe('Sessions could not be listed: EACCES');
  });

  it('while an attach is in flight the buttons wait; the host’s error is shown as an alert', () => {
    const { store } = renderWithStore(<AttachSessions />, listed());
    open();
    act(() => store.getState().dispatch({ type: 'sessions.attaching', path: newer.path }));
    expect(within(picker()).getByRole('button', { name: /^Attach Claude Code/ }).textContent).toBe('Attaching…');
    for (const b of within(picker()).getAllByRole('button', { name: /^Attach (Claude|Codex)/ })) expect((b as HTMLButtonElement).disabled).toBe(true);
    act(() => store.getState().dispatch({ type: 'sessions.attachFailed', path: newer.path, message: `Could not attach ${newer.path}: 8 sessions are attached already; detach one first.` }));
    expect(screen.getByRole('alert').textContent).toContain('8 sessions are attached already; detach one first.');
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss the message' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('[live-done] an attached session whose main agent is done says so beside its file state', () => {
    const base = stateWithAgents([makeAgent('ses-1', { role: 'primary', sessionId: 'ses-1', status: 'done' }), makeAgent('ses-2', { role: 'primary', sessionId: 'ses-2', status: 'running' })]);
    renderWithStore(<AttachSessions />, { ...base, sessions: { ...sessionsInitialState, attached: { 'ses-1': makeLive('ses-1'), 'ses-2': makeLive('ses-2') }, order: ['ses-1', 'ses-2'] } });
    const [one, two] = within(screen.getByRole('list', { name: 'Attached sessions' })).getAllByRole('listitem') as [HTMLElement, HTMLElement];
    expect(within(one).getByText('done').getAttribute('data-status')).toBe('done');
    expect(within(one).getByText('following')).toBeTruthy();
    expect(within(two).queryByText('done')).toBeNull();
  });

  it('[live-done] the picker says "done", never "growing", for a session the host lists as done; for one attached, its main agent decides', () => {
    const finished = makeSession('/home/dev/.claude/projects/web/finished.jsonl', { project: 'web', done: true, growing: false, modifiedAt: '2026-01-05T09:40:00.000Z' });
    const followed = makeSession('/home/dev/.claude/projects/web/followed.jsonl', { project: 'web', done: false, growing: true, modifiedAt: '2026-01-05T09:35:00.000Z' });
    const reopened = makeSession('/home/dev/.claude/projects/web/reopened.jsonl', { project: 'web', done: true, growing: false, modifiedAt: '2026-01-05T09:34:00.000Z' });
    // ses-1 follows `followed`: its file was growing when listed, and its main agent is done since. ses-2 follows `reopened`, running again.
    const base = stateWithAgents([makeAgent('ses-1', { role: 'primary', sessionId: 'ses-1', status: 'done' }), makeAgent('ses-2', { role: 'primary', sessionId: 'ses-2', status: 'running' })]);
    const state: RootState = {
      ...base,
      sessions: {
        ...sessionsInitialState,
        discovered: { sessions: [finished, followed, reopened, older], roots: [], status: 'ready', error: null },
        attached: { 'ses-1': makeLive('ses-1', { path: followed.path }), 'ses-2': makeLive('ses-2', { path: reopened.path }) },
        order: ['ses-1', 'ses-2'],
      },
    };
    renderWithStore(<AttachSessions />, state);
    open();
    const rows = within(screen.getByRole('list', { name: 'Sessions on the host, newest first' })).getAllByRole('listitem');
    const tags = (path: string) => {
      const row = rows.find((li) => li.getAttribute('data-path') === path) as HTMLElement;
      return [...row.querySelectorAll('[data-state]')].map((t) => t.textContent);
    };
    expect(tags(finished.path)).toEqual(['done']);
    expect(tags(followed.path)).toEqual(['done']);
    expect(tags(reopened.path)).toEqual(['growing']);
    expect(tags(older.path)).toEqual([]);
    // The attached list reads the same fact for the same file.
    const attachedRow = within(screen.getByRole('list', { name: 'Attached sessions' })).getAllByRole('listitem')[0] as HTMLElement;
    expect(attachedRow.querySelector('[data-status="done"]')?.textContent).toBe('done');
  });

  it('lists attached sessions with status, message, counts and a Detach button; selecting one shows its main agent', () => {
    const base = stateWithAgents([makeAgent('ses-1', { role: 'primary', sessionId: 'ses-1' })]);
    const state: RootState = { ...base, sessions: { ...sessionsInitialState, attached: { 'ses-1': makeLive('ses-1'), 'ses-2': makeLive('ses-2', { status: 'deleted', message: 'The file was deleted; waiting for it to come back.', lines: 1_200 }, null) }, order: ['ses-1', 'ses-2'] } };
    const { controller, store } = renderWithStore(<AttachSessions />, state);
    const list = screen.getByRole('list', { name: 'Attached sessions' });
    const [one, two] = within(list).getAllByRole('listitem') as [HTMLElement, HTMLElement];
    expect(within(one).getByText('following')).toBeTruthy();
    expect(one.textContent).toContain('40 lines · 30 events · Strata variable @ 100k');
    expect(one.textContent).toContain('hit recorded 67% · Strata 79%');
    expect(within(two).getByText('deleted').getAttribute('data-status')).toBe('deleted');
    expect(two.textContent).toContain('The file was deleted; waiting for it to come back.');
    expect(two.textContent).toContain('1,200 lines');
    expect(two.textContent).toContain('Strata replaying…');
    expect(screen.getByText('2 attached')).toBeTruthy();

    fireEvent.click(within(one).getByRole('button', { name: /^Show ses-1/ }));
    expect(controller.select).toHaveBeenCalledExactlyOnceWith('ses-1');
    expect(store.getState().ui.view).toBe('agent');
    // ses-2's agents have not arrived: say so rather than select an agent the tree does not hold.
    fireEvent.click(within(two).getByRole('button', { name: /^Show ses-2/ }));
    expect(controller.select).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('alert').textContent).toContain("ses-2's agents are not in the tree yet");

    fireEvent.click(within(one).getByRole('button', { name: 'Detach ses-1' }));
    expect(controller.detachSession).toHaveBeenCalledExactlyOnceWith('ses-1');
    // Nothing optimistic: the row stays until the host answers, marked as detaching.
    act(() => store.getState().dispatch({ type: 'sessions.detaching', sessionId: 'ses-1' }));
    expect((within(one).getByRole('button', { name: 'Detach ses-1' }) as HTMLButtonElement).disabled).toBe(true);
    act(() => store.getState().dispatch({ type: 'sessions.detachFailed', sessionId: 'ses-1', message: 'Could not detach ses-1: No attached session ses-1.' }));
    expect(screen.getByRole('alert').textContent).toContain('Could not detach ses-1: No attached session ses-1.');
    expect((within(one).getByRole('button', { name: 'Detach ses-1' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('marks the attached session of the selected agent, and follows session.updated', () => {
    const base = stateWithAgents([makeAgent('ses-1', { sessionId: 'ses-1' }), makeAgent('ses-1/a1', { parent: 'ses-1', sessionId: 'ses-1' })], { selectedAgentId: 'ses-1/a1' });
    const { store } = renderWithStore(<AttachSessions />, { ...base, sessions: { ...sessionsInitialState, attached: { 'ses-1': makeLive('ses-1') }, order: ['ses-1'] } });
    const row = () => screen.getByRole('listitem');
    expect(row().getAttribute('aria-current')).toBe('true');
    act(() => store.getState().dispatch({ type: 'event', event: sessionUpdated(makeLive('ses-1', { status: 'rotated', message: 'Another file replaced it.' })) }));
    expect(within(row()).getByText('rotated')).toBeTruthy();
    expect(row().textContent).toContain('Another file replaced it.');
  });
});
