import type { ProviderSettingsDto } from '../../../engine/contract';
import { MODEL_NAME_MAX, MODEL_RUN_TASK_MAX } from '../../../engine/shared/limits';

export type ModelProvider = ProviderSettingsDto['provider'];

/** What the model-run form knows of each provider: its name for people, the variables the host reads, the model it offers first. */
export const MODEL_PROVIDERS: Record<ModelProvider, { label: string; keyVar: string; baseUrlVar: string; defaultModel: string }> = {
  anthropic: { label: 'Anthropic', keyVar: 'ANTHROPIC_API_KEY', baseUrlVar: 'ANTHROPIC_BASE_URL', defaultModel: 'claude-sonnet-4-5' },
  openai: { label: 'OpenAI', keyVar: 'OPENAI_API_KEY', baseUrlVar: 'OPENAI_BASE_URL', defaultModel: 'gpt-5-mini' },
};

/** The model the form shows for `provider`: the one the host's settings name, else the form's default. */
export function defaultModelOf(provider: ModelProvider, settings: readonly ProviderSettingsDto[]): string {
  return settings.find((s) => s.provider === provider)?.model ?? MODEL_PROVIDERS[provider].defaultModel;
}

const count = (n: number) => n.toLocaleString('en-US');

/**
 * Why the form's values cannot be sent yet, in words (`[run-model-form]`), or null when they can:
 * the host would refuse an empty or overlong task or model name, and a task of blanks only is no
 * task. Nothing is cut: an overlong text is left as typed for the user to shorten.
 */
export function modelRunProblem(values: { model: string; task: string }): string | null {
  if (values.task.trim() === '') return 'Type the task first: it is empty, and a run needs something to do.';
  if (values.task.length > MODEL_RUN_TASK_MAX) return `The task is ${count(values.task.length)} characters; a run takes up to ${count(MODEL_RUN_TASK_MAX)}. Shorten it (nothing was sent).`;
  if (values.model.trim() === '') return 'Name the model first: the model field is empty.';
  if (values.model.length > MODEL_NAME_MAX) return `The model name is ${count(values.model.length)} characters; a model name is at most ${count(MODEL_NAME_MAX)}.`;
  return null;
}
