import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryView } from '../../../../../renderer/views/memory/MemoryView';
import { NewConstraint } from '../../../../../renderer/views/agent/NewConstraint';
import { initialRootState } from '../../../../../renderer/store/reduce';
import { renderWithStore } from '../../renderWithStore';
import { makeMemoryEntry } from '../../compareMemoryFixtures';

afterEach(cleanup);

const state = (over: Partial<typeof initialRootState.memory> = {}) => ({ ...initialRootState, memory: { ...initialRootState.memory, status: 'ready' as const, ...over } });

describe('memory entry: edit and unverify (issue 22, items 11 and 13)', () => {
  it('[memory-unverify] a verified entry offers Unverify (not Verify), naming the shown revision', () => {
    const { controller } = renderWithStore(<MemoryView />, state({ entries: [makeMemoryEntry('m1', { revision: 3, state: 'verified', verified: true })] }));
    expect(screen.queryByRole('button', { name: 'Verify' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Unverify' }));
    expect(controller.unverifyMemory).toHaveBeenCalledWith('m1', 3);
  });

  it('[memory-edit] Edit opens the title and body, says a verified entry becomes a candidate, and saves them at the shown revision', async () => {
    const { controller } = renderWithStore(<MemoryView />, state({ entries: [makeMemoryEntry('m1', { revision: 2, state: 'verified', verified: true })] }));
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    const form = screen.getByRole('form', { name: 'Edit title of m1' });
    expect(form.textContent).toContain('Saving makes this verified entry a candidate again');
    fireEvent.change(screen.getByLabelText('Body'), { target: { value: 'New body' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(controller.editMemory).toHaveBeenCalledWith('m1', 2, { title: 'title of m1', body: 'New body' });
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Edit title of m1' })).toBeNull());
  });
});

describe('new constraint form', () => {
  const withAgent = { ...initialRootState, ui: { ...initialRootState.ui, selectedAgentId: 'primary' } };

  it('[user-constraint] refuses empty text without calling the host, then sends text, title and pinned (on by default)', async () => {
    const { controller } = renderWithStore(<NewConstraint />, withAgent);
    fireEvent.click(screen.getByRole('button', { name: '+ New constraint' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add constraint' }));
    expect(screen.getByRole('alert').textContent).toContain('the text is empty');
    expect(controller.addConstraint).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText(/^Title/), { target: { value: 'No deps' } });
    fireEvent.change(screen.getByLabelText(/^Constraint/), { target: { value: 'Add no dependency.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add constraint' }));
    expect(controller.addConstraint).toHaveBeenCalledWith('primary', { text: 'Add no dependency.', title: 'No deps', pinned: true });
    // The spy answers with an error: it is shown and the form keeps the text.
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('not wired in this test'));
    expect((screen.getByLabelText(/^Constraint/) as HTMLTextAreaElement).value).toBe('Add no dependency.');
  });

  it('is not offered without a selected agent', () => {
    renderWithStore(<NewConstraint />, initialRootState);
    expect(screen.queryByRole('button', { name: '+ New constraint' })).toBeNull();
  });
});
