import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { initialRootState } from '../../../../renderer/store/reduce';
import { LogStrip } from '../../../../renderer/views/LogStrip';
import { makeLogEntry } from '../fixtures';
import { logLineText, renderWithStore } from '../renderWithStore';

describe('LogStrip', () => {
  afterEach(cleanup);

  it('shows the newest six workspace lines with the agent that wrote them', () => {
    const entries = Array.from({ length: 8 }, (_, i) => makeLogEntry(i + 1, { agentId: i % 2 ? `agent-${i + 1}` : null, message: `event ${i + 1}` }));
    renderWithStore(<LogStrip />, { ...initialRootState, log: { entries } });
    const items = within(screen.getByRole('contentinfo', { name: 'Event log' })).getAllByRole('listitem');
    expect(items.map(logLineText)).toEqual([
      'event 3',
      'agent-4 event 4',
      'event 5',
      'agent-6 event 6',
      'event 7',
      'agent-8 event 8',
    ]);
  });
});
