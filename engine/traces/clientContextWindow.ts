/**
 * The context window a recording client ran its model with (`[live-windows]`), so a real agent's
 * prompt is measured against its own window and never against Strata's replay budget: the window
 * the file records (Codex `model_context_window`); else, for a Claude model, 200k, or 1M once a
 * recorded prompt was larger than 200k (only the 1M window takes one); else unknown. Pure.
 */

/** Where a window figure comes from: the file, the model's standard window, or a prompt only the larger window takes. */
type WindowSource = 'recorded' | 'model' | 'inferred';

export interface ClientWindow {
  tokens: number;
  source: WindowSource;
}

const CLAUDE_WINDOW = 200_000;
const CLAUDE_LONG_WINDOW = 1_000_000;

/** The client's context window, or null when neither the file nor the model tells it. */
export function clientContextWindow(o: { recorded: number | null; model: string | null; largestPrompt: number }): ClientWindow | null {
  if (o.recorded !== null && o.recorded > 0) return { tokens: o.recorded, source: 'recorded' };
  if (o.model && /claude/i.test(o.model)) return o.largestPrompt > CLAUDE_WINDOW ? { tokens: CLAUDE_LONG_WINDOW, source: 'inferred' } : { tokens: CLAUDE_WINDOW, source: 'model' };
  return null;
}
