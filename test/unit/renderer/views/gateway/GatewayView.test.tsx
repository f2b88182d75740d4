import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initialRootState, type RootState } from '../../../../../renderer/store/reduce';
import type { GatewayState } from '../../../../../renderer/store/gateway/gatewaySlice';
import { GatewayView } from '../../../../../renderer/views/gateway/GatewayView';
import { parsePort } from '../../../../../renderer/views/gateway/GatewayStatusPanel';
import { makeGatewayCall, makeGatewayDetail, makeGatewaySession, makeGatewayStatus, makeGeneration, makeThread, makeTotals, stoppedGateway } from '../../gatewayFixtures';
import { renderWithStore } from '../../renderWithStore';

afterEach(cleanup);

const state = (over: Partial<GatewayState>): RootState => ({ ...initialRootState, ui: { ...initialRootState.ui, view: 'gateway' }, gateway: { ...initialRootState.gateway, load: 'ready', ...over } });

/** Session gs-1 selected, in manage mode: its main thread (two calls, the newest managed) with two generations, and a subagent. */
function managedState(over: Partial<GatewayState> = {}): RootState {
  const observed = makeGatewayCall('c1', { startedAt: Date.UTC(2026, 0, 5, 9, 0, 0), cacheBreak: { at: 'first call', blockIndex: -1, unchangedBytes: 0 } });
  const managed = makeGatewayCall('c2', {
    mode: 'manage',
    startedAt: Date.UTC(2026, 0, 5, 9, 1, 0),
    cacheBreak: { at: 'message 3', blockIndex: 5, unchangedBytes: 9_000, providerReason: 'system prompt changed' },
    rewrite: { generation: 2, boundary: true, reason: 'budget reached', compressed: [], dropped: [], breakpoints: [], originalTokens: 150_000, rewrittenTokens: 42_000 },
    hasRequest: true,
  });
  const failed = makeGatewayCall('c3', { startedAt: Date.UTC(2026, 0, 5, 9, 2, 0), status: 429, error: 'rate limited', usage: undefined, costUsd: undefined, fallback: 'the engine could not read the body' });
  const compressed = { key: 'toolu_read', tool: 'Read', beforeTokens: 12_000, afterTokens: 80, why: 'outside the protected window' };
  const main = makeThread('th-main', {
    calls: [observed, managed, failed],
    generations: [makeGeneration(1, { included: ['toolu_read', 'toolu_grep'] }), makeGeneration(2, { reason: 'budget reached: 160000 tokens over the high watermark', firstCall: 2, included: ['toolu_grep'], compressed: [compressed], dropped: [{ key: 'toolu_old', why: 'removed by the operator' }] })],
    generationsTotal: 2,
    pins: ['toolu_grep'],
    removals: ['toolu_old'],
  });
  const sub = makeThread('th-sub', { parentId: 'th-main', label: 'subagent: explore' });
  const session = makeGatewaySession('gs-1', { mode: 'manage', threads: 2, totals: makeTotals({ managed: 1, savedUsd: 0.42, savedTokens: 108_000 }) });
  return state({ status: makeGatewayStatus(), sessions: [session], selectedId: 'gs-1', detail: { session, threads: [main, sub] }, threadId: 'th-main', ...over });
}

