import '../agent.css';

/**
 * Said wherever a control is withheld from a session agent: it is watched, never driven (the host
 * answers `conflict` to any command that would change it or its items).
 */
export function ReadOnlyNote({ sessionId, inline = false }: { sessionId: string; inline?: boolean }) {
  return (
    <p className={`readonly${inline ? ' readonly--inline' : ''}`} role="note" data-readonly={sessionId}>
      <b>Watching an attached session: read-only.</b>
      {!inline && <span>{sessionId} is replayed from its session file; pinning, removing, promoting, verifying, rebuilding, refreshing and run controls do not apply.</span>}
    </p>
  );
}
