import type { AgentStatus } from '../../engine/contract';

const glyph: Record<AgentStatus, string> = { waiting: '○', running: '●', refreshing: '⟳', done: '✓', failed: '✕', paused: '❚❚' };

export function StatusBadge({ status }: { status: AgentStatus }) {
  return (
    <span className={`status status--${status}`} title={status} data-status={status}>
      {glyph[status]} <span className="status__text">{status}</span>
    </span>
  );
}