describe('Gateway view', () => {
  it('loads the gateway when it opens; stopped, it says how to start it (here or `npx strata gateway`)', () => {
    const { controller } = renderWithStore(<GatewayView />, state({ status: stoppedGateway() }));
    expect(controller.loadGateway).toHaveBeenCalledTimes(1);
    const panel = screen.getByRole('region', { name: 'Gateway status' });
    expect(within(panel).getByText('stopped')).toBeTruthy();
    expect(panel.textContent).toContain('npx strata gateway');
    expect(panel.textContent).toContain('Anthropic calls go to https://api.anthropic.com');
    expect(screen.getByRole('region', { name: 'Gateway sessions' }).textContent).toContain('No sessions: start the gateway');
  });

  it('the toggle starts with the port and mode chosen, refuses a bad port in words, and stops a running gateway', () => {
    const { controller, store } = renderWithStore(<GatewayView />, state({ status: stoppedGateway() }));
    const port = screen.getByRole('textbox', { name: 'Port' });
    fireEvent.change(port, { target: { value: '99999' } });
    expect(screen.getByRole('alert').textContent).toContain('The port must be a whole number from 0 to 65535 (got "99999")');
    const start = screen.getByRole('button', { name: 'Start gateway' }) as HTMLButtonElement;
    expect(start.disabled).toBe(true);
    fireEvent.change(port, { target: { value: '9001' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'New sessions' }), { target: { value: 'manage' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start gateway' }));
    expect(controller.startGateway).toHaveBeenCalledWith({ port: 9001, mode: 'manage' });
    act(() => store.getState().dispatch({ type: 'gateway.toggled', status: makeGatewayStatus(), message: 'The gateway is listening at http://127.0.0.1:8787; new sessions start in observe mode.' }));
    fireEvent.click(screen.getByRole('button', { name: 'Stop gateway' }));
    expect(controller.stopGateway).toHaveBeenCalledTimes(1);
  });

  it('shows the start problem and a refusal in words', () => {
    const { store } = renderWithStore(<GatewayView />, state({ status: stoppedGateway({ problem: 'The gateway could not start: listen EADDRINUSE 127.0.0.1:8787' }) }));
    expect(screen.getByRole('alert').textContent).toBe('The gateway could not start: listen EADDRINUSE 127.0.0.1:8787');
    act(() => store.getState().dispatch({ type: 'gateway.toggleFailed', message: 'The gateway did not start: port taken' }));
    const notice = screen.getAllByRole('alert').find((a) => a.classList.contains('gw__notice'));
    expect(notice?.querySelector('span')?.textContent).toBe('The gateway did not start: port taken');
    fireEvent.click(within(notice!).getByRole('button', { name: 'Dismiss the message' }));
    expect(store.getState().gateway.notice).toBeNull();
  });

  it('running: its address and each client line with a Copy button; no sessions yet points a client at it', async () => {
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderWithStore(<GatewayView />, state({ status: makeGatewayStatus() }));
    expect(screen.getByText('http://127.0.0.1:8787')).toBeTruthy();
    const lines = screen.getByRole('list', { name: 'Point a client at the gateway' });
    expect(within(lines).getByText('ANTHROPIC_BASE_URL=http://127.0.0.1:8787')).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Copy the Claude Code line' })));
    expect(writeText).toHaveBeenCalledWith('ANTHROPIC_BASE_URL=http://127.0.0.1:8787');
    expect(screen.getByText('Copied.')).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Gateway sessions' }).textContent).toContain('No sessions yet: point a client at the gateway');
  });

  it('the sessions table: client, model, mode, threads, calls, billed prompt, cache-read share, money, reuse, the estimated saving and choosing one', () => {
    const s = makeGatewaySession('gs-1', { mode: 'manage', threads: 3, totals: makeTotals({ calls: 12, errors: 1, managed: 4, savedUsd: 0.42 }) });
    const { controller } = renderWithStore(<GatewayView />, state({ status: makeGatewayStatus(), sessions: [s] }));
    const table = screen.getByRole('table', { name: 'Gateway sessions' });
    const cells = within(table).getAllByRole('row')[1]!.querySelectorAll('td');
    expect([...cells].slice(0, 9).map((c) => c.textContent)).toEqual(['claude-codeclaude-sonnet-4-5 · gs-1', 'manage', '3', '12 (1 failed)', '5k', '60%', '$0.0123', '80%', '≈ $0.4200']);
    expect(within(table).getByRole('columnheader', { name: 'Saved so far (estimate)' }).getAttribute('title')).toContain('Estimated');
    fireEvent.click(within(table).getByRole('button', { name: 'Show session gs-1 (claude-code)' }));
    expect(controller.selectGatewaySession).toHaveBeenCalledWith('gs-1');
  });

  it('the selected session: the mode switch (from the next call), the thread tree, and choosing a thread', () => {
    const { controller, store } = renderWithStore(<GatewayView />, managedState());
    const region = screen.getByRole('region', { name: 'Gateway session gs-1' });
    expect(region.textContent).toContain('A switch applies from the session’s next call.');
    const modes = within(region).getByRole('group', { name: 'Session mode' });
    expect(within(modes).getByRole('button', { name: 'Manage' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(within(modes).getByRole('button', { name: 'Manage' }));
    expect(controller.setGatewayMode).not.toHaveBeenCalled();
    fireEvent.click(within(modes).getByRole('button', { name: 'Observe' }));
    expect(controller.setGatewayMode).toHaveBeenCalledWith('gs-1', 'observe');
    const threads = within(region).getByRole('list', { name: 'Threads' });
    const items = within(threads).getAllByRole('listitem');
    expect(items.map((li) => li.querySelector('b')?.textContent)).toEqual(['main', 'subagent: explore']);
    expect(items[1]!.style.paddingLeft).toBe('1.2rem');
    fireEvent.click(within(items[1]!).getByRole('button'));
    expect(store.getState().gateway.threadId).toBe('th-sub');
  });

  it("the thread's calls newest first: usage, cache writes by lifetime, cache break with the provider's reason, timings, and the managed figures", () => {
    const { controller } = renderWithStore(<GatewayView />, managedState());
    const table = screen.getByRole('table', { name: 'Calls of main' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.getAttribute('data-call-id'))).toEqual(['c3', 'c2', 'c1']);
    const cells = (r: HTMLElement) => [...r.querySelectorAll('td')].map((c) => c.textContent);
    const [failed, managed, first] = rows.map(cells);
    expect(failed![0]).toMatch(/ · 429: rate limited$/);
    expect(rows[0]!.querySelector('td .gw__bad')?.textContent).toBe('429: rate limited');
    expect(failed![1]).toBe('—');
    expect(failed![9]).toContain('sent unchanged: the engine could not read the body');
    expect(managed!.slice(1, 10)).toEqual(['500', '1.5k', '400 / 200', '100', '$0.0061', '75%', 'message 3 (provider: system prompt changed)', '120 ms / 840 ms', 'gen 2 · boundary yes · 150k→42k tokens']);
    expect(first![7]).toBe('first call');
    expect(first![9]).toBe('observed');
    fireEvent.click(within(rows[1]!).getByRole('button', { name: /Show the original and rewritten request/ }));
    expect(controller.openGatewayRequest).toHaveBeenCalledWith('c2');
    expect(within(rows[0]!).queryByRole('button')).toBeNull();
  });

  it('generations: each listed, the newest shown with its diff from the one before, and Pin / Remove by the thread\'s pins and removals', () => {
    const { controller } = renderWithStore(<GatewayView />, managedState());
    const region = screen.getByRole('region', { name: 'Generations of main' });
    expect(region.textContent).toContain('apply at the thread’s next generation boundary');
    const list = within(region).getByRole('list', { name: 'Generations' });
    expect(within(list).getAllByRole('button').map((b) => b.querySelector('b')?.textContent)).toEqual(['Generation 2', 'Generation 1']);
    const changes = within(region).getByRole('list', { name: 'Changes since generation 1' });
    expect(within(changes).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['compressed toolu_read Read 12k→80 tokens: outside the protected window', 'dropped toolu_old: removed by the operator']);
    const compressedTable = within(region).getByRole('table', { name: 'Compressed in generation 2' });
    fireEvent.click(within(compressedTable).getByRole('button', { name: 'Pin toolu_read' }));
    expect(controller.gatewayControl).toHaveBeenLastCalledWith({ sessionId: 'gs-1', threadId: 'th-main', itemKey: 'toolu_read', action: 'pin' });
    fireEvent.click(within(compressedTable).getByRole('button', { name: 'Remove toolu_read' }));
    expect(controller.gatewayControl).toHaveBeenLastCalledWith({ sessionId: 'gs-1', threadId: 'th-main', itemKey: 'toolu_read', action: 'remove' });
    // A pinned item can be unpinned, not removed; a removed one restored, not pinned.
    const whole = within(region).getByRole('list', { name: 'Whole in generation 2' });
    expect((within(whole).getByRole('button', { name: 'Remove toolu_grep' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(whole).getByRole('button', { name: 'Unpin toolu_grep' }));
    expect(controller.gatewayControl).toHaveBeenLastCalledWith({ sessionId: 'gs-1', threadId: 'th-main', itemKey: 'toolu_grep', action: 'unpin' });
    const dropped = within(region).getByRole('list', { name: 'Dropped in generation 2' });
    expect((within(dropped).getByRole('button', { name: 'Pin toolu_old' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(dropped).getByRole('button', { name: 'Restore toolu_old' }));
    expect(controller.gatewayControl).toHaveBeenLastCalledWith({ sessionId: 'gs-1', threadId: 'th-main', itemKey: 'toolu_old', action: 'restore' });
    // The first generation against the client's request: what it compressed is all there is.
    fireEvent.click(within(list).getByRole('button', { name: /Generation 1/ }));
    expect(within(region).getByRole('group', { name: 'Generation 1' }).textContent).toContain('Since the client’s request');
  });

  it('an observed thread has no generations and says how to get one', () => {
    renderWithStore(<GatewayView />, managedState({ threadId: 'th-sub' }));
    expect(screen.getByRole('region', { name: 'Generations of subagent: explore' }).textContent).toContain('Switch the session to Manage');
  });

  it('the request viewer shows both requests pretty-printed, searches them, shows raw text that is not JSON, and closes', () => {
    const { store } = renderWithStore(<GatewayView />, managedState({ request: { callId: 'c2', original: '{"model":"claude","messages":[{"role":"user","content":"hello hello"}]}', rewritten: 'not json: hello', error: null } }));
    const viewer = screen.getByRole('region', { name: 'Request of call c2' });
    const original = within(viewer).getByLabelText('Original request');
    expect(original.textContent).toBe(JSON.stringify({ model: 'claude', messages: [{ role: 'user', content: 'hello hello' }] }, null, 2));
    expect(within(viewer).getByLabelText('Rewritten request').textContent).toBe('not json: hello');
    fireEvent.change(within(viewer).getByRole('searchbox', { name: 'Search the requests' }), { target: { value: 'HELLO' } });
    expect(original.querySelectorAll('mark')).toHaveLength(2);
    expect(within(viewer).getByRole('status').textContent).toBe('2 in the original, 1 in the rewritten');
    fireEvent.click(within(viewer).getByRole('button', { name: 'Close' }));
    expect(store.getState().gateway.request).toBeNull();
  });

  it("the request viewer says when the original went upstream, and a load's failure in words", () => {
    const { store } = renderWithStore(<GatewayView />, managedState({ request: { callId: 'c2', original: '{}', rewritten: null, error: null } }));
    expect(screen.getByText('The original went upstream unchanged.')).toBeTruthy();
    act(() => store.getState().dispatch({ type: 'gateway.requestOpen', callId: 'c9' }));
    act(() => store.getState().dispatch({ type: 'gateway.requestFailed', callId: 'c9', message: 'The request of call c9 could not be loaded: not kept' }));
    expect(screen.getByRole('alert').textContent).toBe('The request of call c9 could not be loaded: not kept');
  });

  it('a port: empty is none, 0…65535 is a port, anything else an error', () => {
    expect(parsePort('')).toEqual({});
    expect(parsePort(' 0 ')).toEqual({ port: 0 });
    expect(parsePort('65535')).toEqual({ port: 65535 });
    expect(parsePort('-1').error).toContain('whole number');
    expect(parsePort('80.5').error).toContain('whole number');
  });

  it('a detail not loaded yet, and one that failed, say so', () => {
    const { store } = renderWithStore(<GatewayView />, state({ status: makeGatewayStatus(), sessions: [makeGatewaySession('gs-1')], selectedId: 'gs-1' }));
    expect(screen.getByText('Loading session gs-1…')).toBeTruthy();
    act(() => store.getState().dispatch({ type: 'gateway.detailFailed', sessionId: 'gs-1', message: 'Gateway session gs-1 could not be loaded: gone' }));
    expect(screen.getByRole('alert').textContent).toBe('Gateway session gs-1 could not be loaded: gone');
    act(() => store.getState().dispatch({ type: 'gateway.detail', detail: makeGatewayDetail('gs-1') }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('region', { name: 'Calls of main' }).textContent).toContain('No calls kept for this thread.');
  });
});
