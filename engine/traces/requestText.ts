/**
 * What of a recorded user turn is the user's own request (`[live-title]`): Claude Code and Codex
 * write turns of their own into the user role — a slash command's caveat, name and output, a
 * background task's notification, an interruption notice, system reminders, Codex's environment and
 * instructions preambles — and a session is titled by its first turn that is none of those. Pure.
 */

/** Wrappers a whole turn is made of when the client, not the user, wrote it. */
const CLIENT_TURN = /^(?:<(?:local-command-caveat|command-name|command-message|command-args|local-command-stdout|local-command-stderr|task-notification|bash-input|bash-stdout|bash-stderr|user-prompt-submit-hook|environment_context|user_instructions|turn_aborted)>|# AGENTS\.md instructions|\[Request interrupted by user)/;

/** Reminders the client appends to (or sends as) a user turn; never part of the request. */
const REMINDER = /<system-reminder>[\s\S]*?(?:<\/system-reminder>|$)/g;

/** The user's request in a recorded user turn, trimmed; '' when the client wrote the turn or nothing is left. */
export function requestText(text: string): string {
  const t = text.replace(REMINDER, '').trim();
  return CLIENT_TURN.test(t) ? '' : t;
}
