import type { AgentDto } from '../../../engine/contract';
import { UtilizationBar } from '../../components/UtilizationBar';
import { tokens } from '../../components/format';
import './attach.css';

type Recorded = NonNullable<AgentDto['recorded']>;

const WINDOW_NOTE: Record<NonNullable<Recorded['windowSource']>, string> = {
  recorded: 'as the session file records it',
  model: "the model's standard window",
  inferred: 'the only window that takes its largest recorded prompt',
};

/** Who the real agent is, in words ("Claude Code", else "the recording agent"). */
export const clientName = (r: Recorded): string => r.client ?? 'the recording agent';

/** The real client's context, in words: its prompt against its own window (never Strata's budget). */
export function recordedContextText(r: Recorded): string {
  return r.window === null ? `${tokens(r.tokens)} tokens (window unknown)` : `${tokens(r.tokens)} / ${tokens(r.window)} tokens of its context window (${WINDOW_NOTE[r.windowSource ?? 'model']})`;
}

/**
 * An attached session's agent has two contexts, each shown with its own name and window
 * (`[live-windows]`): the real client's prompt at its latest recorded call against the window it
 * ran with, and Strata's replay, its current generation against the replay budget.
 */
export function SessionAgentMeters({ agent, recorded }: { agent: AgentDto; recorded: Recorded }) {
  const who = clientName(recorded);
  return (
    <span className="session-meters">
      <span className="session-meters__one">
        <span className="session-meters__who">{who}</span>
        {recorded.window === null ? (
          <span title={`${who}'s prompt at its latest recorded call; its context window is unknown`}>{tokens(recorded.tokens)}</span>
        ) : (
          <UtilizationBar used={recorded.tokens} budget={recorded.window} label={`${who}'s context (real) against its ${tokens(recorded.window)} window`} />
        )}
      </span>
      <span className="session-meters__one">
        <span className="session-meters__who">Strata replay</span>
        <UtilizationBar used={agent.tokens} budget={agent.budget} label={`Strata's replay context against its ${tokens(agent.budget)} replay budget`} />
      </span>
    </span>
  );
}
