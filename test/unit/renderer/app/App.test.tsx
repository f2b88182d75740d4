import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../../../renderer/app/App';
import { demoTree, makeAgent, makeHealth, stateWithAgents } from '../fixtures';
import { renderWithStore } from '../renderWithStore';

describe('App', () => {
  afterEach(cleanup);

  it('the view tabs switch the main area by click and by arrow keys, Home and End', async () => {
    const { store } = renderWithStore(<App />);
    const tab = (name: string) => screen.getByRole('tab', { name });
    expect(tab('Agent').getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel').id).toBe('view-agent');
    act(() => tab('Memory').click());
    expect(store.getState().ui.view).toBe('memory');
    expect(screen.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe('tab-memory');
    const key = (el: HTMLElement, k: string) => act(() => void el.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true })));
    key(tab('Memory'), 'ArrowRight');
    expect(store.getState().ui.view).toBe('skills');
    expect(document.activeElement).toBe(tab('Skills'));
    key(tab('Skills'), 'End');
    expect(store.getState().ui.view).toBe('gateway');
    expect(screen.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe('tab-gateway');
    key(tab('Gateway'), 'ArrowLeft');
    expect(store.getState().ui.view).toBe('events');
    key(tab('Events'), 'ArrowRight');
    key(tab('Gateway'), 'ArrowRight');
    expect(store.getState().ui.view).toBe('agent');
    key(tab('Agent'), 'Home');
    expect(store.getState().ui.view).toBe('agent');
    expect(tab('Charts').tabIndex).toBe(-1);
  });

  it('shows "connecting…" until health arrives, then the workspace name', () => {
    const { store } = renderWithStore(<App />);
    expect(screen.getByText('connecting…')).toBeTruthy();
    act(() => store.getState().dispatch({ type: 'connection.health', health: makeHealth({ workspace: { name: 'acme', catalogPath: '/x' } }) }));
    expect(screen.queryByText('connecting…')).toBeNull();
    expect(screen.getByText('workspace: acme')).toBeTruthy();
  });

  it('shows the error banner while connection.error is set, until the connection opens', () => {
    const { store } = renderWithStore(<App />);
    expect(screen.queryByRole('alert')).toBeNull();
    act(() => store.getState().dispatch({ type: 'connection.error', message: 'The connection to the Strata host was lost.' }));
    expect(screen.getByRole('alert').textContent).toBe('The connection to the Strata host was lost.');
    act(() => store.getState().dispatch({ type: 'connection.status', status: 'open', transport: 'websocket' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it.each([
    { status: 'connecting' as const, transport: undefined, label: 'connecting' },
    { status: 'open' as const, transport: 'electron' as const, label: 'desktop' },
    { status: 'open' as const, transport: 'websocket' as const, label: 'web' },
    { status: 'closed' as const, transport: 'websocket' as const, label: 'closed' },
  ])('labels a $status $transport connection "$label"', ({ status, transport, label }) => {
    const { store, container } = renderWithStore(<App />);
    act(() => store.getState().dispatch({ type: 'connection.status', status, transport }));
    const badge = container.querySelector('[data-connection]');
    expect(badge?.getAttribute('data-connection')).toBe(status);
    expect(badge?.textContent).toBe(label);
  });

  it('the header totals count running agents and the pooled hit rate', () => {
    const agents = [
      makeAgent('a', { status: 'running', usage: { input: 100, cacheRead: 300, cacheWrite: 100, output: 5 } }),
      makeAgent('b', { status: 'done', usage: { input: 500, cacheRead: 100, cacheWrite: 0, output: 5 } }),
    ];
    renderWithStore(<App />, stateWithAgents(agents));
    expect(screen.getByText('1/2 running')).toBeTruthy();
    expect(screen.getByTitle('workspace provider cache hit rate').textContent).toBe('hit 36%');
  });

  it('renders the tree, the selected agent and the log strip together', () => {
    renderWithStore(<App />, stateWithAgents(demoTree(), { selectedAgentId: 'review' }));
    expect(screen.getAllByRole('treeitem')).toHaveLength(5);
    expect(screen.getByRole('region', { name: 'Agent review' })).toBeTruthy();
    expect(screen.getByRole('contentinfo', { name: 'Event log' })).toBeTruthy();
  });
});

describe('[host-lost] the disconnected state', () => {
  afterEach(cleanup);

  it('a drop shows a banner over the views with what happened, when it retries and a reconnect button, until the connection opens again', () => {
    const { store, controller, container } = renderWithStore(<App />);
    act(() => store.getState().dispatch({ type: 'connection.status', status: 'connecting', transport: 'websocket', address: '127.0.0.1:4100' }));
    expect(screen.queryByRole('alert')).toBeNull();
    act(() => store.getState().dispatch({ type: 'connection.status', status: 'open' }));
    act(() => store.getState().dispatch({ type: 'connection.status', status: 'closed', retryInMs: 4_000 }));
    act(() => store.getState().dispatch({ type: 'connection.error', message: 'The connection to the Strata host was lost.' }));
    const banner = screen.getByRole('alert', { name: 'Lost the connection to the Strata host at 127.0.0.1:4100' });
    expect(banner.textContent).toContain('frozen at what they showed');
    expect(banner.textContent).toContain('next attempt in 4 s');
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(container.querySelector('.shell--offline')).not.toBeNull();
    act(() => screen.getByRole('button', { name: 'Reconnect now' }).click());
    expect(controller.reconnect).toHaveBeenCalledOnce();
    act(() => store.getState().dispatch({ type: 'connection.status', status: 'open' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(container.querySelector('.shell--offline')).toBeNull();
  });

  it('a host never reached, and a refused token, say so and what to do', () => {
    const { store } = renderWithStore(<App />);
    act(() => store.getState().dispatch({ type: 'connection.status', status: 'closed', transport: 'websocket', address: '127.0.0.1:4100', retryInMs: 500 }));
    expect(screen.getByRole('alert', { name: 'Cannot reach the Strata host at 127.0.0.1:4100' })).toBeTruthy();
    act(() => store.getState().dispatch({ type: 'connection.status', status: 'refused' }));
    const banner = screen.getByRole('alert', { name: "The Strata host at 127.0.0.1:4100 refused this page's token" });
    expect(banner.textContent).toContain('Open the address it printed in its terminal');
    expect(banner.textContent).toContain('The desktop app reloads itself');
    expect(screen.getByRole('button', { name: 'Try this address again' })).toBeTruthy();
  });
});

describe('App: resizable, collapsible panes', () => {
  afterEach(cleanup);

  it('the rail separator resizes by keys within bounds, and Enter collapses the rail; the top bar brings it back', () => {
    const { store, container } = renderWithStore(<App />, stateWithAgents(demoTree(), { layout: { railWidth: 400, railCollapsed: false, stripHeight: null, stripCollapsed: false } }));
    const sep = screen.getByRole('separator', { name: 'Resize the agent rail' });
    expect(sep.getAttribute('aria-valuenow')).toBe('400');
    // jsdom lays nothing out: the rail measures 0 wide, so a key starts from the bound.
    const key = (k: string, shiftKey = false) => act(() => void fireEvent.keyDown(sep, { key: k, shiftKey }));
    key('End');
    expect(store.getState().ui.layout.railWidth).toBe(Number(sep.getAttribute('aria-valuemax')));
    key('Home');
    expect(store.getState().ui.layout.railWidth).toBe(260);
    expect((container.firstElementChild as HTMLElement).style.getPropertyValue('--rail-w')).toBe('260px');
    key('Enter');
    expect(store.getState().ui.layout.railCollapsed).toBe(true);
    expect(container.querySelector('#rail')?.hasAttribute('hidden')).toBe(true);
    expect(screen.queryByRole('separator', { name: 'Resize the agent rail' })).toBeNull();
    const agents = screen.getByRole('button', { name: 'Agents' });
    expect(agents.getAttribute('aria-pressed')).toBe('false');
    act(() => agents.click());
    expect(store.getState().ui.layout.railCollapsed).toBe(false);
    expect(screen.getAllByRole('treeitem')).toHaveLength(5);
  });

  it('dragging the log separator up makes the strip taller', () => {
    const { store } = renderWithStore(<App />);
    const sep = screen.getByRole('separator', { name: 'Resize the log strip' });
    act(() => {
      fireEvent.pointerDown(sep, { button: 0, clientY: 500, pointerId: 1 });
      fireEvent.pointerMove(sep, { clientY: 380, pointerId: 1 });
      fireEvent.pointerUp(sep, { pointerId: 1 });
    });
    // From the strip's measured height (0 in jsdom, so the 60 px floor) plus 120 px.
    expect(store.getState().ui.layout.stripHeight).toBe(120);
  });
});

describe('App: keyboard shortcuts', () => {
  afterEach(cleanup);
  const keydown = (target: EventTarget, key: string, o: KeyboardEventInit = {}) => act(() => void target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...o })));

  it('"?" lists the shortcuts in a dialog, Escape closes it and focus goes back; the top bar button opens it too', () => {
    const { store } = renderWithStore(<App />);
    const opener = screen.getByRole('button', { name: 'Keyboard shortcuts' });
    opener.focus();
    keydown(opener, '?', { shiftKey: true });
    const dialog = screen.getByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(dialog.textContent).toContain('Show the Charts view');
    expect(dialog.textContent).toContain('Ctrl+Shift+Backspace');
    expect(document.activeElement?.textContent).toBe('Close');
    keydown(document.activeElement as Element, 'Escape');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
    act(() => opener.click());
    expect(store.getState().ui.shortcutsDialog).toBe(true);
  });

  it('a digit switches the view from anywhere but a text field', () => {
    const { store } = renderWithStore(<App />, stateWithAgents(demoTree()));
    keydown(document.body, '2', { code: 'Digit2' });
    expect(store.getState().ui.view).toBe('charts');
    const filter = screen.getByLabelText('Filter agents');
    keydown(filter, '5', { code: 'Digit5' });
    expect(store.getState().ui.view).toBe('charts');
    keydown(document.body, '5', { code: 'Digit5', ctrlKey: true });
    expect(store.getState().ui.view).toBe('skills');
  });
});
