import { MODEL_NAME_MAX, MODEL_RUN_TASK_MAX } from '../../../engine/shared/limits';
import { MODEL_PROVIDERS, type ModelProvider } from './modelRunForm';

/** The parts of a refused `startRun` the sentence is made from (an `ApiError`, or any error). */
export interface StartRunFailure {
  code?: string;
  message: string;
  issues?: readonly { path: string; message: string }[] | undefined;
}

/** One argument the host refused, in words about the form's field (never the argument's path or zod's text). */
function issueText(issue: { path: string; message: string }): string {
  const tooBig = /too big|<=|at most/i.test(issue.message);
  if (issue.path === 'task') return tooBig ? `The task is too long: a run takes up to ${MODEL_RUN_TASK_MAX.toLocaleString('en-US')} characters. Shorten it and start again.` : 'The task is empty: type what the run should do.';
  if (issue.path === 'model') return tooBig ? `The model name is too long (at most ${MODEL_NAME_MAX} characters).` : 'The model name is empty: name the model to run.';
  if (issue.path === 'provider') return 'Choose Anthropic or OpenAI as the provider.';
  return 'The host did not accept the form as sent; check the fields and start again.';
}

/** The host's own wording without the command's name in front. */
const plain = (message: string) => message.replace(/^Invalid arguments for "[^"]*": /, '').replace(/^"[^"]*" failed: /, '');

/**
 * Why the host did not start the model run, in a person's words (`[run-model-form]`): a missing
 * key names the variable to set and says Strata must be restarted (a key is never typed into the
 * control room), a refused field speaks of the field, a broken `strata.toml` says the file is at
 * fault, another active run says to stop it; the host's other refusals keep its own sentence, never
 * a command name, an argument path or a schema's text.
 */
export function startRunErrorText(provider: ModelProvider, err: StartRunFailure): string {
  const p = MODEL_PROVIDERS[provider];
  if (err.code === 'invalid_args' && err.issues && err.issues.length > 0) return issueText(err.issues[0]!);
  const said = plain(err.message).trim();
  if (err.code === 'unavailable' && /api key/i.test(said)) {
    return `Not started: the host has no ${p.label} key. Set ${p.keyVar} in the environment Strata is started from, then restart Strata (a key is never typed here).`;
  }
  if (err.code === 'invalid_args' && /strata\.toml/.test(said)) return `Not started: the folder's strata.toml has a problem. ${said}`;
  if (err.code === 'conflict' || err.code === 'unavailable' || err.code === 'invalid_args') return `Not started: ${said}`;
  if (err.code === undefined) return `The run could not be sent to the host (${said.replace(/\.$/, '')}); check the connection and start again.`;
  return `Not started: the host failed to start the run (${said.replace(/\.$/, '')}).`;
}
