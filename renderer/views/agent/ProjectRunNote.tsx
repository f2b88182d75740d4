import type { RootState } from '../../store/reduce';

/** The workspace is a project folder of the user's own, not the bundled demo (`health`; `[run-project-folder]`). */
export const selectProjectFolder = (s: RootState): boolean => s.connection.health?.workspace.projectFolder === true;

/**
 * What an empty project folder says instead of playing the demo: how a run of its own starts and
 * what it needs (the host refuses Start there with the same words), with the way into the form
 * that starts one (`[run-model-form]`).
 */
export function ProjectRunNote({ onStartModelRun }: { onStartModelRun: () => void }) {
  return (
    <p className="runbar__note" role="note" aria-label="How to start a run">
      This workspace is your project folder, not the demo, so Start does not play the demo here. A run of its own is a model run: a provider, a model and a task.{' '}
      <button type="button" className="link" onClick={onStartModelRun}>
        Start a model run…
      </button>{' '}
      It needs a provider key in the environment (<code>ANTHROPIC_API_KEY</code>, or <code>OPENAI_API_KEY</code> with <code>OPENAI_BASE_URL</code> for another server) and, for its agents to run
      commands, an allowlist in the folder's <code>strata.toml</code>: <code>[tools] allow = ["npm test"]</code>.
    </p>
  );
}
