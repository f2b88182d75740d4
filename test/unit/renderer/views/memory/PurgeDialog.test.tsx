import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PURGE_CONFIRMATION } from '../../../../../engine/contract';
import { RESIDUAL_EXPOSURE } from '../../../../../engine/node/memoryStore/MemoryStore';
import { PurgeDialog } from '../../../../../renderer/views/memory/PurgeDialog';
import { MemoryView } from '../../../../../renderer/views/memory/MemoryView';
import { initialRootState } from '../../../../../renderer/store/reduce';
import { renderWithStore } from '../../renderWithStore';
import { makeMemoryEntry } from '../../compareMemoryFixtures';

afterEach(cleanup);

describe('purge dialog', () => {
  it('states the engine’s own residual-exposure policy and the contract’s confirmation words', () => {
    renderWithStore(<PurgeDialog entries={3} purging={false} onConfirm={() => {}} onClose={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: 'Purge project memory?' });
    expect(dialog).toHaveProperty('ariaModal', 'true');
    expect(screen.getByTestId('residual-policy').textContent).toContain(RESIDUAL_EXPOSURE);
    expect(dialog.textContent).toContain('all 3 entries');
    expect(dialog.textContent).toContain(`Type ${PURGE_CONFIRMATION} to confirm`);
  });

  it('purges only once the confirmation words are typed', () => {
    const onConfirm = vi.fn();
    renderWithStore(<PurgeDialog entries={1} purging={false} onConfirm={onConfirm} onClose={() => {}} />);
    const purge = screen.getByRole('button', { name: 'Purge memory' }) as HTMLButtonElement;
    const input = screen.getByLabelText(/to confirm/);
    expect(document.activeElement).toBe(input);
    expect(purge.disabled).toBe(true);
    fireEvent.change(input, { target: { value: 'purge project' } });
    fireEvent.submit(input.closest('form') as HTMLFormElement);
    expect(onConfirm).not.toHaveBeenCalled();
    fireEvent.change(input, { target: { value: 'purge project memory' } });
    expect(purge.disabled).toBe(false);
    fireEvent.click(purge);
    expect(onConfirm).toHaveBeenCalledWith('purge project memory');
  });

  it('closes on Escape and keeps Tab inside (wrapping both ways)', () => {
    const onClose = vi.fn();
    renderWithStore(<PurgeDialog entries={1} purging={false} onConfirm={() => {}} onClose={onClose} />);
    const dialog = screen.getByRole('dialog');
    const input = screen.getByLabelText(/to confirm/);
    const cancel = screen.getByRole('button', { name: 'Cancel' });
    fireEvent.change(input, { target: { value: 'purge project memory' } });
    const purge = screen.getByRole('button', { name: 'Purge memory' });
    purge.focus();
    fireEvent.keyDown(dialog, { key: 'Tab' });
    expect(document.activeElement).toBe(input);
    fireEvent.keyDown(dialog, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(purge);
    cancel.focus();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

describe('memory view', () => {
  const state = (over: Partial<typeof initialRootState.memory> = {}) => ({ ...initialRootState, memory: { ...initialRootState.memory, status: 'ready' as const, ...over } });

  it('shows state, verified flag, evidence, observation and freshness; verify and retire name the shown revision', () => {
    const entry = makeMemoryEntry('m1', { revision: 4, evidence: { paths: ['src/a.ts', 'src/b.ts'], commands: [], commit: null } });
    const { controller } = renderWithStore(<MemoryView />, state({ entries: [entry] }));
    const item = screen.getByRole('listitem', { name: 'Memory entry title of m1' });
    expect(item.textContent).toContain('candidate');
    expect(item.textContent).toContain('✕ not verified');
    expect(item.textContent).toContain('src/a.ts');
    expect(item.textContent).toContain('src/b.ts');
    expect(item.textContent).toMatch(/freshnessobserved (today|\d+ days? ago)/);
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(controller.verifyMemory).toHaveBeenCalledWith('m1', 4);
    fireEvent.click(screen.getByRole('button', { name: 'Retire' }));
    expect(controller.retireMemory).toHaveBeenCalledWith('m1', 4);
    expect(controller.loadMemory).toHaveBeenCalled();
  });

  it('explains a revision conflict by the entry, with a way to reload', () => {
    const { controller } = renderWithStore(<MemoryView />, state({ entries: [makeMemoryEntry('m1', { revision: 2 })], entryError: { id: 'm1', code: 'conflict', message: 'Entry m1 is at revision 3, not 2.' } }));
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Changed elsewhere');
    expect(alert.textContent).toContain('revision moved');
    expect(alert.textContent).toContain('Entry m1 is at revision 3, not 2.');
    controller.loadMemory.mockClear();
    fireEvent.click(screen.getByRole('button', { name: 'Reload memory' }));
    expect(controller.loadMemory).toHaveBeenCalledTimes(1);
  });

  it('opens the purge dialog, purges with the words, and shows the purge report with the host’s residual statement', () => {
    const { controller, store } = renderWithStore(<MemoryView />, state({ entries: [makeMemoryEntry('m1')] }));
    fireEvent.click(screen.getByRole('button', { name: 'Purge memory…' }));
    fireEvent.change(screen.getByLabelText(/to confirm/), { target: { value: 'purge project memory' } });
    fireEvent.click(screen.getByRole('button', { name: 'Purge memory' }));
    expect(controller.purgeMemory).toHaveBeenCalledWith('purge project memory');
    expect(screen.queryByRole('dialog')).toBeNull();
    act(() => store.getState().dispatch({ type: 'memory.purged', report: { deleted: 1, recalledCopiesDeleted: 2, vacuumed: true, walTruncated: false, residual: 'The rows are deleted, but the WAL could not be truncated.' } }));
    const report = screen.getByRole('status', { name: 'Purge report' });
    expect(report.textContent).toContain('entries deleted1');
    expect(report.textContent).toContain('WAL truncatedno');
    expect(report.textContent).toContain('The rows are deleted, but the WAL could not be truncated.');
  });

  it('has an empty state and a loading state', () => {
    renderWithStore(<MemoryView />, state());
    expect(screen.getByText(/No project memory yet/)).toBeTruthy();
  });
});
